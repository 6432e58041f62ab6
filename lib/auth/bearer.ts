/**
 * The token of `Authorization: Bearer <token>`, or null when the header is absent or carries
 * another scheme. Auth schemes are case-insensitive (RFC 9110 §11.1), so `bearer` and `BEARER`
 * are the same scheme; clients and proxies send all of them. Every reader of a Bearer credential
 * (API keys, the operator token, channel feed tokens and secrets, provider secrets) uses this one.
 */
export function bearerToken(headers: Headers): string | null {
  const m = /^bearer[ \t]+(\S+)[ \t]*$/i.exec(headers.get("authorization") ?? "");
  return m ? m[1] : null;
}
