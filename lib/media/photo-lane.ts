import fs from "node:fs";
import type http from "node:http";
import path from "node:path";
import { logger } from "../log/logger";
import { trackRequest } from "../server/lifecycle";
import { DEMO_PHOTO_PATH, demoPhotosDir } from "./media-settings";
import { PHOTO_PREFIX } from "./photo-address";
import { servePhoto } from "./serve-photo";

const DEMO_FILE = /^\/_media\/demo\/([a-z0-9-]{1,80}\.jpg)$/;

/**
 * Stylesheets of our client libraries, served from the installed package rather than a copy in
 * `public/` (a copy would drift from the version the page's script comes from). The version is in
 * the address, so the answer is immutable.
 */
export const VENDOR_FILES: Record<string, { file: string; type: string }> = {
  "/_media/vendor/leaflet-1.9.4.css": { file: "node_modules/leaflet/dist/leaflet.css", type: "text/css; charset=utf-8" },
  // The listing and share pages' map (public/listing-map.js) loads it when the map nears the screen.
  "/_media/vendor/leaflet-1.9.4.js": { file: "node_modules/leaflet/dist/leaflet.js", type: "text/javascript; charset=utf-8" },
};

/**
 * Photos on our server's own lane (lib/server/web-server.ts), before Next.js: the same on every
 * host (a site, a share link, the service), and a cached variant costs a memory lookup and a
 * write, not a trip through the page router (docs/decisions.md, "Listing photos").
 */
export function photoLane(req: http.IncomingMessage, res: http.ServerResponse): boolean {
  const url = req.url ?? "";
  if (!url.startsWith("/_media/")) return false;
  if (req.method !== "GET" && req.method !== "HEAD") {
    res.writeHead(405, { allow: "GET, HEAD", "content-type": "text/plain; charset=utf-8" }).end("Only GET and HEAD.\n");
    return true;
  }
  const pathname = url.split("?")[0];
  const done = trackRequest();
  res.once("close", done);
  if (pathname.startsWith(PHOTO_PREFIX)) {
    const ifNoneMatch = req.headers["if-none-match"];
    servePhoto(pathname, { accept: req.headers.accept, ifNoneMatch: typeof ifNoneMatch === "string" ? ifNoneMatch : undefined, host: req.headers.host })
      .then((a) => {
        res.writeHead(a.status, { ...a.headers, "content-length": String(a.body.length) });
        res.end(req.method === "HEAD" ? undefined : a.body);
      })
      .catch((err) => {
        logger().warn({ err }, "photo lane: the answer could not be written");
        if (!res.headersSent) res.writeHead(500, { connection: "close" }).end();
        else res.destroy();
      });
    return true;
  }
  const vendor = VENDOR_FILES[pathname];
  if (vendor) {
    sendFile(req, res, path.join(process.cwd(), vendor.file), vendor.type, "public, max-age=31536000, immutable");
    return true;
  }
  const demo = DEMO_FILE.exec(pathname);
  if (!demo || !pathname.startsWith(DEMO_PHOTO_PATH)) {
    res.writeHead(404, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" }).end("Not found.\n");
    return true;
  }
  // The demo's original photographs (what a portal would host): served whole, as the source of the resized ones.
  sendFile(req, res, path.join(demoPhotosDir(), demo[1]), "image/jpeg", "public, max-age=86400");
  return true;
}

/** A file from disk, whole; 404 when it is not there. */
function sendFile(req: http.IncomingMessage, res: http.ServerResponse, file: string, type: string, cacheControl: string): void {
  fs.stat(file, (err, stat) => {
    if (err || !stat.isFile()) return void res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("No such file.\n");
    res.writeHead(200, { "content-type": type, "content-length": String(stat.size), "cache-control": cacheControl });
    if (req.method === "HEAD") return void res.end();
    fs.createReadStream(file).pipe(res);
  });
}
