import { beforeEach, describe, expect, it, vi } from "vitest";
import * as healthRoute from "../../../app/api/health/route";
import * as dealRoute from "../../../app/api/v1/crm/deals/[id]/route";
import * as dealsRoute from "../../../app/api/v1/crm/deals/route";
import { z } from "zod";
import { bodyProblems, checkAgainstOperation, operationOf } from "../../helpers/contract";
import { call } from "../../helpers/http";

/**
 * The liveness route answers through `healthResponse`; replacing it makes the real route drift
 * from its documented operation (`GET /api/health`: 200 `{status: "ok"}` only).
 */
const answer = vi.hoisted(() => ({ current: null as null | ((req: Request) => Response) }));
vi.mock("../../../lib/health/health-response", async (original) => {
  const real = await original<typeof import("../../../lib/health/health-response")>();
  return {
    ...real,
    healthResponse: (req: Request, status: number, body: unknown, headers?: Record<string, string>) =>
      answer.current ? answer.current(req) : real.healthResponse(req, status, body, headers),
  };
});

beforeEach(() => {
  answer.current = null;
});

const json =
  (body: unknown, status = 200) =>
  () =>
    Response.json(body, { status });
const facts = (status: number, body: unknown, type = "application/json") => ({
  status,
  headers: new Headers({ "content-type": type }),
  text: typeof body === "string" ? body : JSON.stringify(body),
});

describe("call() checks every answer against the description", () => {
  it("passes an answer that matches its operation", async () => {
    const res = await call(healthRoute.GET as never, "GET", "/x");
    expect(res).toMatchObject({ status: 200, body: { status: "ok" } });
  });

  it("fails on a field the schema does not name, naming the operation, status and field", async () => {
    answer.current = json({ status: "ok", uptimeSeconds: 12 });
    await expect(call(healthRoute.GET as never, "GET", "/x")).rejects.toThrow(
      /GET \/api\/health \(liveness\) answered 200 application\/json\n {2}- uptimeSeconds: not in the documented schema/,
    );
  });

  it("fails on a missing or mistyped field with zod's issue", async () => {
    answer.current = json({});
    await expect(call(healthRoute.GET as never, "GET", "/x")).rejects.toThrow(/GET \/api\/health \(liveness\) answered 200[\s\S]*- status: Invalid input/);
  });

  it("fails on a status the operation does not document", async () => {
    answer.current = json({ status: "ok" }, 418);
    await expect(call(healthRoute.GET as never, "GET", "/x")).rejects.toThrow(/answered 418[\s\S]*status 418 is not documented \(documented: 200\)/);
  });

  it("fails on a content type the status does not document", async () => {
    answer.current = () => new Response("<p>ok</p>", { headers: { "content-type": "text/html" } });
    await expect(call(healthRoute.GET as never, "GET", "/x")).rejects.toThrow(/content type text\/html is not documented \(documented: application\/json\)/);
  });

  it("checks the JSON 405 of a method the route does not have", async () => {
    const res = await call(healthRoute.POST as never, "POST", "/x");
    expect(res.status).toBe(405);
  });

  it("refuses a handler that serves no route on a path no route has, unless told it is the test's own", async () => {
    const own = async () => Response.json({ anything: true });
    await expect(call(own, "GET", "/x")).rejects.toThrow(/not exported by any app\/api route\.ts/);
    await expect(call(own, "GET", "/x", { contract: false })).resolves.toMatchObject({ status: 200 });
  });
});

describe("finding the operation", () => {
  it("finds a handler called with a dummy path by its identity, including the path parameters", async () => {
    const id = "3fa85f64-5717-4562-b3fc-2c963f66afa6";
    expect(await operationOf(dealRoute.PATCH, { method: "PATCH", url: "http://localhost/x", params: { id } })).toEqual({
      method: "PATCH",
      path: "/api/v1/crm/deals/{id}",
    });
    expect(await operationOf(dealsRoute.GET, { method: "GET", url: "http://localhost/x" })).toEqual({ method: "GET", path: "/api/v1/crm/deals" });
  });

  it("finds a wrapper around a handler by its real request path", async () => {
    const wrapper = (req: Request) => dealsRoute.POST(req);
    expect(await operationOf(wrapper, { method: "POST", url: "http://localhost/api/v1/crm/deals" })).toEqual({ method: "POST", path: "/api/v1/crm/deals" });
  });
});

describe("checking one answer", () => {
  const listDeals = { method: "GET", path: "/api/v1/crm/deals" };

  it("holds error answers to the shared Error schema", () => {
    expect(() => checkAgainstOperation(listDeals, facts(401, { error: { code: "unauthorized", message: "No key." } }))).not.toThrow();
    expect(() => checkAgainstOperation(listDeals, facts(401, { message: "No key." }))).toThrow(
      /GET \/api\/v1\/crm\/deals \(listDeals\) answered 401[\s\S]*- error: Invalid input/,
    );
  });

  it("finds an undocumented field deep in a list item, and lets records and loose objects keep theirs", () => {
    const schema = z.object({ items: z.array(z.object({ id: z.string(), custom: z.record(z.string(), z.unknown()), entity: z.looseObject({}) })) });
    const item = { id: "a", custom: { any: 1 }, entity: { kept: true } };
    expect(bodyProblems(schema, { items: [item] })).toEqual([]);
    expect(bodyProblems(schema, { items: [item, { ...item, internalNotes: "leaked" }] })).toEqual(["items.1.internalNotes: not in the documented schema"]);
  });

  it("fails on an operation the description does not have", () => {
    expect(() => checkAgainstOperation({ method: "PUT", path: "/api/v1/crm/deals" }, facts(200, {}))).toThrow(/this operation is not in the description/);
  });
});
