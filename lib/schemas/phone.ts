import { parsePhoneNumberFromString } from "libphonenumber-js/max";
import { z } from "zod";

/**
 * Any human phone format to E.164, assuming Brazil when no country code is given.
 * Returns null when the text is not a valid number.
 */
export function toE164(input: string, defaultCountry: "BR" = "BR"): string | null {
  const parsed = parsePhoneNumberFromString(input.trim(), defaultCountry);
  return parsed?.isValid() ? parsed.number : null;
}

/** zod field: a phone in any format, normalised to E.164, or a 400 that says what is wrong. */
export const PhoneSchema = z
  .string()
  .trim()
  .min(1)
  .max(40)
  .transform((v, ctx) => {
    const e164 = toE164(v);
    if (!e164) {
      ctx.addIssue({ code: "custom", message: `'${v}' is not a valid phone number (use E.164 such as +5511987654321, or a Brazilian number with area code)` });
      return z.NEVER;
    }
    return e164;
  })
  .meta({ description: "Phone in any format; normalised to E.164 (Brazil assumed without country code).", example: "+5511987654321" });
