import type http from "node:http";
import { attachPrereadBody } from "../http/preread-body";
import { logger } from "../log/logger";
import { trackRequest } from "./lifecycle";

/** The client left before the end of its body: nobody to answer, nothing stored. */
class ClientGone extends Error {}

/**
 * Answers a request on our server's own lane (lib/server/web-server.ts), before Next.js: `handle`
 * is the function the route itself runs, fed a Web `Request` built from the bytes already read,
 * without Next.js's routing and streams in between. The body is read up to `maxBytes` and no
 * further (the handler refuses it as the route would; the connection then closes). Counted as a
 * request in flight from its first byte to its last written, so a graceful shutdown waits for it.
 */
export function answerOnLane(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  maxBytes: number,
  handle: (request: Request) => Promise<Response>,
  what: string,
): void {
  const done = trackRequest();
  res.once("close", done);
  serve(req, res, maxBytes, handle).catch((err) => {
    if (err instanceof ClientGone) return logger().debug({ path: req.url }, `${what} abandoned by its client before the end of its body`);
    // The handler answers every error itself: this is writing the answer failing under us.
    logger().warn({ err }, `${what} lane: the answer could not be written`);
    if (!res.headersSent) res.writeHead(500, { connection: "close" }).end();
    else res.destroy();
  });
}

async function serve(req: http.IncomingMessage, res: http.ServerResponse, maxBytes: number, handle: (request: Request) => Promise<Response>): Promise<void> {
  const { body, complete } = await readUpTo(req, maxBytes);
  // What Next.js adds before its routes see a request.
  req.headers["x-forwarded-for"] ??= req.socket.remoteAddress;
  req.headers["x-forwarded-host"] ??= req.headers.host;
  req.headers["x-forwarded-port"] ??= String(req.socket.localPort ?? "");
  req.headers["x-forwarded-proto"] ??= "http";
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    try {
      for (const v of [value].flat()) headers.append(name, v);
    } catch {
      // A header Node parsed but the Web `Headers` refuses is left out, as it cannot matter to the handler.
    }
  }
  // The origin is fixed: the handler reads only the path and query (matched above), and a client's
  // Host header may not even make a valid URL.
  // The body goes beside the request, not inside it (lib/http/preread-body.ts): no stream to build and read back.
  const request = attachPrereadBody(new Request(`http://localhost${req.url}`, { method: "POST", headers }), body);
  const response = await handle(request);
  const out = Buffer.from(await response.arrayBuffer());
  const head: Record<string, string | string[]> = {};
  response.headers.forEach((v, k) => {
    head[k] = k === "set-cookie" ? response.headers.getSetCookie() : v;
  });
  head["content-length"] = String(out.length);
  // A body cut short at the cap was not read to its end: this connection cannot carry another request.
  if (!complete) head.connection = "close";
  res.writeHead(response.status, head);
  res.end(out);
}

/**
 * Reads the body, stopping once it holds `limit` bytes. A Content-Length over the cap reads
 * nothing: the header alone makes the handler refuse the body.
 */
function readUpTo(req: http.IncomingMessage, limit: number): Promise<{ body: Buffer; complete: boolean }> {
  if (Number(req.headers["content-length"] ?? 0) >= limit) return Promise.resolve({ body: Buffer.alloc(0), complete: false });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (c: Buffer) => {
      chunks.push(c);
      size += c.length;
      if (size < limit) return;
      req.off("data", onData).off("end", onEnd).pause();
      resolve({ body: Buffer.concat(chunks).subarray(0, limit), complete: false });
    };
    const onEnd = () => resolve({ body: Buffer.concat(chunks), complete: true });
    const gone = () => reject(new ClientGone());
    req
      .on("data", onData)
      .once("end", onEnd)
      .once("error", gone)
      .once("close", () => req.readableEnded || gone());
  });
}
