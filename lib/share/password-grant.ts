import { createHmac, timingSafeEqual } from "node:crypto";
import type { ShareLinkRow } from "../../db/schema";

/** How long a password typed on the share page keeps the link open in that browser. */
export const GRANT_SECONDS = 12 * 60 * 60;

const mac = (link: Pick<ShareLinkRow, "id" | "coordinateSeed" | "passwordHash">, exp: number) =>
  createHmac("sha256", link.coordinateSeed)
    .update(`share-grant|${link.id}|${exp}|${link.passwordHash ?? ""}`)
    .digest("base64url");

/**
 * What the share page's password form leaves in a cookie once the password was right:
 * `{expiry}.{mac}`, keyed with the link's own secret seed (never shown to anyone) and bound to the
 * stored password hash, so a new password or a removed one voids every grant at once. No server
 * secret to configure and nothing stored.
 */
export function issueGrant(link: Pick<ShareLinkRow, "id" | "coordinateSeed" | "passwordHash">, now = Date.now()): string {
  const exp = Math.floor(now / 1000) + GRANT_SECONDS;
  return `${exp}.${mac(link, exp)}`;
}

export function grantOpens(link: Pick<ShareLinkRow, "id" | "coordinateSeed" | "passwordHash">, grant: string, now = Date.now()): boolean {
  const m = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(grant);
  if (!m || !link.passwordHash) return false;
  const exp = Number(m[1]);
  if (exp * 1000 <= now) return false;
  const a = Buffer.from(m[2]);
  const b = Buffer.from(mac(link, exp));
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The cookie a grant travels in: one per link, so opening several protected links keeps each. */
export const grantCookieName = (token: string) => `share_${token}`;
