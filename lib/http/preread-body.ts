/**
 * A request body our server's own lane (lib/server/direct-lane.ts) has already read, handed to the
 * route with the `Request` instead of inside it: a Web `Request` built with a body wraps it in a
 * `ReadableStream` (with its promises and transfer machinery) only for `readCappedBody` to read it
 * back, which was a visible part of a web-chat message's CPU at a thousand a second. Bodies are
 * read only through `readCappedBody` (lib/http/read-json.ts), which looks here first.
 */
const bodies = new WeakMap<Request, Buffer>();

export function attachPrereadBody(req: Request, body: Buffer): Request {
  bodies.set(req, body);
  return req;
}

export function prereadBody(req: Request): Buffer | undefined {
  return bodies.get(req);
}
