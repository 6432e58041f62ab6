import { randomBytes, timingSafeEqual, createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { secureDataDir } from "../../db/private-dir";
import { config } from "../config";
import { unauthorized } from "../errors/domain-errors";
import { bearerToken } from "./bearer";

function tokenFile(): string {
  return path.join(config().DATA_DIR, "operator-token");
}

/** The operator token: `OPERATOR_TOKEN`, else the one generated into the data folder. */
export function operatorToken(): string | null {
  const fromEnv = config().OPERATOR_TOKEN;
  if (fromEnv) return fromEnv;
  try {
    return fs.readFileSync(tokenFile(), "utf8").trim() || null;
  } catch {
    return null;
  }
}

/**
 * Called at server start: when no token is configured, create one once and return it so the
 * start-up log can print it (it is printed only on the start that created it).
 */
export function ensureOperatorToken(): { created: boolean; token: string; file?: string } {
  const fromEnv = config().OPERATOR_TOKEN;
  if (fromEnv) return { created: false, token: fromEnv };
  // The token lives in the data folder: owner-only, also when an older version left it readable.
  secureDataDir(config().DATA_DIR);
  const existing = operatorToken();
  if (existing) return { created: false, token: existing };
  const token = `op_${randomBytes(24).toString("base64url")}`;
  fs.writeFileSync(tokenFile(), `${token}\n`, { mode: 0o600 });
  return { created: true, token, file: tokenFile() };
}

export function verifyOperator(headers: Headers): void {
  const expected = operatorToken();
  const sent = bearerToken(headers);
  if (!sent) throw unauthorized("Missing operator token: send 'Authorization: Bearer <OPERATOR_TOKEN>'.");
  // Compare digests so the comparison is constant-time whatever the lengths.
  const digest = (s: string) => createHash("sha256").update(s).digest();
  if (!expected || !timingSafeEqual(digest(sent), digest(expected))) throw unauthorized("Invalid operator token.");
}
