import type { Db } from "../../db/client";
import { DomainError } from "../errors/domain-errors";
import { penalize, spent } from "../rate-limit/limiter";
import { SHARE_PASSWORD_POLICY } from "../rate-limit/policies";

/** Wrong passwords allowed per link in the window before the link refuses every attempt. */
export const WRONG_PASSWORDS_ALLOWED = SHARE_PASSWORD_POLICY.points;

// Counted per link, not per client address: a guesser spreading attempts over many addresses is
// held back the same. Kept in the shared `rate_limits` table so every server process sees the same count.

const refused = (seconds: number) =>
  new DomainError("rate_limited", "rate_limited", `Too many wrong passwords for this link; try again in ${Math.max(1, Math.ceil(seconds))} s.`);

/** 429 while the link has used up its wrong attempts (checked before the password is even hashed). */
export async function assertNotThrottled(db: Db, linkId: string): Promise<void> {
  const s = await spent(db, SHARE_PASSWORD_POLICY, linkId);
  if (s.points >= WRONG_PASSWORDS_ALLOWED) throw refused(s.resetSeconds);
}

/** Counts a wrong password; from the third on, the answer is slowed down (200 ms per earlier failure, at most 1 s). */
export async function noteWrongPassword(db: Db, linkId: string): Promise<void> {
  const failures = await penalize(db, SHARE_PASSWORD_POLICY, linkId);
  if (failures >= 3) await new Promise((r) => setTimeout(r, Math.min(1000, 200 * (failures - 2))));
}
