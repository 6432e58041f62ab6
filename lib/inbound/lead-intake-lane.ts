import type http from "node:http";
import { logger } from "../log/logger";
import { trackRequest } from "../server/lifecycle";
import { postLead } from "./lead-webhook";
import { MAX_LEAD_BYTES } from "../leads/inbound/receive-lead";

/** A lead post, exactly: any other shape (a sub-path, a trailing slash, a '%') goes to Next.js. */
const LEAD_PATH = /^\/api\/webhooks\/channels\/(chnl_[A-Za-z0-9_-]{16,100})(?:\?[^#]*)?$/;

/** The client left before the end of its body: nobody to answer, nothing stored. */
class ClientGone extends Error {}

/**
 * The lead webhook on our server's own lane (lib/server/web-server.ts): the same `postLead`
 * the route runs, fed a `Request` built from the bytes already read, without Next.js's routing and
 * streams in between. At 500 leads a second on two cores, that is the difference between acks
 * queueing behind each other in bursts and not (docs/benchmarks.md).
 */
export function leadIntakeLane(req: http.IncomingMessage, res: http.ServerResponse): boolean {
  if (req.method !== "POST") return false;
  const m = LEAD_PATH.exec(req.url ?? "");
  if (!m) return false;
  // Counted from the first byte to the last one written, body upload included: a graceful
  // shutdown waits for it (`run` counts again inside; the count nests).
  const done = trackRequest();
  res.once("close", done);
  serve(req, res, m[1]).catch((err) => {
    if (err instanceof ClientGone) return logger().debug({ path: req.url }, "lead post abandoned by its client before the end of its body");
    // postLead answers every error itself: this is writing the answer failing under us.
    logger().warn({ err }, "lead intake lane: the answer could not be written");
    if (!res.headersSent) res.writeHead(500, { connection: "close" }).end();
    else res.destroy();
  });
  return true;
}

async function serve(req: http.IncomingMessage, res: http.ServerResponse, pathToken: string): Promise<void> {
  // One byte past the cap is enough for postLead to refuse the body (413) as the route would.
  const { body, complete } = await readUpTo(req, MAX_LEAD_BYTES + 1);
  // What Next.js adds before its routes see a request (the lead keeps `x-forwarded-for`).
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
      // A header Node parsed but the Web `Headers` refuses is left out, as it cannot matter to a lead.
    }
  }
  // The origin is fixed: the handler reads only the path and query (matched above), and a client's
  // Host header may not even make a valid URL.
  const request = new Request(`http://localhost${req.url}`, { method: "POST", headers, body: body as Uint8Array<ArrayBuffer> });
  const response = await postLead(request, pathToken);
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
 * nothing: the header alone makes postLead refuse the body.
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
