import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { secureDataDir } from "../../db/private-dir";
import { config } from "../config";

/**
 * Gateway credentials at rest: AES-256-GCM with a key derived (SHA-256) from MESSAGING_SECRET_KEY,
 * a fresh 96-bit IV per value, stored as `v1.<iv>.<tag>.<ciphertext>` (base64url). The version
 * prefix leaves room for key rotation. Without the variable, a key is generated once into the data
 * folder (0600), as the operator token is, so the embedded mode works with nothing configured.
 */
let cachedKey: Buffer | undefined;

function keyFile(): string {
  return path.join(config().DATA_DIR, "messaging-secret-key");
}

function key(): Buffer {
  if (cachedKey) return cachedKey;
  let secret = config().MESSAGING_SECRET_KEY;
  if (!secret) {
    secureDataDir(config().DATA_DIR);
    try {
      fs.writeFileSync(keyFile(), `${randomBytes(32).toString("base64url")}\n`, { mode: 0o600, flag: "wx" });
    } catch (err) {
      // Another process created it first: use theirs.
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    secret = fs.readFileSync(keyFile(), "utf8").trim();
  }
  cachedKey = createHash("sha256").update(secret).digest();
  return cachedKey;
}

export function seal(plain: string): string {
  const iv = randomBytes(12);
  const c = createCipheriv("aes-256-gcm", key(), iv);
  const body = Buffer.concat([c.update(plain, "utf8"), c.final()]);
  return ["v1", iv.toString("base64url"), c.getAuthTag().toString("base64url"), body.toString("base64url")].join(".");
}

export function unseal(sealed: string): string {
  const [v, iv, tag, body] = sealed.split(".");
  if (v !== "v1" || !iv || !tag || body === undefined) throw new Error("sealed value has an unknown format");
  const d = createDecipheriv("aes-256-gcm", key(), Buffer.from(iv, "base64url"));
  d.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([d.update(Buffer.from(body, "base64url")), d.final()]).toString("utf8");
}

export function resetSecretKeyForTests(): void {
  cachedKey = undefined;
}

/** A MAC with a key derived from the same secret (never the encryption key itself): signs opaque cursors. */
export function mac(text: string): string {
  return createHmac("sha256", createHash("sha256").update("cursor:").update(key()).digest()).update(text).digest("base64url").slice(0, 22);
}

/** A key for another purpose (signing photo addresses), derived from the same secret under its own label. */
export function derivedKey(label: string): Buffer {
  return createHash("sha256").update(`${label}:`).update(key()).digest();
}
