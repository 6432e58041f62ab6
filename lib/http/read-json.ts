import { DomainError, invalid } from "../errors/domain-errors";
import { issuePath } from "./errors";

const MAX_BODY_BYTES = 1_000_000;

/**
 * Reads a JSON body with a size cap (counted while streaming, whatever Content-Length says); a
 * malformed body is a 400 that says so. Strings with NUL characters and `__proto__` keys are
 * refused here, once for every route: PostgreSQL cannot store NUL, and `__proto__` would vanish
 * into an object's prototype instead of being validated.
 */
export async function readJson(req: Request): Promise<unknown> {
  if (Number(req.headers.get("content-length") ?? 0) > MAX_BODY_BYTES) throw tooLarge();
  const text = await readCapped(req);
  if (!text.trim()) throw invalid("Request body is empty: send a JSON object with Content-Type: application/json.", "invalid_json");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw invalid(`Request body is not valid JSON: ${(err as Error).message}`, "invalid_json");
  }
  assertStorable(value, []);
  return value;
}

async function readCapped(req: Request): Promise<string> {
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Also used for query strings. */
export function assertStorable(value: unknown, path: (string | number)[]): void {
  if (typeof value === "string") {
    if (value.includes("\u0000")) throw invalid(`${issuePath(path)}: must not contain NUL (\\u0000) characters.`);
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => assertStorable(v, [...path, i]));
  } else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      if (k === "__proto__" || k.includes("\u0000")) throw invalid(`${issuePath([...path, k])}: this key is not allowed.`);
      assertStorable(v, [...path, k]);
    }
  }
}

const tooLarge = () => new DomainError("too_large", "payload_too_large", `Request body is larger than ${MAX_BODY_BYTES} bytes.`);
