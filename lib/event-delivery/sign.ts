import { createHmac } from "node:crypto";

/** `sha256=` + lowercase hex HMAC-SHA256 of `timestamp + "." + body`, keyed with the secret. */
export function signPayload(secret: string, timestamp: string, body: string | Buffer): string {
  return `sha256=${createHmac("sha256", secret).update(`${timestamp}.`).update(body).digest("hex")}`;
}
