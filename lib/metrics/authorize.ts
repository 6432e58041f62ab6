import { createHash, timingSafeEqual } from "node:crypto";
import { bearerToken } from "../auth/bearer";
import { verifyOperator } from "../auth/operator-token";
import { config } from "../config";

/**
 * A scrape may carry `METRICS_TOKEN` (a token that reads metrics and nothing else, for the
 * scraper's configuration) or the operator token. Anything else: the operator API's 401.
 */
export function verifyMetricsReader(headers: Headers): void {
  const expected = config().METRICS_TOKEN;
  const sent = bearerToken(headers);
  const digest = (s: string) => createHash("sha256").update(s).digest();
  if (expected && sent && timingSafeEqual(digest(sent), digest(expected))) return;
  verifyOperator(headers);
}
