import type { Locale } from "../../i18n/locales";
import { str, type Doc } from "./doc-fields";

/** Listing text in the visitor's language (`title_en`), Portuguese when the translation is blank. */
export function localized(doc: Doc, field: "title" | "description", locale: Locale): string {
  if (locale !== "pt-BR") {
    const t = str(doc[`${field}_${locale}`]).trim();
    if (t) return t;
  }
  return str(doc[field]);
}

/**
 * `lang="pt-BR"` for a listing text shown in Portuguese on an English or Spanish page (its
 * translation is blank), so screen readers read it with a Portuguese voice; else nothing.
 */
export function fallbackLang(doc: Doc, field: "title" | "description", locale: Locale): "pt-BR" | undefined {
  return locale !== "pt-BR" && !str(doc[`${field}_${locale}`]).trim() && str(doc[field]).trim() ? "pt-BR" : undefined;
}
