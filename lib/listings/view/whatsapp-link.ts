/** The digits of a phone number as a broker typed it (`+55 (11) 95555-4444` -> `5511955554444`). */
export const phoneDigits = (phone: string | null | undefined): string => phone?.replace(/\D/g, "") ?? "";

/** A WhatsApp chat with the number, with a first message when given; null for anything too short to be a number. */
export function whatsappLink(phone: string | null | undefined, text?: string): string | null {
  const digits = phoneDigits(phone);
  if (digits.length < 8) return null;
  return `https://wa.me/${digits}${text ? `?text=${encodeURIComponent(text)}` : ""}`;
}

/** A call to the number (`tel:+5511955554444`), or null. */
export function telLink(phone: string | null | undefined): string | null {
  const digits = phoneDigits(phone);
  return digits.length < 8 ? null : `tel:+${digits}`;
}
