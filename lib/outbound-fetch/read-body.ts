import { OutboundError } from "./outbound-error";

type Body = AsyncIterable<Buffer> & { destroy: (err?: Error) => unknown };

/**
 * Reads an answer up to `maxBytes`. Past it, `error` stops reading and fails; `truncate` stops
 * reading and keeps the first `maxBytes` (a delivery log keeps an excerpt only).
 */
export async function readCapped(
  body: Body,
  maxBytes: number,
  overLimit: "error" | "truncate",
  status: number,
): Promise<{ bytes: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > maxBytes) {
      body.destroy();
      if (overLimit === "error") throw new OutboundError("too_large", `the answer is larger than ${maxBytes} bytes`, "ETOOLARGE", status);
      chunks.push(chunk.subarray(0, chunk.length - (size - maxBytes)));
      return { bytes: Buffer.concat(chunks), truncated: true };
    }
    chunks.push(chunk);
  }
  return { bytes: Buffer.concat(chunks), truncated: false };
}
