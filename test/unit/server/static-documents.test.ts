import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Handler } from "../../../lib/server/web-server";
import { requestListener } from "../../../lib/server/web-server";

/**
 * Site pages lose Next.js's client runtime on their way out (lib/server/static-documents.ts). The
 * stand-in for Next.js below answers the way Next.js's App Router does (headers flushed before the
 * first chunk, the page in several chunks, a chunk boundary inside a script), with the markup a
 * production build writes: its chunk scripts, their preload, Turbopack's bootstrap, the RSC payload.
 */
const NEXT_HEAD =
  '<link rel="stylesheet" href="/_next/static/chunks/25s22o6b-_spc.css" data-precedence="next"/>' +
  '<link rel="preload" as="script" fetchPriority="low" href="/_next/static/chunks/3b4f7el-lbipz.js"/>' +
  '<script src="/_next/static/chunks/36hztricf3_gw.js" async=""></script><script src="/_next/static/chunks/257mghfoz-7do.js" async=""></script>' +
  '<script src="/_next/static/chunks/0cz1d0mv5g_q7.js" noModule=""></script>';
const NEXT_TAIL =
  '<script id="_R_">(globalThis["TURBOPACK"] || (globalThis["TURBOPACK"] = [])).push(["x"])</script>' +
  "<script>(self.__next_f=self.__next_f||[]).push([0])</script>" +
  '<script>self.__next_f.push([1,"1:\\"$Sreact.fragment\\"\\n4:I[1,[],\\"X\\"]\\u003c/script\\u003e"])</script>';
const OURS =
  '<script type="application/ld+json">{"@type":"RealEstateListing"}</script><script src="/favourites.js" defer=""></script>' +
  '<figure data-map=""><script src="/listing-map.js" defer=""></script></figure>';

const page = (body: string) => `<!DOCTYPE html><html lang="pt-BR"><head><meta charset="utf-8"/>${NEXT_HEAD}</head><body>${body}${NEXT_TAIL}</body></html>`;
const sitePage = page(`<div class="site" data-static-page="" data-site-id="s1"><main>${"<p>Apartamento</p>".repeat(200)}${OURS}</main></div>`);
const mapPage = page(`<div class="site" data-static-page="" data-site-id="s1"><div class="map-view" data-client-island=""></div>${OURS}</div>`);
const sharePage = page(`<main>${OURS}</main>`);

let seen: http.IncomingHttpHeaders = {};
const fakeNext: Handler = (req, res) => {
  seen = { ...req.headers };
  const html = req.url === "/map" ? mapPage : req.url === "/share" ? sharePage : sitePage;
  if (req.url === "/redirect") {
    res.statusCode = 307;
    res.setHeader("location", "/elsewhere");
    return res.end();
  }
  res.setHeader("content-type", "text/html; charset=utf-8");
  res.flushHeaders();
  // Next.js's compression wrapper writes the head before the first chunk, compressing or not.
  if (!res.headersSent) res.writeHead(200, { "x-rendered-by": "next" });
  // A cut inside the RSC payload's script, as a stream may cut it.
  const cut = html.indexOf("self.__next_f.push([1") + 10;
  res.write(html.slice(0, 40));
  res.write(Buffer.from(html.slice(40, cut)));
  setTimeout(() => res.end(html.slice(cut)), 5);
};

let server: http.Server;
let base: string;
beforeAll(async () => {
  server = http.createServer(requestListener(fakeNext));
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((ok) => server.close(() => ok()));
});

const doc = { accept: "text/html,application/xhtml+xml", "accept-encoding": "gzip, deflate, br" };

describe("site pages without Next.js's client runtime", () => {
  it("takes out Next.js's scripts, their preload and its inline payload, keeps the stylesheet and our scripts, and gzips the page", async () => {
    const res = await fetch(`${base}/`, { headers: doc });
    const html = await res.text();
    expect(res.status).toBe(200);
    expect(res.headers.get("content-encoding")).toBe("gzip");
    expect(res.headers.get("vary")).toMatch(/Accept-Encoding/);
    expect(res.headers.get("x-rendered-by")).toBe("next");
    // Next.js was asked for the page uncompressed, so the page could be read.
    expect(seen["accept-encoding"]).toBeUndefined();
    expect(html).not.toMatch(/<script[^>]*\/_next\//);
    expect(html).not.toContain('as="script"');
    expect(html).not.toContain("__next_f");
    expect(html).not.toContain("TURBOPACK");
    expect(html).toContain('<link rel="stylesheet" href="/_next/static/chunks/25s22o6b-_spc.css" data-precedence="next"/>');
    expect(html).toContain(OURS);
    expect(html).toContain('data-static-page=""');
    expect(html.endsWith("</body></html>")).toBe(true);
    expect(html.length).toBe(sitePage.length - NEXT_TAIL.length - NEXT_HEAD.length + NEXT_HEAD.indexOf('<link rel="preload"'));
  });

  it("leaves the runtime on a page with a React island and on pages that are not site pages", async () => {
    for (const path of ["/map", "/share"]) {
      const html = await (await fetch(`${base}${path}`, { headers: doc })).text();
      expect(html).toBe(path === "/map" ? mapPage : sharePage);
    }
  });

  it("answers uncompressed to a client that does not accept gzip, and a HEAD with the length and no body", async () => {
    const plain = { accept: "text/html", "accept-encoding": "identity" };
    const res = await fetch(`${base}/`, { headers: plain });
    expect(res.headers.get("content-encoding")).toBeNull();
    const html = await res.text();
    expect(html).not.toContain("__next_f");
    expect(Number(res.headers.get("content-length"))).toBe(Buffer.byteLength(html));
    const head = await fetch(`${base}/`, { method: "HEAD", headers: plain });
    expect(Number(head.headers.get("content-length"))).toBe(Buffer.byteLength(html));
    expect(await head.text()).toBe("");
  });

  it("does not touch what is not a navigation (RSC fetches, API calls) nor a redirect", async () => {
    const rsc = await fetch(`${base}/`, { headers: { accept: "*/*", rsc: "1", "accept-encoding": "gzip" } });
    expect(seen["accept-encoding"]).toBe("gzip");
    expect(await rsc.text()).toBe(sitePage);
    const redirect = await fetch(`${base}/redirect`, { headers: doc, redirect: "manual" });
    expect(redirect.status).toBe(307);
    expect(redirect.headers.get("location")).toBe("/elsewhere");
  });
});
