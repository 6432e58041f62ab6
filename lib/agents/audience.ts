/**
 * Business hours for the `after_hours` audience: 08:00 to 18:00, Monday to Friday, in São Paulo
 * (UTC-3 all year since 2019, so no time-zone database is needed).
 */
export function isAfterHours(at: Date): boolean {
  const local = new Date(at.getTime() - 3 * 3600_000);
  const day = local.getUTCDay();
  const hour = local.getUTCHours();
  return day === 0 || day === 6 || hour < 8 || hour >= 18;
}

/** Words that opt a contact out (spec of issue 34): the whole message, any case, accents and punctuation ignored. */
export const OPT_OUT_WORDS = ["SAIR", "PARAR", "STOP", "CANCELAR"] as const;

export function isOptOutWord(text: string | null | undefined): boolean {
  if (!text) return false;
  const word = text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^\p{L}\s]/gu, "")
    .trim()
    .toUpperCase();
  return (OPT_OUT_WORDS as readonly string[]).includes(word);
}
