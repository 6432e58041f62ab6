import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { and, eq, gt, isNull, lt } from "drizzle-orm";
import type { Db } from "../../db/client";
import { apiKeys, members, previewSessions } from "../../db/schema";
import { config } from "../config";
import { accessOf, type MemberActor } from "../context/actor";
import { authenticateApiKey } from "./authenticate-key";

/**
 * Sessions of the brokers' share preview (`/preview/share`): an API key typed once becomes a
 * random 32-byte token in an HttpOnly, SameSite=Lax cookie (Secure in production). The database
 * keeps only the token's SHA-256; every request re-reads the key and its member, so revoking the
 * key or deactivating the member ends the session at once. Forms carry a CSRF token derived from
 * the session token (bound to it, nothing more to store), checked besides SameSite and Origin.
 */

export const PREVIEW_COOKIE = "crm_preview";
export const PREVIEW_SESSION_TTL_MS = 12 * 60 * 60 * 1000;

const sha256 = (s: string) => createHash("sha256").update(s, "utf8").digest("hex");

export type PreviewSession = { sessionId: string; actor: MemberActor; csrf: string; expiresAt: Date };

/** Exchanges an API key for a session (401 DomainError for an unknown, revoked or inactive key). */
export async function openPreviewSession(db: Db, apiKey: string, now = new Date()): Promise<{ token: string; expiresAt: Date; actor: MemberActor }> {
  const actor = await authenticateApiKey(db, apiKey.trim() || null);
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + PREVIEW_SESSION_TTL_MS);
  // Expired sessions of the same key go with each new one, so the table does not grow.
  await db.delete(previewSessions).where(and(eq(previewSessions.apiKeyId, actor.keyId), lt(previewSessions.expiresAt, now)));
  await db.insert(previewSessions).values({ tenantId: actor.tenantId, apiKeyId: actor.keyId, tokenHash: sha256(token), expiresAt });
  return { token, expiresAt, actor };
}

/** The member behind a session cookie, or null (unknown, expired, key revoked, member inactive). */
export async function previewSession(db: Db, token: string | null | undefined, now = new Date()): Promise<PreviewSession | null> {
  if (!token || !/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const [row] = await db
    .select({
      sessionId: previewSessions.id,
      expiresAt: previewSessions.expiresAt,
      keyId: apiKeys.id,
      tenantId: apiKeys.tenantId,
      scope: apiKeys.scope,
      userId: members.id,
      role: members.role,
    })
    .from(previewSessions)
    .innerJoin(apiKeys, and(eq(apiKeys.id, previewSessions.apiKeyId), eq(apiKeys.tenantId, previewSessions.tenantId)))
    .innerJoin(members, and(eq(members.id, apiKeys.memberId), eq(members.tenantId, apiKeys.tenantId)))
    .where(and(eq(previewSessions.tokenHash, sha256(token)), gt(previewSessions.expiresAt, now), isNull(apiKeys.revokedAt), eq(members.active, true)))
    .limit(1);
  if (!row) return null;
  return {
    sessionId: row.sessionId,
    expiresAt: row.expiresAt,
    csrf: csrfToken(token),
    actor: {
      kind: "member",
      tenantId: row.tenantId,
      userId: row.userId,
      role: row.role,
      scope: row.scope,
      keyId: row.keyId,
      access: accessOf(row.role, row.scope),
    },
  };
}

export async function closePreviewSession(db: Db, token: string | null | undefined): Promise<void> {
  if (!token) return;
  await db.delete(previewSessions).where(eq(previewSessions.tokenHash, sha256(token)));
}

/** The CSRF token of a session: an HMAC-like digest of its secret token, so it cannot be guessed without the cookie. */
export const csrfToken = (sessionToken: string) => createHash("sha256").update(`preview-csrf\0${sessionToken}`, "utf8").digest("base64url");

export function csrfMatches(sessionToken: string, submitted: string | null | undefined): boolean {
  if (!submitted) return false;
  const a = Buffer.from(csrfToken(sessionToken));
  const b = Buffer.from(submitted);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * A state-changing request must come from a page of this same origin: its `Origin` (or, without
 * one, its `Referer`) names the host it was sent to. Browsers send `Origin` on every form POST.
 */
export function sameOrigin(headers: Headers): boolean {
  const forwarded = config().TRUST_PROXY ? headers.get("x-forwarded-host")?.split(",")[0]?.trim() : null;
  const host = forwarded || headers.get("host");
  const from = headers.get("origin") ?? headers.get("referer");
  if (!host || !from || from === "null") return false;
  try {
    return new URL(from).host.toLowerCase() === host.toLowerCase();
  } catch {
    return false;
  }
}

/** `Set-Cookie` of a session (or of its removal with `token` null). */
export function sessionCookie(token: string | null, secure: boolean): string {
  const attrs = ["Path=/preview", "HttpOnly", "SameSite=Lax", ...(secure ? ["Secure"] : [])];
  if (!token) return [`${PREVIEW_COOKIE}=`, "Max-Age=0", ...attrs].join("; ");
  return [`${PREVIEW_COOKIE}=${token}`, `Max-Age=${Math.floor(PREVIEW_SESSION_TTL_MS / 1000)}`, ...attrs].join("; ");
}

/** The session token in a request's `Cookie` header. */
export function sessionTokenOf(headers: Headers): string | null {
  for (const part of (headers.get("cookie") ?? "").split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === PREVIEW_COOKIE) return v.join("=") || null;
  }
  return null;
}
