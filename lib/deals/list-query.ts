import { z } from "zod";
import { PageQuery } from "../schemas/paging";

/** `customFilters`: a URL-encoded JSON object of custom keys to scalar values (equality). */
const CustomFilters = z.string().transform((text, ctx) => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    ctx.addIssue({ code: "custom", message: 'must be a URL-encoded JSON object, e.g. {"origem":"portal"}' });
    return z.NEVER;
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
    ctx.addIssue({ code: "custom", message: "must be a JSON object of custom keys to values" });
    return z.NEVER;
  }
  for (const [k, v] of Object.entries(parsed)) {
    if (v === null || !["string", "number", "boolean"].includes(typeof v)) {
      ctx.addIssue({ code: "custom", message: `value of '${k}' must be a string, number or boolean` });
      return z.NEVER;
    }
  }
  return parsed as Record<string, string | number | boolean>;
});

export const ListDealsQuery = z
  .strictObject({
    ...PageQuery,
    dealType: z.enum(["rental", "sale"]).optional(),
    stage: z.string().min(1).max(48).optional(),
    status: z.enum(["open", "won", "lost"]).optional(),
    assignedToId: z.uuid().optional(),
    marketingChannelInstanceId: z.uuid().optional(),
    customFilters: CustomFilters.optional().meta({ description: "URL-encoded JSON object; equality on custom keys." }),
  })
  .meta({ id: "ListDealsQuery" });

export type ListDealsQueryInput = z.infer<typeof ListDealsQuery>;
