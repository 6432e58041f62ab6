import { createHmac, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";

/** 192 random bits, URL-safe (32 characters): unguessable, short enough for a chat message. */
export const newShareToken = () => randomBytes(24).toString("base64url");
export const SHARE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{32}$/;
export const newCoordinateSeed = () => randomBytes(16).toString("base64url");

const PARAMS = { N: 16384, r: 8, p: 1 } as const;
const KEYLEN = 32;

function scryptAsync(password: string, salt: Buffer, keylen: number, opts: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => scrypt(password, salt, keylen, opts, (err, key) => (err ? reject(err) : resolve(key))));
}

/** `scrypt$N$r$p$salt$hash` (base64url): the parameters travel with the hash, so they can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password.normalize("NFC"), salt, KEYLEN, PARAMS);
  return `scrypt$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$${salt.toString("base64url")}$${key.toString("base64url")}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, n, r, p, salt, hash] = stored.split("$");
  if (kind !== "scrypt" || !hash) return false;
  const expected = Buffer.from(hash, "base64url");
  const key = await scryptAsync(password.normalize("NFC"), Buffer.from(salt, "base64url"), expected.length, { N: Number(n), r: Number(r), p: Number(p) });
  return timingSafeEqual(key, expected);
}

/** The client address as the access log keeps it: an HMAC keyed with the link's secret seed. */
export const hashClient = (seed: string, address: string) => createHmac("sha256", seed).update(address).digest("base64url").slice(0, 22);
