/**
 * The probe of the hardening issue, kept as a test: fuzzed JSON bodies (random values, and valid
 * bodies with one field replaced by a random value) on every JSON write endpoint, and hostile
 * query strings on every read endpoint. Nothing may answer 5xx. Seeds are fixed so a failure
 * reproduces; the counterexample is printed by fast-check.
 */
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { makeTenant, propertyBody, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";

const API_DIR = path.resolve(import.meta.dirname, "../../../app/api/v1");

function routeFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? routeFiles(p) : e.name === "route.ts" ? [p] : [];
  });
}

type Handler = (req: Request, segment?: { params: Promise<Record<string, string>> }) => Promise<Response>;
type Module = Record<string, unknown>;

/** Valid bodies, so that mutations get past the first checks and reach deeper validation. */
const SEEDS: Record<string, unknown> = {
  "real-estate/properties": propertyBody(),
  "crm/deals": { title: "Fuzz", dealType: "sale", contacts: [{ name: "Ana", phone: "+5511987654321", role: "buyer" }] },
  sites: { name: "Fuzz", domain: "fuzz.example.com" },
  settings: { listingLanguages: ["pt-BR"] },
};

/** A valid body with the value at one key path replaced, or a random JSON value. */
const body = (seed: unknown) =>
  fc.oneof(
    fc.jsonValue({ maxDepth: 4 }),
    fc.tuple(fc.nat(), fc.jsonValue({ maxDepth: 3 })).map(([n, v]) => replaceOne(seed, n, v)),
  );

function replaceOne(seed: unknown, n: number, value: unknown): unknown {
  const copy = structuredClone(seed) as Record<string, unknown> | undefined;
  if (!copy || typeof copy !== "object") return value;
  const slots: [Record<string, unknown>, string][] = [];
  const walk = (o: unknown) => {
    if (!o || typeof o !== "object") return;
    for (const k of Object.keys(o)) {
      slots.push([o as Record<string, unknown>, k]);
      walk((o as Record<string, unknown>)[k]);
    }
  };
  walk(copy);
  if (!slots.length) return value;
  const [obj, key] = slots[n % slots.length];
  obj[key] = value;
  return copy;
}

const hostileValue = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom("-1", "0", "1e309", "NaN", "99999999999999999999", "%00", "\u0000", "\ud800", "[", "`", "' OR 1=1 --", "a".repeat(5000)),
);
const query = fc.dictionary(
  fc.constantFrom("page", "pageSize", "type", "stage", "filter", "query", "sort", "status", "latitude", "longitude", "radiusKm", "customFilters", "x"),
  hostileValue,
  { maxKeys: 4 },
);

let t: TestTenant;
beforeAll(async () => {
  t = await makeTenant();
});

const files = routeFiles(API_DIR);
/** Statuses seen on writes: the test is only worth something if some fuzzed bodies are accepted. */
const statuses = new Set<number>();
const segmentParams = (file: string): Record<string, string> =>
  Object.fromEntries([...file.matchAll(/\[(\w+)\]/g)].map((m) => [m[1], "00000000-0000-4000-8000-000000000000"]));
const seedFor = (file: string) => Object.entries(SEEDS).find(([k]) => path.dirname(file).endsWith(k))?.[1] ?? {};

describe("no fuzzed request answers 5xx", () => {
  it.each(files.map((f) => [path.relative(API_DIR, path.dirname(f)), f]))(
    "%s",
    async (_name, file) => {
      const mod = (await import(file)) as Module;
      const params = segmentParams(file);
      for (const method of ["POST", "PUT", "PATCH"] as const) {
        const handler = mod[method] as Handler | undefined;
        if (typeof handler !== "function") continue;
        await fc.assert(
          fc.asyncProperty(body(seedFor(file)), async (b) => {
            const res = await call(handler, method, "/x", { key: t.key, body: b, params });
            statuses.add(res.status);
            expect(res.status, `${method} ${JSON.stringify(b).slice(0, 300)}`).toBeLessThan(500);
          }),
          { numRuns: 40, seed: 20261124 },
        );
      }
      const get = mod.GET as Handler | undefined;
      if (typeof get === "function") {
        await fc.assert(
          fc.asyncProperty(query, async (q) => {
            const res = await call(get, "GET", "/x", { key: t.key, query: q, params });
            expect(res.status, `GET ${JSON.stringify(q).slice(0, 300)}`).toBeLessThan(500);
          }),
          { numRuns: 40, seed: 20261124 },
        );
      }
    },
    60_000,
  );

  it("got both accepted and refused writes (the fuzzing reaches past validation)", () => {
    expect(
      [...statuses].some((s) => s < 300),
      [...statuses].join(","),
    ).toBe(true);
    expect([...statuses].some((s) => s === 400)).toBe(true);
  });
});
