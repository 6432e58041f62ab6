import type { CmsField } from "../../db/schema";
import { invalid } from "../errors/domain-errors";
import { isSitePath } from "../util/site-path";

const MAX_TEXT = 100_000;

/**
 * An entry's `fields` checked against its collection's definitions: unknown ids, missing required
 * values and values of the wrong type are 400s naming the field, so the site never renders a
 * page from data it cannot show.
 */
export function checkEntryFields(defs: CmsField[], fields: Record<string, unknown>): Record<string, unknown> {
  const byId = new Map(defs.map((d) => [d.id, d]));
  for (const key of Object.keys(fields)) {
    if (!byId.has(key))
      throw invalid(`body field \`fields.${key}\`: the collection has no field '${key}' (its fields: ${defs.map((d) => d.id).join(", ") || "none"}).`);
  }
  for (const d of defs) {
    const v = fields[d.id];
    const empty = v === undefined || v === null || (typeof v === "string" && !v.trim());
    if (empty) {
      if (d.required) throw invalid(`body field \`fields.${d.id}\`: is required by the collection ('${d.label}').`);
      continue;
    }
    const problem = typeProblem(d.type, v);
    if (problem) throw invalid(`body field \`fields.${d.id}\`: ${problem}.`);
  }
  return fields;
}

function typeProblem(type: string, v: unknown): string | null {
  switch (type) {
    case "text":
    case "richText":
      return typeof v === "string" && v.length <= MAX_TEXT ? null : `must be text of at most ${MAX_TEXT} characters`;
    case "number":
      return typeof v === "number" && Number.isFinite(v) ? null : "must be a number";
    case "boolean":
      return typeof v === "boolean" ? null : "must be true or false";
    case "date":
      return typeof v === "string" && /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2})?)?$/.test(v) && !Number.isNaN(Date.parse(v))
        ? null
        : "must be an ISO date such as 2026-11-24";
    case "image":
    case "url":
      return typeof v === "string" && (/^https?:\/\/\S+$/.test(v) || isSitePath(v)) && v.length <= 2000
        ? null
        : "must be an http(s) URL or a path starting with /";
    default:
      return null;
  }
}
