import pino, { type Logger } from "pino";
import { config } from "../config";

const g = globalThis as unknown as { __crmLogger?: Logger };

/** One JSON logger per process (kept across dev reloads). */
export function logger(): Logger {
  g.__crmLogger ??= pino({
    level: config().LOG_LEVEL,
    base: { service: config().SERVICE_NAME },
    redact: { paths: ["req.headers.authorization", "*.apiKey", "*.secret"], remove: true },
  });
  return g.__crmLogger;
}
