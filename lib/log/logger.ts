import pino, { type Logger } from "pino";
import { config } from "../config";

const g = globalThis as unknown as { __crmLogger?: Logger };

/** One JSON logger per process (kept across dev reloads). */
export function logger(): Logger {
  g.__crmLogger ??= pino({
    level: config().LOG_LEVEL,
    base: { service: config().SERVICE_NAME },
    redact: { paths: ["req.headers.authorization", "*.apiKey", "*.secret"], remove: true },
    // Query errors carry their bind parameters (secrets, personal data): keep the SQL, drop the values.
    serializers: { err: (err: Error) => withoutParams(pino.stdSerializers.err(err)) },
  });
  return g.__crmLogger;
}

export function withoutParams<T extends Record<string, unknown>>(e: T): T {
  const out: Record<string, unknown> = { ...e };
  delete out.params;
  if (typeof out.message === "string") out.message = out.message.replace(/\nparams:[\s\S]*$/, "\nparams: [redacted]");
  // In the stack the message (parameters included, over as many lines as they hold) ends where the frames start.
  if (typeof out.stack === "string") out.stack = out.stack.replace(/\nparams:[\s\S]*?(?=\n\s+at |$)/, "\nparams: [redacted]");
  if (out.cause && typeof out.cause === "object") out.cause = withoutParams(out.cause as Record<string, unknown>);
  return out as T;
}
