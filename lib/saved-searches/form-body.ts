import { parseCatalogue } from "../sites/render/catalogue-query";

/**
 * The catalogue form's fields as the API body: the filters come from the page's own URL state
 * (parsed as the catalogue parses it, so the alert is exactly what the visitor was looking at),
 * the contact and choices from the form.
 */
export function savedSearchFormBody(form: Record<string, string>, locale: string) {
  const s = parseCatalogue(form);
  const filters = Object.fromEntries(
    Object.entries({
      q: s.q,
      type: s.type,
      propertyType: s.propertyType,
      minPrice: s.minPrice,
      maxPrice: s.maxPrice,
      bedrooms: s.bedrooms,
      minArea: s.minArea,
      maxArea: s.maxArea,
      city: s.city,
      neighborhood: s.neighborhood,
    }).filter(([, v]) => v !== undefined),
  );
  const channel = form.channel === "whatsapp" ? "whatsapp" : "email";
  const contact: Record<string, string> = {};
  if (form.name?.trim()) contact.name = form.name;
  if (form.email?.trim()) contact.email = form.email;
  if (form.phone?.trim()) contact.phone = form.phone;
  return {
    filters,
    contact,
    channel,
    frequency: form.frequency === "daily" ? "daily" : "instant",
    consent: form.consent === "yes",
    locale,
    ...(form.visitorId ? { visitorId: form.visitorId } : {}),
  };
}
