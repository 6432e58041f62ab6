import { randomUUID } from "node:crypto";
import type http from "node:http";
import { gunzipSync } from "node:zlib";
import { getDb } from "../../db/client";
import { config } from "../config";
import { logger } from "../log/logger";
import { recordSiteView } from "../share/record-access";
import { routeRequest, serviceHostSet } from "../sites/render/host-routing";
import { processGlobal } from "../util/process-global";
import { pageCacheLive, startPageCacheListener } from "./listener";
import { cacheMark, cachedPage, gzipOf, storePage } from "./page-store";
import { openNote, RENDER_NOTE_HEADER, takeNote } from "./render-notes";

export const PAGE_CACHE_HEADER = "x-page-cache";

/** A page bigger than this is answered but not kept. */
const MAX_PAGE_BYTES = 2 * 1024 * 1024;
/** Response headers that belong to one answer on one connection, never to a stored page. */
const NOT_STORED = new Set(["date", "connection", "keep-alive", "transfer-encoding", "content-length", "content-encoding", PAGE_CACHE_HEADER]);

/** `PAGE_CACHE`: on or off; unset, on in production. */
export function pageCacheOn(): boolean {
  const c = config();
  return c.PAGE_CACHE ? c.PAGE_CACHE === "on" : c.NODE_ENV === "production";
}

const serviceHosts = () => processGlobal("page-cache-service-hosts", () => serviceHostSet(process.env.SERVICE_HOSTS));

/**
 * The cache key of a request whose answer may come from the page cache, or null. Only anonymous
 * reads of a site's pages on its own domain: GET (HEAD is answered from a GET's entry), no
 * Next.js client-router request (`RSC`, `Next-*` headers, `_rsc`: another payload for the same
 * address), never a preview (`/s/{siteId}` on the service's hosts) or the service's own pages.
 * Pages read no cookie and no per-visitor header on the server (favourites, the visitor id and
 * compare lists live in the browser), so a visitor's cookies do not vary the page; what does is
 * the host, the address with its query (locale prefix, filters, `?lead=sent`) and the scheme the
 * proxy in front reports (canonical links and `og:url` carry it).
 */
export function pageCacheKey(req: http.IncomingMessage): string | null {
  if (req.method !== "GET" && req.method !== "HEAD") return null;
  const url = req.url ?? "/";
  if (!url.startsWith("/") || /[?&]_rsc=/.test(url)) return null;
  for (const h of Object.keys(req.headers)) if (h === "rsc" || h.startsWith("next-")) return null;
  const host = (req.headers.host ?? "").toLowerCase();
  if (!host) return null;
  const q = url.indexOf("?");
  const decision = routeRequest({ host, pathname: q < 0 ? url : url.slice(0, q), serviceHosts: serviceHosts() });
  if (decision.kind !== "rewrite" || decision.site?.key.kind !== "domain") return null;
  const proto = String(req.headers["x-forwarded-proto"] ?? "")
    .split(",")[0]
    .trim()
    .toLowerCase();
  // A browser's document request (`Accept: text/html`) gets the page without Next.js's client
  // runtime (lib/server/static-documents.ts), another request the page as rendered: two entries.
  const doc = /\btext\/html\b/.test(req.headers.accept ?? "") ? "doc" : "raw";
  return `${doc}|${proto}|${host}|${url}`;
}

/**
 * Site pages from the page cache (docs/decisions.md, "Rendered pages from a cache"): a hit is
 * answered here, before Next.js; a miss goes to Next.js with a note opened for its render and is
 * kept if the render says what it shows (render-notes.ts), answered 200 and set no cookie.
 * Returns true when it answered; false lets the request through (`next` is then called by the caller).
 */
export function pageLane(req: http.IncomingMessage, res: http.ServerResponse): boolean {
  // The render note's header is ours: a client's copy never reaches a page.
  delete req.headers[RENDER_NOTE_HEADER];
  if (!pageCacheOn()) return false;
  const key = pageCacheKey(req);
  if (!key) return false;
  if (!pageCacheLive()) {
    void startPageCacheListener();
    return false;
  }
  const hit = cachedPage(key);
  if (hit) {
    serveHit(req, res, hit);
    return true;
  }
  if (req.method === "GET") captureMiss(req, res, key);
  return false;
}

