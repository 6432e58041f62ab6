import { DomainError, invalid } from "../errors/domain-errors";
import { fieldLabel, type InputLocation } from "./errors";
import { hasLoneSurrogate } from "../util/storable-text";
import { prereadBody } from "./preread-body";

export const MAX_BODY_BYTES = 1_000_000;
/** Deepest nesting of arrays and objects a body may have; real payloads stay under 10. */
export const MAX_JSON_DEPTH = 32;

/**
 * Reads a JSON body: `Content-Type: application/json` (415 otherwise), a size cap counted while
 * streaming (whatever Content-Length says), strict UTF-8, a nesting bound checked before parsing,
 * and values PostgreSQL can store as sent. Every refusal is a 400 (or 413/415) that names the
 * problem, the same way every time, and nothing is changed silently.
 */
export async function readJson(req: Request): Promise<unknown> {
  assertJsonContentType(req.headers.get("content-type"));
  const text = decodeUtf8(await readCappedBody(req, MAX_BODY_BYTES, tooLarge));
  if (!text.trim()) throw invalid("Request body is empty: send a JSON object with Content-Type: application/json.", "invalid_json");
  return parseJsonText(text);
}

/**
 * For actions whose body is optional (a transition with optional fields): no body at all is
 * `undefined`; a body is read exactly as `readJson` reads it.
 */
export async function readOptionalJson(req: Request): Promise<unknown> {
  const bytes = await readCappedBody(req, MAX_BODY_BYTES, tooLarge);
  if (bytes.length === 0) return undefined;
  assertJsonContentType(req.headers.get("content-type"));
  const text = decodeUtf8(bytes);
  if (!text.trim()) return undefined;
  return parseJsonText(text);
}

function parseJsonText(text: string): unknown {
  assertDepth(text);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw invalid(`Request body is not valid JSON: ${(err as Error).message}`, "invalid_json");
  }
  assertStorable(value, []);
  return value;
}

/** `application/json`, with parameters (`; charset=utf-8`) or a `+json` suffix type. */
function assertJsonContentType(header: string | null): void {
  const type = (header ?? "").split(";")[0].trim().toLowerCase();
  if (type === "application/json" || /^application\/[\w.+-]+\+json$/.test(type)) return;
  throw new DomainError(
    "unsupported_media_type",
    "unsupported_media_type",
    `header \`Content-Type\`: ${header ? `'${header.slice(0, 100)}' is not accepted` : "is required"}; send the body as JSON with Content-Type: application/json.`,
  );
}

/** The body's bytes, counted while streaming (whatever Content-Length says); `tooLarge` past `maxBytes`. */
export async function readCappedBody(req: Request, maxBytes: number, tooLarge: () => Error): Promise<Buffer> {
  if (Number(req.headers.get("content-length") ?? 0) > maxBytes) throw tooLarge();
  const preread = prereadBody(req);
  if (preread) {
    if (preread.length > maxBytes) throw tooLarge();
    return preread;
  }
  if (!req.body) return Buffer.alloc(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** Invalid UTF-8 is refused, not replaced with U+FFFD (which would change the user's text). */
function decodeUtf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw invalid("Request body is not valid UTF-8 text: send JSON encoded as UTF-8.", "invalid_json");
  }
}

/**
 * The nesting depth, counted over the raw text outside strings, so a hostile body is refused in
 * one linear pass before `JSON.parse` or any recursive check could run out of stack.
 */
function assertDepth(text: string): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_JSON_DEPTH) {
        throw invalid(`Request body is nested deeper than ${MAX_JSON_DEPTH} levels of arrays and objects (at character ${i}); flatten it.`, "invalid_json");
      }
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
}

/**
 * Values PostgreSQL can store as sent: no NUL characters, no lone UTF-16 surrogates (a `\ud800`
 * escape is not Unicode text and would be stored as U+FFFD), no `__proto__` keys (which would
 * vanish into an object's prototype instead of being validated). Also used for query strings.
 * Iterative, so a deep value cannot exhaust the stack.
 */
export function assertStorable(value: unknown, path: (string | number)[], location: InputLocation = "body"): void {
  const stack: [unknown, (string | number)[]][] = [[value, path]];
  while (stack.length) {
    const [v, at] = stack.pop()!;
    if (typeof v === "string") assertText(v, at, location);
    else if (Array.isArray(v))
      v.forEach((x, i) => {
        stack.push([x, [...at, i]]);
      });
    else if (v && typeof v === "object") {
      for (const [k, x] of Object.entries(v)) {
        if (k === "__proto__") throw invalid(`${fieldLabel(location, [...at, k])}: this key is not allowed.`);
        assertText(k, [...at, k], location);
        stack.push([x, [...at, k]]);
      }
    }
  }
}

function assertText(s: string, at: (string | number)[], location: InputLocation): void {
  if (s.includes("\u0000")) throw invalid(`${fieldLabel(location, at)}: must not contain NUL (\\u0000) characters.`);
  if (hasLoneSurrogate(s)) throw invalid(`${fieldLabel(location, at)}: contains a lone UTF-16 surrogate (such as \\ud800), which is not valid Unicode text.`);
}

const tooLarge = () => new DomainError("too_large", "payload_too_large", `Request body is larger than ${MAX_BODY_BYTES} bytes.`);
