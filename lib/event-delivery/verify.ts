import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Verifies a webhook from this service on the receiving side. Copy it into your receiver:
 *
 *   const ok = verifyWebhook({
 *     secret: process.env.WEBHOOK_SECRET!,
 *     body: rawBodyAsString,                       // the exact bytes received, before JSON.parse
 *     timestamp: req.headers["x-webhook-timestamp"],
 *     signature: req.headers["x-webhook-signature"],
 *   });
 *
 * It recomputes `sha256=` + hex HMAC-SHA256 of `timestamp + "." + body`, compares in constant
 * time, and refuses timestamps more than 5 minutes away from the local clock in either direction.
 */
export function verifyWebhook(input: {
  secret: string;
  body: string | Buffer;
  timestamp: string | string[] | null | undefined;
  signature: string | string[] | null | undefined;
  toleranceSeconds?: number;
  nowSeconds?: number;
}): { ok: true } | { ok: false; reason: "missing_headers" | "bad_timestamp" | "stale_timestamp" | "bad_signature" } {
  const timestamp = Array.isArray(input.timestamp) ? input.timestamp[0] : input.timestamp;
  const signature = Array.isArray(input.signature) ? input.signature[0] : input.signature;
  if (!timestamp || !signature) return { ok: false, reason: "missing_headers" };
  if (!/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: "bad_timestamp" };
  const now = input.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - Number(timestamp)) > (input.toleranceSeconds ?? 300)) return { ok: false, reason: "stale_timestamp" };
  const expected = Buffer.from(`sha256=${createHmac("sha256", input.secret).update(`${timestamp}.`).update(input.body).digest("hex")}`);
  const given = Buffer.from(signature.trim());
  // timingSafeEqual needs equal lengths; a length mismatch is a mismatch, told in constant time.
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: "bad_signature" };
  return { ok: true };
}
