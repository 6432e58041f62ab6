import { createHmac, timingSafeEqual } from "node:crypto";
import { bearerToken } from "../auth/bearer";

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * A provider notification is authentic when it carries `Authorization: Bearer <secret>`, or the
 * lowercase or uppercase hex HMAC-SHA256 of the exact raw bytes (optional `sha256=` prefix) in the
 * provider's signature header. Both comparisons are constant-time; the body is not parsed before.
 */
export function verifyProviderRequest(secret: string, signatureHeader: string, headers: Headers, raw: Buffer): boolean {
  const bearer = bearerToken(headers);
  if (bearer && same(bearer, secret)) return true;
  const sent = headers
    .get(signatureHeader)
    ?.trim()
    .replace(/^sha256=/i, "")
    .toLowerCase();
  if (!sent) return false;
  return same(sent, createHmac("sha256", secret).update(raw).digest("hex"));
}
