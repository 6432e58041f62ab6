import { createHash, randomBytes } from "node:crypto";

const KEY_PREFIX = "crm_";

/**
 * API keys carry 32 random bytes, so a fast SHA-256 is the right hash: nothing to brute-force,
 * and the hash itself is the lookup key (slow password hashes would cost every request).
 */
export function generateApiKey(): { key: string; prefix: string; hash: string } {
  const key = KEY_PREFIX + randomBytes(32).toString("base64url");
  return { key, prefix: key.slice(0, KEY_PREFIX.length + 8), hash: hashApiKey(key) };
}

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}
