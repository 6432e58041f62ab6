import { createHash } from "node:crypto";
import { invalid } from "../../errors/domain-errors";
import { mac } from "../secret-box";

export type CursorKey = { u?: boolean; at: string; id: string };

/** What a cursor is tied to: the tenant, the API key's member and every filter (not `limit`). */
export function scopeHash(tenantId: string, userId: string, filters: unknown): string {
  return createHash("sha256")
    .update(JSON.stringify([tenantId, userId, filters]))
    .digest("base64url")
    .slice(0, 16);
}

/** Opaque: base64url JSON of the last row's sort key plus the scope, signed so it cannot be forged or moved. */
export function encodeCursor(scope: string, key: CursorKey): string {
  const payload = Buffer.from(JSON.stringify({ s: scope, ...key })).toString("base64url");
  return `${payload}.${mac(payload)}`;
}

const refused = (why: string) =>
  invalid(`query parameter \`cursor\`: ${why}; send back \`page.nextCursor\` unchanged, with the same filters, from the same API key's tenant.`);

export function decodeCursor(cursor: string, scope: string): CursorKey {
  const [payload, sig] = cursor.split(".");
  if (!payload || !sig || cursor.length > 500 || mac(payload) !== sig) throw refused("is not a cursor this service issued");
  let c: { s?: unknown; u?: unknown; at?: unknown; id?: unknown };
  try {
    c = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    throw refused("is not a cursor this service issued");
  }
  if (c.s !== scope) throw refused("belongs to another query (its filters or tenant differ)");
  if (typeof c.at !== "string" || typeof c.id !== "string" || Number.isNaN(Date.parse(c.at))) throw refused("is damaged");
  return { u: c.u === true ? true : c.u === false ? false : undefined, at: c.at, id: c.id };
}
