/**
 * The JSON text of an answer made by `json()` (lib/http/run.ts), kept beside the `Response`: our
 * server's own lane (lib/server/direct-lane.ts) writes it as is instead of reading the Response's
 * stream back (undici's body consumption and its web streams were a visible part of a web-chat
 * message's CPU at a thousand a second). The Response keeps its body for every other reader
 * (Next.js, tests); the lane uses the text only while that body is unread.
 */
const texts = new WeakMap<Response, string>();

export function withWrittenBody(res: Response, text: string): Response {
  texts.set(res, text);
  return res;
}

/** The text `res` was made with, while nobody has read its body; else undefined (read the body). */
export function writtenBody(res: Response): string | undefined {
  return res.bodyUsed ? undefined : texts.get(res);
}
