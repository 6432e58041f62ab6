import { count, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import * as dealsRoute from "../../../app/api/v1/crm/deals/route";
import { getDb } from "../../../db/client";
import { deals } from "../../../db/schema";
import { createDeal } from "../../../lib/deals/deals";
import { apiRoute, json } from "../../../lib/http/route";
import { gracefulShutdown } from "../../../lib/server/shutdown";
import { inFlightRequests, resetLifecycleForTests } from "../../../lib/server/lifecycle";
import { makeTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";

afterEach(() => resetLifecycleForTests());

const body = { title: "Shutdown race", dealType: "sale", contacts: [{ name: "Ana", email: "ana@example.com", role: "buyer" }] };

describe("graceful shutdown", () => {
  it("finishes an in-flight write, refuses new requests with 503, then stops the runner and closes the database", async () => {
    const t = await makeTenant();
    let release!: () => void;
    const gate = new Promise<void>((ok) => (release = ok));
    // A write that is in flight when the signal arrives (it waits at the gate before writing).
    const slowCreate = apiRoute(async ({ ctx }) => {
      await gate;
      return json(await createDeal(ctx, body), 201);
    });
    const inFlight = call(slowCreate, "POST", "/x", { key: t.key, body, contract: false });
    while (inFlightRequests() === 0) await new Promise((ok) => setTimeout(ok, 5));

    const steps: string[] = [];
    let dealsWhenClosing = -1;
    const done = gracefulShutdown("SIGTERM", {
      timeoutMs: 5000,
      stopRunner: async () => void steps.push("runner stopped"),
      closeDb: async () => {
        const [{ n }] = await (await getDb()).select({ n: count() }).from(deals).where(eq(deals.tenantId, t.tenantId));
        dealsWhenClosing = Number(n);
        steps.push("database closed");
      },
      exit: (code) => void steps.push(`exit ${code}`),
    });

    const refused = await call(dealsRoute.GET, "GET", "/x", { key: t.key });
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("5");
    expect(steps).toEqual([]);

    release();
    const res = await inFlight;
    expect(res.status).toBe(201);
    await done;
    expect(steps).toEqual(["runner stopped", "database closed", "exit 0"]);
    expect(dealsWhenClosing).toBe(1);
  });

  it("does not wait forever: past the bound it closes and exits anyway", async () => {
    const t = await makeTenant();
    const stuck = apiRoute(async () => new Promise<Response>(() => {}));
    void call(stuck, "GET", "/x", { key: t.key, contract: false });
    while (inFlightRequests() === 0) await new Promise((ok) => setTimeout(ok, 5));
    const steps: string[] = [];
    const started = Date.now();
    await gracefulShutdown("SIGTERM", {
      timeoutMs: 300,
      stopRunner: async () => void steps.push("runner stopped"),
      closeDb: async () => void steps.push("database closed"),
      exit: (code) => void steps.push(`exit ${code}`),
    });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(steps).toEqual(["runner stopped", "database closed", "exit 0"]);
  });
});