function serveHit(req: http.IncomingMessage, res: http.ServerResponse, page: NonNullable<ReturnType<typeof cachedPage>>): void {
  const gzip = /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""));
  const body = gzip ? gzipOf(page) : page.body;
  res.writeHead(200, {
    ...page.headers,
    ...(gzip ? { "content-encoding": "gzip" } : {}),
    "content-length": String(body.length),
    [PAGE_CACHE_HEADER]: "hit",
  });
  res.end(req.method === "HEAD" ? undefined : body);
  // The listing page counts a view each time it is rendered; served from here, it still counts one.
  if (page.view) {
    const view = page.view;
    void getDb()
      .then((db) => recordSiteView(db, view.tenantId, view.listingId))
      .catch((err) => logger().warn({ err }, "page cache: a listing view could not be counted"));
  }
}

type Chunk = string | Uint8Array;

/** Lets Next.js answer, keeping a copy of what it writes; stored once the answer has ended, if it may be. */
function captureMiss(req: http.IncomingMessage, res: http.ServerResponse, key: string): void {
  const mark = cacheMark();
  const token = randomUUID();
  openNote(token);
  req.headers[RENDER_NOTE_HEADER] = token;
  res.setHeader(PAGE_CACHE_HEADER, "miss");
  const chunks: Buffer[] = [];
  let size = 0;
  let keep = true;
  const headArgs: Record<string, string | string[]> = {};
  const add = (chunk: unknown, encoding: unknown) => {
    if (!keep || chunk == null || typeof chunk === "function") return;
    const b =
      typeof chunk === "string" ? Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8") : Buffer.from(chunk as Uint8Array);
    size += b.length;
    if (size > MAX_PAGE_BYTES) keep = false;
    else chunks.push(b);
  };
  const { write, end, writeHead } = res;
  res.writeHead = function (this: http.ServerResponse, ...args: unknown[]) {
    for (const a of args.slice(1)) {
      if (Array.isArray(a)) keep = false;
      else if (a && typeof a === "object") for (const [k, v] of Object.entries(a)) headArgs[k.toLowerCase()] = v as string | string[];
    }
    return (writeHead as (...a: unknown[]) => http.ServerResponse).apply(this, args);
  } as typeof res.writeHead;
  res.write = function (this: http.ServerResponse, chunk: Chunk, ...rest: unknown[]) {
    add(chunk, rest[0]);
    return (write as (...a: unknown[]) => boolean).apply(this, [chunk, ...rest]);
  } as typeof res.write;
  res.end = function (this: http.ServerResponse, ...args: unknown[]) {
    add(args[0], args[1]);
    return (end as (...a: unknown[]) => http.ServerResponse).apply(this, args);
  } as typeof res.end;
  let finished = false;
  res.once("finish", () => {
    finished = true;
  });
  res.once("close", () => {
    const note = takeNote(token);
    if (!finished || !keep || !note?.tags.size || res.statusCode !== 200) return;
    const headers: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries({ ...res.getHeaders(), ...headArgs })) {
      if (v === undefined || NOT_STORED.has(k)) continue;
      headers[k] = typeof v === "number" ? String(v) : (v as string | string[]);
    }
    // A page that sets a cookie, or is not HTML, belongs to its visitor or is not a page.
    if ("set-cookie" in headers || !String(headers["content-type"] ?? "").startsWith("text/html")) return;
    // Compressed on its way out (by staticDocuments or Next.js) for this client: kept plain, and its
    // gzip kept for the next clients that accept it.
    const encoding = String(res.getHeader("content-encoding") ?? headArgs["content-encoding"] ?? "");
    if (encoding && encoding !== "gzip") return;
    const sent = Buffer.concat(chunks);
    let body: Buffer;
    try {
      body = encoding ? gunzipSync(sent) : sent;
    } catch {
      return;
    }
    storePage(key, { headers, body, gzip: encoding ? sent : undefined, tags: [...note.tags], view: note.view, until: note.until }, mark);
  });
}
