import { z } from "zod";
import { CONNECTION_STATES, TRANSPORTS } from "../providers/types";

/**
 * Repeated keys make arrays (`?transports=whatsapp&transports=email`); a comma inside one value
 * is refused with a message that says to repeat the key (spec 1 §4.3, §7).
 */
export function enumArray<T extends readonly [string, ...string[]]>(values: T) {
  return z
    .union([z.string(), z.array(z.string())])
    .transform((v) => [v].flat())
    .superRefine((list, ctx) => {
      for (const v of list) {
        if (v.includes(","))
          ctx.addIssue({ code: "custom", message: `comma-separated values are not accepted ('${v.slice(0, 60)}'): repeat the key for each value` });
        else if (!(values as readonly string[]).includes(v))
          ctx.addIssue({ code: "custom", message: `'${v.slice(0, 60)}' is not one of ${values.join(", ")}` });
      }
    })
    .pipe(z.array(z.enum(values)))
    .meta({ description: `Repeat the key for several values: ${values.join(", ")}.` });
}

export const boolParam = z.enum(["true", "false"]).transform((v) => v === "true");
export const TransportsParam = enumArray(TRANSPORTS);
export const ConnectionStatesParam = enumArray(CONNECTION_STATES);
export const LimitParam = z.coerce.number().int().min(1).max(100);
