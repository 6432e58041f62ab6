import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import * as assetRoute from "../../../app/api/docs/assets/[file]/route";
import * as openApiJsonRoute from "../../../app/api/docs/openapi.json/route";
import * as docsRoute from "../../../app/api/docs/route";
import { buildOpenApiDocument } from "../../../lib/openapi/document";
import { FILTER_SCHEMA } from "../../../lib/search/fields";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const API_DIR = path.join(ROOT, "app", "api");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/**
 * Routes that are deliberately absent from the description: the documentation itself, and the
 * Inngest endpoint, which only the Inngest server calls (it is not part of the integrator API),
 * and the catch-all that answers unknown paths with a JSON 404.
 */
const UNDOCUMENTED = new Set(["/api/docs", "/api/docs/openapi.json", "/api/docs/assets/{file}", "/api/inngest", "/api/{path}"]);

type Doc = ReturnType<typeof buildOpenApiDocument>;
type Json = Record<string, any>;

/** `app/api/v1/listings/[id]/route.ts` -> `/api/v1/listings/{id}` (route groups dropped). */
function openApiPath(file: string): string {
  const segments = path.relative(path.join(ROOT, "app"), path.dirname(file)).split(path.sep);
  return (
    "/" +
    segments
      .filter((s) => !/^\(.*\)$/.test(s))
      .map((s) => s.replace(/^\[\[\.\.\.(.+)\]\]$/, "{$1}").replace(/^\[(?:\.\.\.)?(.+)\]$/, "{$1}"))
      .join("/")
  );
}

/** HTTP methods a route file exports, in any of the forms Next.js accepts. */
function exportedMethods(source: string): string[] {
  const found = new Set<string>();
  const alt = METHODS.join("|");
  for (const m of source.matchAll(new RegExp(`export\\s+(?:const|let|var)\\s+(${alt})\\b`, "g"))) found.add(m[1]);
  for (const m of source.matchAll(new RegExp(`export\\s+(?:async\\s+)?function\\s*\\*?\\s*(${alt})\\b`, "g"))) found.add(m[1]);
  // `export const { GET, POST, PUT } = serve(...)`: the exported name follows a `:` rename.
  // `= otherMethods(...)` makes the JSON 405 answers for the methods a route does not have.
  for (const m of source.matchAll(/export\s+(?:const|let|var)\s*\{([^}]*)\}\s*=\s*([\w.]+)/g)) {
    if (m[2] === "otherMethods") continue;
    for (const part of m[1].split(",")) found.add(part.split(":").pop()!.trim());
  }
  // `export { handler as GET, POST }`
  for (const m of source.matchAll(/export\s*\{([^}]*)\}/g)) {
    for (const part of m[1].split(","))
      found.add(
        part
          .split(/\s+as\s+/)
          .pop()!
          .trim(),
      );
  }
  return [...found].filter((name): name is (typeof METHODS)[number] => (METHODS as readonly string[]).includes(name));
}

function routeFiles(): string[] {
  return (fs.readdirSync(API_DIR, { recursive: true }) as string[])
    .filter((f) => path.basename(f) === "route.ts")
    .map((f) => path.join(API_DIR, f))
    .sort();
}

function operations(doc: Doc): { path: string; method: string; op: Json }[] {
  return Object.entries(doc.paths ?? {}).flatMap(([p, item]) =>
    Object.entries(item as Json)
      .filter(([m]) => (METHODS as readonly string[]).includes(m.toUpperCase()))
      .map(([method, op]) => ({ path: p, method, op: op as Json })),
  );
}

function resolve(doc: Doc, schema: Json): Json {
  if (typeof schema?.$ref !== "string") return schema;
  const name = schema.$ref.replace("#/components/schemas/", "");
  const target = (doc.components?.schemas as Json | undefined)?.[name];
  if (!target) throw new Error(`unresolved ${schema.$ref}`);
  return resolve(doc, target);
}

