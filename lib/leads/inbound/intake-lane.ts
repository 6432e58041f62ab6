import type http from "node:http";
import { logger } from "../../log/logger";
import { postLead } from "./lead-webhook";
import { MAX_LEAD_BYTES } from "./receive-lead";

/** A lead post, exactly: any other shape (a sub-path, a trailing slash, a '%') goes to Next.js. */
const LEAD_PATH = /^\/api\/webhooks\/channels\/(chnl_[A-Za-z0-9_-]{16,100})(?:\?[^#]*)?$/;

/**
 * The lead webhook on the server's direct lane (lib/server/direct-lane.ts): the same `postLead`
 * the route runs, fed a `Request` built from the bytes already read, without Next.js's routing and
 * streams in between. At 500 leads a second on two cores, that is the difference between acks
 * queueing behind each other in bursts and not (docs/benchmarks.md).
 */
export function leadIntakeLane(req: http.IncomingMessage, res: http.ServerResponse): boolean {
  if (req.method !== "POST") return false;
  const m = LEAD_PATH.exec(req.url ?? "");
  if (!m) return false;
  serve(req, res, m[1]).catch((err) => {
    // postLead answers every error itself; this is the socket failing under us.
    logger().warn({ err }, "lead intake lane: the answer could not be written");
    if (!res.headersSent) res.writeHead(500).end();
    else res.destroy();
  });
  return true;
}

async function serve(req: http.IncomingMessage, res: http.ServerResponse, pathToken: string): Promise<void> {
  // One byte past the cap is enough for postLead to refuse the body (413) as the route would.
  const { body, complete } = await readUpTo(req, MAX_LEAD_BYTES + 1);
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
  const head: Record<string, string> = { "content-length": String(out.length) };
  response.headers.forEach((v, k) => (head[k] = v));
  // A body cut short at the cap was not read to its end: this connection cannot carry another request.
  if (!complete) head.connection = "close";
  res.writeHead(response.status, head);
  res.end(out);
}

/** Reads the body, stopping once it holds `limit` bytes (a Content-Length over it stops at once). */
function readUpTo(req: http.IncomingMessage, limit: number): Promise<{ body: Buffer; complete: boolean }> {
  if (Number(req.headers["content-length"] ?? 0) >= limit) return Promise.resolve({ body: Buffer.alloc(limit), complete: false });
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
    // A client gone before the end of its body gets no answer, and nothing is stored.
    const onClose = () => req.readableEnded || reject(new Error("the client closed the connection before the end of its body"));
    req.on("data", onData).once("end", onEnd).once("error", reject).once("close", onClose);
  });
}
