import type { Db } from "../../db/client";
import { DomainError } from "../errors/domain-errors";
import { consume, refund } from "../rate-limit/limiter";
import { SHARE_PASSWORD_POLICY } from "../rate-limit/policies";

/** Wrong passwords allowed per link in the window before the link refuses every attempt. */
export const WRONG_PASSWORDS_ALLOWED = SHARE_PASSWORD_POLICY.points;

// Counted per link, not per client address: a guesser spreading attempts over many addresses is
// held back the same. Kept in the shared `rate_limits` table so every server process sees the same count.

const refused = (seconds: number) =>
  new DomainError("rate_limited", "rate_limited", `Too many wrong passwords for this link; try again in ${Math.max(1, Math.ceil(seconds))} s.`);

/**
 * Takes one attempt from the link's budget before the password is even hashed: 429 once it is
 * spent. Taken in one atomic step, so guesses sent all at once (to one process or several) get
 * five checks in all, not five each; a right password gives its attempt back (`passwordAccepted`).
 * Returns how many attempts the window has seen, this one included.
 */
export async function takePasswordAttempt(db: Db, linkId: string): Promise<number> {
  const d = await consume(db, SHARE_PASSWORD_POLICY, linkId);
  if (d && !d.allowed) throw refused(d.resetSeconds);
  return d ? d.limit - d.remaining : 1;
}

export function passwordAccepted(db: Db, linkId: string): Promise<void> {
  return refund(db, SHARE_PASSWORD_POLICY, linkId);
}

/** From the third wrong password on, the answer is slowed down (200 ms per earlier failure, at most 1 s). */
export async function slowDownWrongPassword(failures: number): Promise<void> {
  if (failures >= 3) await new Promise((r) => setTimeout(r, Math.min(1000, 200 * (failures - 2))));
}
