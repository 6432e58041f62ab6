import { randomBytes } from "node:crypto";

/** 32 random bytes, base64url (spec 2 §5). */
export function generateWebhookSecret(): string {
  return randomBytes(32).toString("base64url");
}
