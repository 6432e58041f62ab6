import type http from "node:http";
import zlib from "node:zlib";
import { dropClientRuntime, wantsStatic } from "../sites/render/client-runtime";

/**
 * HTML pages Next.js renders pass here on their way out: a site page (marked `data-static-page`,
 * without `data-client-island`) loses Next.js's client runtime (lib/sites/render/client-runtime.ts).
 *
 * To read the page, a document request reaches Next.js without `Accept-Encoding` (so Next.js does
 * not compress it), its HTML is kept until the end (site pages have no streamed parts: they are one
 * shell), then compressed here with gzip when the client accepted it. Anything that is not HTML
 * (a redirect's empty body, a file) passes through as it was written.
 */
export function staticDocuments(req: http.IncomingMessage, res: http.ServerResponse): void {
  if (req.method !== "GET" && req.method !== "HEAD") return;
  // A browser's navigation (and Lighthouse's): not the App Router's own RSC fetches, not API calls.
  if (!/\btext\/html\b/.test(req.headers.accept ?? "") || req.headers.rsc) return;
  const gzip = /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""));
  delete req.headers["accept-encoding"];

  const write = res.write.bind(res) as (...a: unknown[]) => boolean;
  const end = res.end.bind(res) as (...a: unknown[]) => http.ServerResponse;
  const flushHeaders = res.flushHeaders.bind(res);
  let chunks: Buffer[] | null = null;
  let through = false;
  const decide = () => {
    if (chunks || through) return;
    if (!res.headersSent && String(res.getHeader("content-type") ?? "").startsWith("text/html")) chunks = [];
    else through = true;
  };
  const keep = (chunk: unknown, encoding: unknown) => {
    if (chunk == null || typeof chunk === "function") return;
    chunks!.push(
      typeof chunk === "string" ? Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8") : Buffer.from(chunk as Uint8Array),
    );
  };

  // Next.js's compression wrapper sends the headers (`_implicitHeader` → `writeHead`) before its
  // first write even when it does not compress: while the page is kept, `writeHead` only records.
  const writeHead = res.writeHead.bind(res) as (...a: unknown[]) => http.ServerResponse;
  let released = false;
  res.writeHead = ((status: number, ...rest: unknown[]) => {
    if (released || through) return writeHead(status, ...rest);
    // The headers given here join the others (as Node does), so the page's content type is known.
    res.statusCode = status;
    if (typeof rest[0] === "string") res.statusMessage = rest[0];
    const headers = rest.find((x) => typeof x === "object" && x !== null);
    if (Array.isArray(headers)) {
      const flat = (headers as unknown[]).flat() as string[];
      for (let i = 0; i + 1 < flat.length; i += 2) res.setHeader(flat[i], flat[i + 1]);
    } else if (headers) for (const [k, v] of Object.entries(headers)) if (v !== undefined) res.setHeader(k, v as string);
    decide();
    return through ? writeHead(status) : res;
  }) as typeof res.writeHead;
  // Next.js flushes the headers before its first chunk; ours go with the whole page.
  res.flushHeaders = () => {
    decide();
    if (through) flushHeaders();
  };
  res.write = ((chunk: unknown, encoding?: unknown, cb?: unknown) => {
    decide();
    if (through || res.headersSent) return write(chunk, encoding, cb);
    keep(chunk, encoding);
    const done = typeof encoding === "function" ? encoding : cb;
    if (typeof done === "function") process.nextTick(done as () => void);
    return true;
  }) as typeof res.write;
  res.end = ((chunk?: unknown, encoding?: unknown, cb?: unknown) => {
    decide();
    // Through, or ended already (Next.js may end a response twice: the second call is Node's no-op).
    if (through || res.headersSent) return end(chunk, encoding, cb);
    keep(chunk, encoding);
    const done = [chunk, encoding, cb].find((x) => typeof x === "function") as (() => void) | undefined;
    let html = Buffer.concat(chunks!);
    const text = html.toString("utf8");
    if (wantsStatic(text)) html = Buffer.from(dropClientRuntime(text), "utf8");
    res.removeHeader("content-length");
    res.removeHeader("transfer-encoding");
    const vary = String(res.getHeader("vary") ?? "");
    if (!/accept-encoding/i.test(vary)) res.setHeader("vary", vary ? `${vary}, Accept-Encoding` : "Accept-Encoding");
    if (gzip && html.length > 1024) {
      html = zlib.gzipSync(html, { level: 6 });
      res.setHeader("content-encoding", "gzip");
    }
    res.setHeader("content-length", html.length);
    released = true;
    return end(req.method === "HEAD" ? undefined : html, done);
  }) as typeof res.end;
}
