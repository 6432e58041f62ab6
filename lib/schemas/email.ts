import { z } from "zod";

/** An e-mail address, trimmed and lower-cased so lookups and uniqueness ignore case. */
export const EmailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: "must be a valid e-mail address" }))
  .meta({ format: "email", example: "ana@example.com" });
