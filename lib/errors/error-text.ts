import { storableText } from "../util/storable-text";

/**
 * An error's message as it may be stored on a row (a failed lead, event or notification) or shown
 * to the integrator: without a failed query's bind parameters (`\nparams: …`, which hold personal
 * data and secrets), storable (a NUL in the parameters once made recording the failure fail too),
 * and cut to `max` characters.
 */
export function errorText(err: unknown, max = 1000): string {
  const message = err instanceof Error ? err.message : String(err);
  const cause = err instanceof Error && err.cause instanceof Error ? ` (${err.cause.message})` : "";
  // Cut first: a cut can split a surrogate pair, which storableText then mends.
  return storableText((withoutQueryParams(message) + withoutQueryParams(cause)).slice(0, max));
}

/** A query error's text without its bind parameters: they follow `\nparams:` to the end of the message. */
export const withoutQueryParams = (message: string) => message.replace(/\nparams:[\s\S]*$/, "");
