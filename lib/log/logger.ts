import pino, { type Logger } from "pino";
import { config } from "../config";
import { withoutQueryParams } from "../errors/error-text";
import { processGlobal } from "../util/process-global";
import { logContext } from "./log-context";

const slot = processGlobal("logger", () => ({ logger: undefined as Logger | undefined }));

/** One JSON logger per process (kept across dev reloads). */
export function logger(): Logger {
  slot.logger ??= pino({
    level: config().LOG_LEVEL,
    // Several nodes write to one log store: every line says which node wrote it.
    base: { service: config().SERVICE_NAME, node: config().NODE_NAME },
    // …and which request and tenant it was about, wherever the line is written (lib/log/log-context.ts).
    mixin: logContext,
    redact: { paths: ["req.headers.authorization", "*.apiKey", "*.secret"], remove: true },
    // Query errors carry their bind parameters (secrets, personal data): keep the SQL, drop the values.
    serializers: { err: (err: Error) => withoutParams(pino.stdSerializers.err(err)) },
  });
  return slot.logger;
}

export function withoutParams<T extends Record<string, unknown>>(e: T): T {
  const out: Record<string, unknown> = { ...e };
  delete out.params;
  if (typeof out.message === "string") {
    const redacted = paramsRedacted(out.message);
    // The stack starts with the message, parameters included over as many lines as they hold:
    // replaced whole, whatever the parameters contain.
    if (typeof out.stack === "string") out.stack = out.stack.includes(out.message) ? out.stack.replace(out.message, redacted) : paramsRedacted(out.stack);
    out.message = redacted;
  } else if (typeof out.stack === "string") out.stack = paramsRedacted(out.stack);
  if (out.cause && typeof out.cause === "object") out.cause = withoutParams(out.cause as Record<string, unknown>);
  return out as T;
}

const paramsRedacted = (text: string) => {
  const bare = withoutQueryParams(text);
  return bare === text ? text : `${bare}\nparams: [redacted]`;
};
