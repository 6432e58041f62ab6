/**
 * Reading the public documents pages render (a search or detail document, a share resolve's
 * entity): loosely typed JSON, so every read says what it expects and gets a neutral value otherwise.
 */
export type Doc = Record<string, unknown>;

export const num = (v: unknown): number | null =>
  typeof v === "number" && Number.isFinite(v) ? v : typeof v === "string" && v.trim() && Number.isFinite(Number(v)) ? Number(v) : null;
export const str = (v: unknown): string => (typeof v === "string" ? v : "");
export const obj = (v: unknown): Doc => (v && typeof v === "object" && !Array.isArray(v) ? (v as Doc) : {});
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