describe("route scanning", () => {
  it("recognises every export form of a route handler", () => {
    expect(exportedMethods("export const GET = apiRoute(async () => x);")).toEqual(["GET"]);
    expect(exportedMethods("export async function POST(req: Request) {}\nexport function DELETE() {}")).toEqual(["POST", "DELETE"]);
    expect(exportedMethods("export const { GET, POST, PUT } = serve({ client, functions });")).toEqual(["GET", "POST", "PUT"]);
    expect(exportedMethods('export const GET = x;\nexport const { OPTIONS, POST, PUT } = otherMethods("GET");')).toEqual(["GET"]);
    expect(exportedMethods("const h = 1;\nexport { h as PATCH, GET };\nexport const dynamic = 'force-dynamic';")).toEqual(["PATCH", "GET"]);
    expect(exportedMethods("export const OPTIONS = cors;\nconst GET = 1;")).toEqual([]);
  });

  it("maps folders to OpenAPI paths", () => {
    expect(openApiPath(path.join(API_DIR, "v1/real-estate/listings/[id]/route.ts"))).toBe("/api/v1/real-estate/listings/{id}");
    expect(openApiPath(path.join(API_DIR, "(public)/sites/[...slug]/route.ts"))).toBe("/api/sites/{slug}");
    expect(openApiPath(path.join(API_DIR, "pages/[[...path]]/route.ts"))).toBe("/api/pages/{path}");
  });
});

