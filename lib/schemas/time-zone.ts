import { z } from "zod";

/** A zone `Intl` knows (`America/Sao_Paulo`); anything else would make every hour check fail. */
export const TimeZoneSchema = z
  .string()
  .max(64)
  .refine((tz) => {
    try {
      new Intl.DateTimeFormat("en", { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  }, "must be an IANA time zone such as America/Sao_Paulo");
