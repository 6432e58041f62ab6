import { createHmac, timingSafeEqual } from "node:crypto";
import { derivedKey } from "../messaging/secret-box";
import { UUID_PATTERN } from "../schemas/uuid";

export type TokenPurpose = "confirm" | "unsubscribe";

const sign = (id: string, purpose: TokenPurpose) =>
  createHmac("sha256", derivedKey("saved-search-links")).update(`${purpose}:${id}`).digest("base64url").slice(0, 32);

/**
 * The token of a saved search's confirmation or unsubscribe link: its id and an HMAC of the id
 * and purpose under a key derived from the service secret. Nothing to store, nothing to look up
 * before the signature is checked, and a confirmation link cannot unsubscribe (nor the reverse).
 */
export const linkToken = (id: string, purpose: TokenPurpose) => `${id}.${sign(id, purpose)}`;

/** The saved search id a token names, or null when it is not a token of ours for this purpose. */
export function idOfToken(token: string, purpose: TokenPurpose): string | null {
  const [id, sig, ...rest] = token.split(".");
  if (rest.length || !id || !sig || !UUID_PATTERN.test(id)) return null;
  const want = Buffer.from(sign(id.toLowerCase(), purpose));
  const got = Buffer.from(sig);
  return got.length === want.length && timingSafeEqual(got, want) ? id.toLowerCase() : null;
}
