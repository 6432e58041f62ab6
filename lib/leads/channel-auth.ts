import { createHmac, timingSafeEqual } from "node:crypto";
import type { MarketingChannelInstanceRow } from "../../db/schema";
import { bearerToken } from "../auth/bearer";
import { unauthorized } from "../errors/domain-errors";
import { hashToken } from "./channel-tokens";

const same = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** Only the feed token's SHA-256 is stored; compared in constant time. */
function feedTokenMatches(channel: MarketingChannelInstanceRow, headers: Headers): boolean {
  const sent = bearerToken(headers);
  return Boolean(sent && channel.feedTokenHash) && same(hashToken(sent!), channel.feedTokenHash!);
}

/** Bearer secret, or the hex HMAC-SHA256 of the exact raw body (optional `sha256=` prefix); constant-time. */
function secretMatches(secret: string, headers: Headers, raw: Buffer): boolean {
  const sent = bearerToken(headers);
  if (sent && same(sent, secret)) return true;
  const expected = createHmac("sha256", secret).update(raw).digest("hex");
  for (const h of ["x-hmac-sha256", "x-signature"]) {
    const sent = headers
      .get(h)
      ?.trim()
      .replace(/^sha256=/i, "")
      .toLowerCase();
    if (sent && same(sent, expected)) return true;
  }
  return false;
}

/** The feeds of a channel take its feed token as Bearer. */
export function verifyFeedToken(channel: MarketingChannelInstanceRow, headers: Headers): void {
  if (!feedTokenMatches(channel, headers))
    throw unauthorized("This feed needs the channel's feed token: Authorization: Bearer <feedToken> (rotate it in the channel's settings).");
}

/** A channel's leads, when it has a secret (spec 2 §5.3). */
export function verifySignature(secret: string, headers: Headers, raw: Buffer): void {
  if (!secretMatches(secret, headers, raw)) {
    throw unauthorized("This channel requires its secret: send Authorization: Bearer <secret>, or the hex HMAC-SHA256 of the body in X-Hmac-Sha256.");
  }
}

/**
 * Writes by the channel's system (the buildings import rewrites developments, units and prices).
 * The path token is also the lead URL, handed to every portal and form that sends leads, so it
 * never authorises a write on its own: the request carries the feed token (as the feeds do), or
 * the channel's secret as for its leads. A channel without a secret needs the feed token.
 */
export function verifyChannelSystem(channel: MarketingChannelInstanceRow, headers: Headers, raw: Buffer | null): void {
  if (feedTokenMatches(channel, headers)) return;
  if (channel.secret && raw && secretMatches(channel.secret, headers, raw)) return;
  throw unauthorized(
    "This endpoint needs the channel's feed token: Authorization: Bearer <feedToken> (rotate it in the channel's settings)" +
      (channel.secret ? ", or its secret: Authorization: Bearer <secret>, or the hex HMAC-SHA256 of the body in X-Hmac-Sha256." : "."),
  );
}
