/**
 * Every answer under /api is JSON: an unknown path is a JSON 404 `not_found` for any method (Next
 * would render its HTML not-found page), and a method a route does not implement is a JSON 405
 * `method_not_allowed` with `Allow` (Next would answer an empty 405). Every route file under
 * app/api is checked, so a new route that forgets `otherMethods(...)` fails here.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import * as catchAll from "../../../app/api/[[...path]]/route";
import { allowHeader, HTTP_METHODS, isGeneratedHandler, type RouteMethod } from "../../../lib/http/method-not-allowed";
import { send } from "../../helpers/http";

const API_DIR = path.resolve(import.meta.dirname, "../../../app/api");

function routeFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? routeFiles(p) : e.name === "route.ts" ? [p] : [];
  });
}

/** `app/api/v1/crm/deals/[id]/route.ts` -> `/api/v1/crm/deals/x` (any value fills a segment). */
const urlOf = (file: string) =>
  `/api/${path
    .relative(API_DIR, path.dirname(file))
    .split(path.sep)
    .map((s) => (s.startsWith("[") ? "x" : s))
    .join("/")}`;

type Module = Record<string, unknown>;
const files = routeFiles(API_DIR).filter((f) => !f.includes("[[...path]]"));

describe("a method a route does not implement answers JSON 405 with Allow", () => {
  it("finds the route files", () => {
    expect(files.length).toBeGreaterThan(20);
  });

  it.each(files.map((f) => [path.relative(API_DIR, f), f]))("%s", async (_name, file) => {
    const mod = (await import(file)) as Module;
    const real = HTTP_METHODS.filter((m) => typeof mod[m] === "function" && !isGeneratedHandler(mod[m])) as RouteMethod[];
    expect(real.length, "the route implements at least one method").toBeGreaterThan(0);
    const allow = allowHeader(real);
    const url = `http://localhost${urlOf(file)}`;
    for (const method of HTTP_METHODS) {
      if (real.includes(method as RouteMethod) || (method === "HEAD" && real.includes("GET"))) continue;
      // Not exported: Next would answer an empty 405 (or list the method in its OPTIONS).
      expect(typeof mod[method], `${method} is exported`).toBe("function");
      const res = await send(mod[method] as (r: Request) => Promise<Response>, new Request(url, { method }));
      expect(res.headers.get("allow"), method).toBe(allow);
      expect(res.headers.get("x-request-id")).toBeTruthy();
      if (method === "OPTIONS") {
        expect(res.status).toBe(204);
        continue;
      }
      expect(res.status, method).toBe(405);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      const body = await res.json();
      expect(body).toEqual({ error: { code: "method_not_allowed", message: expect.stringContaining(`${method} is not supported`) } });
      expect(body.error.message).toContain(allow);
    }
  });

  it("Allow lists the real methods, HEAD with GET, and OPTIONS", () => {
    expect(allowHeader(["GET", "PATCH", "DELETE"])).toBe("DELETE, GET, HEAD, OPTIONS, PATCH");
    expect(allowHeader(["POST"])).toBe("OPTIONS, POST");
  });
});

describe("an unknown /api path answers JSON 404 for every method", () => {
  const paths = ["/api", "/api/nope", "/api/v1/crm/deals/00000000-0000-4000-8000-000000000000/notes", "/api/v2/listings", "/api/%E2%9C%93/<script>"];
  it.each(HTTP_METHODS.map((m) => [m]))("%s", async (method) => {
    const handler = (catchAll as Module)[method] as (r: Request) => Response;
    expect(typeof handler).toBe("function");
    for (const p of paths) {
      const res = handler(new Request(`http://localhost${p}`, { method }));
      expect(res.status, p).toBe(404);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      const body = await res.json();
      expect(body.error.code).toBe("not_found");
      expect(body.error.message).toMatch(/^No API endpoint at \/api/);
    }
  });

  it("cuts a very long path in the message", async () => {
    const res = catchAll.GET(new Request(`http://localhost/api/${"a".repeat(5000)}`));
    expect((await res.json()).error.message.length).toBeLessThan(300);
  });
});