describe("OpenAPI description", () => {
  const doc = buildOpenApiDocument();

  it("documents every method of every API route", () => {
    const files = routeFiles();
    expect(files.length).toBeGreaterThan(0);
    const missing: string[] = [];
    for (const file of files) {
      const apiPath = openApiPath(file);
      if (UNDOCUMENTED.has(apiPath)) continue;
      const methods = exportedMethods(fs.readFileSync(file, "utf8"));
      // A route file whose exports the patterns cannot see would otherwise pass silently.
      expect(methods, `${path.relative(ROOT, file)}: no exported HTTP method recognised`).not.toHaveLength(0);
      for (const method of methods) {
        if (!(doc.paths![apiPath] as Json | undefined)?.[method.toLowerCase()]) missing.push(`${method} ${apiPath}`);
      }
    }
    expect(missing, "operations missing from lib/openapi").toEqual([]);
  });

  it("documents no operation that has no route", () => {
    const routes = new Map(routeFiles().map((f) => [openApiPath(f), exportedMethods(fs.readFileSync(f, "utf8"))]));
    const extra = operations(doc)
      .filter(({ path: p, method }) => !routes.get(p)?.includes(method.toUpperCase()))
      .map(({ path: p, method }) => `${method.toUpperCase()} ${p}`);
    expect(extra).toEqual([]);
  });

  it("is OpenAPI 3.1 with the service name, version and a relative server", () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info.title).toMatch(/ API$/);
    expect(doc.info.version).toBe("1.0.0");
    expect(doc.servers).toEqual([{ url: "/" }]);
  });

  it("gives every operation a summary, a description, a 2xx and a 4xx response, and a known security scheme", () => {
    const schemes = Object.keys(doc.components?.securitySchemes ?? {});
    expect(schemes.sort()).toEqual(["apiKey", "operatorToken"]);
    for (const { path: p, method, op } of operations(doc)) {
      const where = `${method.toUpperCase()} ${p}`;
      expect(op.summary, where).toBeTruthy();
      expect(op.description, where).toBeTruthy();
      const statuses = Object.keys(op.responses ?? {});
      expect(
        statuses.some((s) => /^2\d\d$/.test(s)),
        `${where}: 2xx`,
      ).toBe(true);
      // Health probes take no input, so they have no 4xx; they take no credentials either.
      if (p.startsWith("/api/health")) {
        expect(op.security, `${where}: security`).toEqual([]);
        continue;
      }
      expect(
        statuses.some((s) => /^4\d\d$/.test(s)),
        `${where}: 4xx`,
      ).toBe(true);
      const security = (op.security ?? []) as Json[];
      // The sites interface takes no credentials (spec 2 §5.1): it says so with an explicit empty list.
      // Channel webhooks authenticate with the channel's path token and secret, not an API key.
      if (p.startsWith("/api/sites/") || p.startsWith("/api/webhooks/")) {
        expect(op.security, `${where}: security`).toEqual([]);
        continue;
      }
      expect(security.length, `${where}: security`).toBeGreaterThan(0);
      for (const req of security) for (const name of Object.keys(req)) expect(schemes, where).toContain(name);
      const expected = p.startsWith("/api/admin/") || p === "/api/metrics" ? "operatorToken" : "apiKey";
      expect(Object.keys(security[0]), where).toEqual([expected]);
    }
  });

  it("declares no answer's schema in lib/openapi: each one sits beside the presenter that builds it", () => {
    // `ok(...)` and `publicOk(...)` take the schema of a documented answer; a `z.` there is a shape
    // the code is not typed by (move it to the domain and type the presenter with it).
    const dir = path.join(ROOT, "lib", "openapi", "paths");
    const inline = fs
      .readdirSync(dir)
      .flatMap((f) =>
        [...fs.readFileSync(path.join(dir, f), "utf8").matchAll(/\b(?:ok|publicOk)\((?:"(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`),\s*z\./g)].map(
          (m) => `${f}: ${m[0]}`,
        ),
      );
    expect(inline).toEqual([]);
  });

  it("uses the shared Error schema for every error response", () => {
    const error = resolve(doc, { $ref: "#/components/schemas/Error" });
    expect(error.properties.error.required).toEqual(["code", "message"]);
    for (const { path: p, method, op } of operations(doc)) {
      for (const [status, res] of Object.entries(op.responses as Json)) {
        // The readiness probe's 503 is its own body (which checks fail), not an error.
        if (Number(status) < 400 || p === "/api/health/ready") continue;
        expect(res.content["application/json"].schema, `${method} ${p} ${status}`).toEqual({ $ref: "#/components/schemas/Error" });
      }
    }
  });

  it("describes nested listings of the property bodies as oneOf update or create", () => {
    for (const [p, method] of [
      ["/api/v1/real-estate/properties", "post"],
      ["/api/v1/real-estate/properties/{propertyId}", "patch"],
    ] as const) {
      const op = (doc.paths![p] as Json)[method];
      const body = resolve(doc, op.requestBody.content["application/json"].schema);
      const items = resolve(doc, body.properties.listings.items);
      expect(items.oneOf, `${method} ${p}`).toEqual([{ $ref: "#/components/schemas/NestedListingUpdate" }, { $ref: "#/components/schemas/ListingCreate" }]);
      expect(resolve(doc, items.oneOf[0]).required).toContain("id");
      expect(resolve(doc, items.oneOf[1]).properties.translations).toBeDefined();
    }
  });

  it("keeps translations out of the standalone listing PATCH and shows the pageSize limit", () => {
    const patch = (doc.paths!["/api/v1/real-estate/listings/{id}"] as Json).patch;
    expect(resolve(doc, patch.requestBody.content["application/json"].schema).properties.translations).toBeUndefined();
    const list = (doc.paths!["/api/v1/real-estate/listings"] as Json).get;
    const pageSize = (list.parameters as Json[]).find((p) => p.name === "pageSize");
    expect(pageSize?.schema).toMatchObject({ type: "integer", maximum: 100, default: 50 });
  });

  it("documents the deal list filters, the create body, the {id, data} PATCH envelope and the read shapes", () => {
    const list = (doc.paths!["/api/v1/crm/deals"] as Json).get;
    const params = list.parameters as Json[];
    expect(params.map((p) => p.name)).toEqual(
      expect.arrayContaining(["page", "pageSize", "dealType", "stage", "status", "assignedToId", "marketingChannelInstanceId", "customFilters"]),
    );
    expect(params.find((p) => p.name === "pageSize")?.schema).toMatchObject({ type: "integer", maximum: 100, default: 50 });
    const customFilters = params.find((p) => p.name === "customFilters");
    expect(customFilters?.schema.type).toBe("string");
    expect(customFilters?.description).toMatch(/URL-encoded JSON object/);
    const page = resolve(doc, list.responses["200"].content["application/json"].schema);
    expect(Object.keys(page.properties).sort()).toEqual(["items", "page", "pageSize", "total"]);
    expect(page.properties.items.items).toEqual({ $ref: "#/components/schemas/Deal" });

    const post = (doc.paths!["/api/v1/crm/deals"] as Json).post;
    const create = resolve(doc, post.requestBody.content["application/json"].schema);
    expect(create.required).toEqual(expect.arrayContaining(["title", "dealType", "contacts"]));
    expect(create.properties.contacts.minItems).toBe(1);
    expect(create.properties).toHaveProperty("assignedToEmail");
    expect(create.properties).toHaveProperty("assignedToPhone");
    expect(create.properties).toHaveProperty("marketingChannelInstanceId");
    const contact = resolve(doc, create.properties.contacts.items);
    expect(contact.required).toEqual(expect.arrayContaining(["name", "role"]));
    expect(post.responses["201"].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/CreatedDeal" });
    expect(Object.keys(resolve(doc, { $ref: "#/components/schemas/CreatedDeal" }).properties).sort()).toEqual([
      "createdAt",
      "currency",
      "dealType",
      "id",
      "stage",
      "status",
      "title",
    ]);

    const item = doc.paths!["/api/v1/crm/deals/{id}"] as Json;
    const update = resolve(doc, item.patch.requestBody.content["application/json"].schema);
    expect(update.required).toEqual(["id", "data"]);
    const data = resolve(doc, update.properties.data);
    expect(data.properties.id).toBeUndefined();
    expect(data.properties).toHaveProperty("custom");
    expect(data.properties).toHaveProperty("contacts");
    expect(item.patch.description).toMatch(/`null` removes it/);
    const deal = resolve(doc, item.get.responses["200"].content["application/json"].schema);
    expect(Object.keys(deal.properties).filter((k) => k.startsWith("assignedTo"))).toEqual(["assignedToId"]);
    expect(resolve(doc, deal.properties.contacts.items).required).toContain("id");
    const deleted = resolve(doc, item.delete.responses["200"].content["application/json"].schema);
    expect(deleted.properties.deleted).toMatchObject({ type: "boolean", enum: [true] });
  });

  it("documents marketing channels as an admin-only settings resource", () => {
    const list = (doc.paths!["/api/v1/settings/marketing-channels"] as Json).get;
    const body = resolve(doc, list.responses["200"].content["application/json"].schema);
    expect(body.properties.items.items).toEqual({ $ref: "#/components/schemas/MarketingChannel" });
    for (const [p, method] of [
      ["/api/v1/settings/marketing-channels", "get"],
      ["/api/v1/settings/marketing-channels", "post"],
      ["/api/v1/settings/marketing-channels/{id}", "patch"],
    ] as const) {
      expect(Object.keys((doc.paths![p] as Json)[method].responses), `${method} ${p}`).toContain("403");
    }
  });

  it("shows the deal workflow and custom fields in the tenant settings", () => {
    const settings = doc.paths!["/api/v1/settings"] as Json;
    const read = resolve(doc, settings.get.responses["200"].content["application/json"].schema);
    expect(read.required).toEqual(expect.arrayContaining(["dealWorkflow", "customFields"]));
    const workflow = resolve(doc, read.properties.dealWorkflow);
    expect(Object.keys(workflow.properties).sort()).toEqual(["defaultStageId", "stages", "terminalStageIds"]);
    expect(Object.keys(resolve(doc, workflow.properties.stages.items).properties).sort()).toEqual(["id", "label", "outcome"]);
    const field = resolve(doc, resolve(doc, read.properties.customFields).items);
    expect(field.properties.type.enum).toEqual(["text", "number", "boolean", "date", "select"]);
    const write = resolve(doc, settings.patch.requestBody.content["application/json"].schema);
    expect(write.properties).toHaveProperty("dealWorkflow");
    expect(write.properties).toHaveProperty("customFields");
  });

  it("documents the webhook settings, secret, test, delivery log and redelivery as admin-only operations", () => {
    const settings = doc.paths!["/api/v1/settings/webhooks"] as Json;
    const put = resolve(doc, settings.put.requestBody.content["application/json"].schema);
    expect(put.required).toEqual(["url", "events", "hmac", "bearer"]);
    expect(put.properties.url.type).toEqual(["string", "null"]);
    expect(put.properties.events.items.enum).toContain("deal.created");
    expect(put.properties.events.items.enum).not.toContain("webhook.test");
    for (const op of [settings.get, settings.put]) {
      expect(op.responses["200"].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/WebhookSettings" });
    }
    const read = resolve(doc, { $ref: "#/components/schemas/WebhookSettings" });
    expect(read.required).toContain("hasSecret");
    expect(read.required).not.toContain("secret");
    expect(settings.put.description).toMatch(/generates one \(32 random bytes, base64url\)/);

    const secret = (doc.paths!["/api/v1/settings/webhooks/secret"] as Json).post;
    expect(Object.keys(resolve(doc, secret.responses["200"].content["application/json"].schema).properties)).toEqual(["secret"]);
    const test = (doc.paths!["/api/v1/settings/webhooks/test"] as Json).post;
    expect(test.responses["200"].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/WebhookTestResult" });

    const list = (doc.paths!["/api/v1/settings/webhooks/deliveries"] as Json).get;
    const params = list.parameters as Json[];
    expect(params.map((p) => p.name).sort()).toEqual(["cursor", "limit", "state"]);
    expect(params.find((p) => p.name === "limit")?.schema).toMatchObject({ type: "integer", minimum: 1, maximum: 100, default: 50 });
    expect(params.find((p) => p.name === "state")?.schema.enum).toEqual(["pending", "delivered", "dropped"]);
    const page = resolve(doc, list.responses["200"].content["application/json"].schema);
    expect(Object.keys(page.properties).sort()).toEqual(["items", "nextCursor"]);
    expect(page.properties.items.items).toEqual({ $ref: "#/components/schemas/Delivery" });

    const redeliver = (doc.paths!["/api/v1/settings/webhooks/deliveries/{eventId}/redeliver"] as Json).post;
    expect(redeliver.parameters.map((p: Json) => [p.name, p.in])).toEqual([["eventId", "path"]]);
    const queued = resolve(doc, redeliver.responses["202"].content["application/json"].schema);
    expect(queued.properties.state).toMatchObject({ type: "string", enum: ["pending"] });
    expect(Object.keys(redeliver.responses)).toEqual(expect.arrayContaining(["404", "409"]));

    for (const [p, method, conflict] of [
      ["/api/v1/settings/webhooks", "get", false],
      ["/api/v1/settings/webhooks", "put", false],
      ["/api/v1/settings/webhooks/secret", "post", true],
      ["/api/v1/settings/webhooks/test", "post", true],
      ["/api/v1/settings/webhooks/deliveries", "get", false],
      ["/api/v1/settings/webhooks/deliveries/{eventId}/redeliver", "post", true],
    ] as const) {
      const op = (doc.paths![p] as Json)[method];
      expect(op.tags, `${method} ${p}`).toEqual(["Webhooks"]);
      expect(Object.keys(op.responses), `${method} ${p}`).toContain("403");
      expect(Object.keys(op.responses).includes("409"), `${method} ${p} 409`).toBe(conflict);
    }
  });

  it("documents the listing search parameters with their bounds, the filter language and the item shape", () => {
    const search = (doc.paths!["/api/v1/real-estate/listings/search"] as Json).get;
    expect(search.tags).toEqual(["Listings"]);
    const params = search.parameters as Json[];
    const param = (name: string) => params.find((p) => p.name === name);
    expect(params.map((p) => p.name)).toEqual(
      expect.arrayContaining([
        "query",
        "page",
        "pageSize",
        "type",
        "visibility",
        "hasPhotos",
        "minPhotos",
        "hasVirtualTour",
        "hasVideo",
        "bedrooms",
        "minArea",
        "maxArea",
        "budget",
        "propertyTypes",
        "locations",
        "neighborhood",
        "city",
        "state",
        "latitude",
        "longitude",
        "radiusKm",
        "filter",
        "includeNetworks",
      ]),
    );
    expect(params.every((p) => p.in === "query" && p.required === false && p.description)).toBe(true);
    expect(param("page")?.schema).toMatchObject({ type: "integer", minimum: 1, maximum: 10_000, default: 1 });
    expect(param("pageSize")?.schema).toMatchObject({ type: "integer", minimum: 1, maximum: 100, default: 20 });
    expect(param("bedrooms")?.schema).toMatchObject({ type: "integer", minimum: 0, maximum: 99 });
    expect(param("minPhotos")?.schema).toMatchObject({ type: "integer", minimum: 0, maximum: 1000 });
    expect(param("latitude")?.schema).toMatchObject({ type: "number", minimum: -90, maximum: 90 });
    expect(param("longitude")?.schema).toMatchObject({ type: "number", minimum: -180, maximum: 180 });
    expect(param("radiusKm")?.schema).toMatchObject({ type: "number", exclusiveMinimum: 0, maximum: 1000 });
    expect(param("budget")?.schema.type).toBe("number");
    expect(param("includeNetworks")?.schema).toMatchObject({ type: "boolean", default: true });
    expect(param("hasPhotos")?.schema.type).toBe("boolean");
    expect(param("propertyTypes")?.schema).toMatchObject({ type: "array", items: { type: "string" } });
    expect(param("propertyTypes")?.description).toMatch(/separate with commas/);
    expect(param("visibility")?.description).toMatch(/omit it for both/);
    expect(param("latitude")?.description).toMatch(/together/);
    expect(param("query")?.description).toMatch(/prefix/);
    expect(param("query")?.description).toMatch(/typo/);

    const filter = param("filter")?.description as string;
    for (const text of [
      "`:=`",
      "`:!=`",
      "`:>=`",
      "`&&`",
      "`||`",
      "equal precedence",
      "left to right",
      "backticks",
      "`location:(",
      "`invalid_filter`",
      "position",
    ]) {
      expect(filter, text).toContain(text);
    }
    expect(filter).toContain("`bedrooms`");
    expect(filter).toContain("*geopoint*: `location`");
    for (const name of Object.keys(FILTER_SCHEMA)) expect(filter, name).toContain(`\`${name}\``);

    expect(search.description).toMatch(/no `filter` can widen them/);
    expect(search.description).toMatch(/isNetworkListing: true/);
    expect(search.description).toMatch(/as soon as it commits/);
    expect(search.responses["400"].description).toMatch(/invalid_filter/);
    const page = resolve(doc, search.responses["200"].content["application/json"].schema);
    expect(Object.keys(page.properties).sort()).toEqual(["items", "page", "pageSize", "total"]);
    expect(page.properties.items.items).toEqual({ $ref: "#/components/schemas/ListingSearchItem" });
    const item = resolve(doc, page.properties.items.items);
    expect(item.required).toEqual(expect.arrayContaining(["id", "listingCode", "title", "price", "location", "features", "isNetworkListing"]));
    expect(item.properties.isNetworkListing.type).toBe("boolean");
  });

  it("documents partner networks as admin-only settings operations with their statuses", () => {
    const networks = doc.paths!["/api/v1/settings/networks"] as Json;
    const list = resolve(doc, networks.get.responses["200"].content["application/json"].schema);
    expect(Object.keys(list.properties)).toEqual(["items"]);
    expect(list.properties.items.items).toEqual({ $ref: "#/components/schemas/Network" });
    expect(networks.post.responses["201"].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/Network" });
    const network = resolve(doc, { $ref: "#/components/schemas/Network" });
    expect(network.properties).toHaveProperty("inviteCode");
    expect(network.required).not.toContain("inviteCode");
    expect(networks.post.description).toMatch(/shown only in this response/);
    expect(resolve(doc, networks.post.requestBody.content["application/json"].schema).required).toEqual(["name"]);

    const join = (doc.paths!["/api/v1/settings/networks/join"] as Json).post;
    expect(resolve(doc, join.requestBody.content["application/json"].schema).required).toEqual(["inviteCode"]);
    expect(Object.keys(resolve(doc, join.responses["200"].content["application/json"].schema).properties).sort()).toEqual(["id", "name"]);

    const share = (doc.paths!["/api/v1/settings/networks/{id}/listings"] as Json).put;
    expect(share.parameters.map((p: Json) => [p.name, p.in])).toEqual([["id", "path"]]);
    const body = resolve(doc, share.requestBody.content["application/json"].schema);
    expect(body.required).toEqual(["listingIds", "shared"]);
    expect(body.properties.listingIds).toMatchObject({ type: "array", minItems: 1, maxItems: 500 });
    const shared = resolve(doc, share.responses["200"].content["application/json"].schema);
    expect(Object.keys(shared.properties)).toEqual(["networkId", "shared", "listingIds"]);
    expect(share.description).toMatch(/public ones only/);
    expect(share.description).toMatch(/isNetworkListing: true/);

    for (const [p, method, statuses] of [
      ["/api/v1/settings/networks", "get", ["200", "401", "403", "500", "503"]],
      ["/api/v1/settings/networks", "post", ["201", "400", "401", "403", "413", "415", "500", "503"]],
      ["/api/v1/settings/networks/join", "post", ["200", "400", "401", "403", "409", "413", "415", "500", "503"]],
      ["/api/v1/settings/networks/{id}/listings", "put", ["200", "400", "401", "403", "404", "413", "415", "500", "503"]],
    ] as const) {
      const op = (doc.paths![p] as Json)[method];
      expect(op.tags, `${method} ${p}`).toEqual(["Networks"]);
      expect(Object.keys(op.responses).sort(), `${method} ${p}`).toEqual(statuses);
    }
    expect(doc.tags?.find((t) => t.name === "Networks")?.description).toBeTruthy();
  });

  it("describes the outbound event envelope, headers and delivery rules under the Webhooks tag", () => {
    const tag = doc.tags?.find((t) => t.name === "Webhooks");
    expect(tag?.description).toBeTruthy();
    for (const text of [
      "**Outbound events.**",
      "`eventId`",
      "`occurredAt`",
      "`changes` (always `null`",
      "`User-Agent: <SERVICE_NAME>-Webhook/1.0`",
      "`x-webhook-signature`",
      "`Authorization: Bearer <secret>`",
      "30 s",
      "after 8 failures",
      "deduplicate on `eventId`",
      "redirects are never followed",
    ]) {
      expect(tag?.description, text).toContain(text);
    }
  });

  it("has no dangling $ref", () => {
    const text = JSON.stringify(doc);
    for (const [, ref] of text.matchAll(/"\$ref":"([^"]+)"/g)) {
      const [, kind, name] = /^#\/components\/([^/]+)\/(.+)$/.exec(ref) ?? [];
      expect((doc.components as Json | undefined)?.[kind]?.[name], ref).toBeDefined();
    }
  });
});

describe("documentation routes", () => {
  it("serves the description as JSON, readable from any origin", async () => {
    const res = await openApiJsonRoute.GET(new Request("http://localhost/api/docs/openapi.json"));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const body = await res.json();
    expect(body.openapi).toMatch(/^3\.1\./);
    expect(Object.keys(body.paths)).toContain("/api/v1/real-estate/listings");
  });

  it("serves a Swagger UI page that loads only local assets", async () => {
    const res = await docsRoute.GET(new Request("http://localhost/api/docs"));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toContain('"/api/docs/openapi.json"');
    const urls = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(urls.length).toBeGreaterThanOrEqual(4);
    for (const url of urls) expect(url).toMatch(/^\/api\/docs\/assets\//);
  });

  it("answers /api/docs with the JSON description when a client asks for JSON", async () => {
    const res = await docsRoute.GET(new Request("http://localhost/api/docs", { headers: { accept: "application/json" } }));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("vary")).toBe("Accept");
    expect((await res.json()).openapi).toMatch(/^3\.1\./);
  });

  it("serves allow-listed assets with their content type and a long cache", async () => {
    const get = (file: string) => assetRoute.GET(new Request(`http://localhost/api/docs/assets/${file}`), { params: Promise.resolve({ file }) });
    const css = await get("swagger-ui.css");
    expect(css.status).toBe(200);
    expect(css.headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect(css.headers.get("cache-control")).toContain("max-age=31536000");
    expect((await css.text()).length).toBeGreaterThan(1000);
    const js = await get("swagger-ui-bundle.js");
    expect(js.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    const png = await get("favicon-32x32.png");
    expect(png.headers.get("content-type")).toBe("image/png");

    for (const file of ["index.html", "../package.json", "swagger-initializer.js", "constructor", "__proto__"]) {
      const res = await get(file);
      expect(res.status, file).toBe(404);
      expect((await res.json()).error.code).toBe("not_found");
    }
  });
});
