import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { config } from "../config";
import { buildOpenApiDocument } from "./document";

/** The only files of `swagger-ui-dist` the docs page needs; anything else is a 404. */
const ASSETS: Record<string, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "swagger-ui-standalone-preset.js": "text/javascript; charset=utf-8",
  "favicon-32x32.png": "image/png",
};

export const OPENAPI_JSON_PATH = "/api/docs/openapi.json";
const ASSETS_PATH = "/api/docs/assets";

const nodeRequire = createRequire(import.meta.url);

type Dist = { dir: string; version: string };
let dist: Dist | undefined;

/**
 * `absolute-path.js` is the package's own `getAbsoluteFSPath`; requiring it directly avoids
 * `require("swagger-ui-dist")`, whose index also evaluates the 1.7 MB browser bundle in Node.
 */
function swaggerDist(): Dist {
  if (!dist) {
    const getAbsoluteFSPath = nodeRequire("swagger-ui-dist/absolute-path.js") as () => string;
    const dir = getAbsoluteFSPath();
    const { version } = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { version: string };
    dist = { dir, version };
  }
  return dist;
}

const files = new Map<string, Uint8Array<ArrayBuffer>>();

/**
 * Serves one allow-listed Swagger UI file. URLs carry the package version (`?v=`), so a new
 * swagger-ui-dist gets new URLs and the files can be cached for a year.
 */
export async function swaggerAssetResponse(name: string): Promise<Response> {
  const contentType = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
  if (!contentType) {
    return Response.json({ error: { code: "not_found", message: `No documentation asset '${name}'.` } }, { status: 404 });
  }
  let body = files.get(name);
  if (!body) {
    body = new Uint8Array(await readFile(path.join(swaggerDist().dir, name)));
    files.set(name, body);
  }
  return new Response(body, {
    headers: {
      "Content-Type": contentType,
      "Cache-Control": "public, max-age=31536000, immutable",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/**
 * `/api/docs`: the Swagger UI page for browsers. Spec 01 §9 names this address as the
 * machine-readable description, so a client that asks for JSON (and not HTML) gets the document.
 */
export function docsResponse(req: Request): Response {
  const accept = req.headers.get("accept") ?? "";
  const wantsJson = /application\/(?:vnd\.oai\.openapi\+)?json/i.test(accept) && !/text\/html/i.test(accept);
  const res = wantsJson ? openApiJsonResponse() : swaggerPageResponse();
  res.headers.set("Vary", "Accept");
  return res;
}

/** The Swagger UI page: every asset comes from this service (no CDN), and no validator is called. */
function swaggerPageResponse(): Response {
  const v = encodeURIComponent(swaggerDist().version);
  const asset = (file: string) => `${ASSETS_PATH}/${file}?v=${v}`;
  const title = escapeHtml(`${config().SERVICE_NAME} API`);
  const html = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${title}</title>
  <link rel="stylesheet" href="${asset("swagger-ui.css")}">
  <link rel="icon" type="image/png" sizes="32x32" href="${asset("favicon-32x32.png")}">
  <style>body { margin: 0; }</style>
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="${asset("swagger-ui-bundle.js")}"></script>
  <script src="${asset("swagger-ui-standalone-preset.js")}"></script>
  <script>
    window.addEventListener("load", function () {
      window.ui = SwaggerUIBundle({
        url: ${JSON.stringify(OPENAPI_JSON_PATH)},
        dom_id: "#swagger-ui",
        deepLinking: true,
        persistAuthorization: true,
        validatorUrl: null,
        presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
        plugins: [SwaggerUIBundle.plugins.DownloadUrl],
        layout: "StandaloneLayout",
      });
    });
  </script>
</body>
</html>
`;
  return new Response(html, {
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" },
  });
}

/** The description itself; CORS `*` so editors and code generators can fetch it from anywhere. */
export function openApiJsonResponse(): Response {
  return Response.json(buildOpenApiDocument(), {
    headers: { "Cache-Control": "no-store", "Access-Control-Allow-Origin": "*" },
  });
}
