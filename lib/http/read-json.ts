import { DomainError, invalid } from "../errors/domain-errors";

const MAX_BODY_BYTES = 1_000_000;

/** Reads a JSON body with a size cap; a malformed body is a 400 that says so. */
export async function readJson(req: Request): Promise<unknown> {
  const declared = Number(req.headers.get("content-length") ?? 0);
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  const text = await req.text();
  if (Buffer.byteLength(text) > MAX_BODY_BYTES) throw tooLarge();
  if (!text.trim()) throw invalid("Request body is empty: send a JSON object with Content-Type: application/json.", "invalid_json");
  try {
    return JSON.parse(text);
  } catch (err) {
    throw invalid(`Request body is not valid JSON: ${(err as Error).message}`, "invalid_json");
  }
}

const tooLarge = () => new DomainError("too_large", "payload_too_large", `Request body is larger than ${MAX_BODY_BYTES} bytes.`);
