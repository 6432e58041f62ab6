import type { Locale } from "./locales";

const cache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();
function nf(locale: Locale, key: string, opts: Intl.NumberFormatOptions): Intl.NumberFormat {
  const k = `${locale}|n|${key}`;
  let f = cache.get(k) as Intl.NumberFormat | undefined;
  if (!f) cache.set(k, (f = new Intl.NumberFormat(locale, opts)));
  return f;
}

/** R$ 1.250.000 / R$1,250,000 / 1.250.000 R$: reais in the visitor's locale, no cents unless asked. */
export const formatMoney = (locale: Locale, v: number, cents = false) =>
  nf(locale, cents ? "brl2" : "brl0", {
    style: "currency",
    currency: "BRL",
    maximumFractionDigits: cents ? 2 : 0,
    minimumFractionDigits: cents ? 2 : 0,
  }).format(v);

export const formatNumber = (locale: Locale, v: number, digits = 0) => nf(locale, `num${digits}`, { maximumFractionDigits: digits }).format(v);

/** A day in the visitor's words (`4 de maio de 2030`), in São Paulo's time zone; "" for nothing or an invalid date. */
export function formatDate(locale: Locale, iso: string | Date | null | undefined): string {
  if (!iso) return "";
  const d = typeof iso === "string" ? new Date(iso) : iso;
  if (Number.isNaN(d.getTime())) return "";
  const k = `${locale}|d`;
  let f = cache.get(k) as Intl.DateTimeFormat | undefined;
  if (!f) cache.set(k, (f = new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "America/Sao_Paulo" })));
  return f.format(d);
}
