import type { Locale } from "../../i18n/locales";
import { loose, type Translator } from "../../i18n/translator";
import { arr, obj, str } from "./doc-fields";

/**
 * The name of a property type for a visitor: in Portuguese the tenant's own label (its words),
 * elsewhere our translation of a known type; then whichever exists; the id as a last resort.
 * `tenantTypes` is the tenant's `propertyTypes` (`{id, label}[]`) as any surface has it.
 */
export function typeLabel(id: unknown, locale: Locale, t: Translator, tenantTypes: unknown): string {
  const key = str(id);
  if (!key) return "";
  const own = str(
    arr(tenantTypes)
      .map(obj)
      .find((p) => p.id === key)?.label,
  );
  const translated = t.has(`propertyType.${key}` as never) ? loose(t)(`propertyType.${key}`) : "";
  return (locale === "pt-BR" ? own || translated : translated || own) || key;
}
