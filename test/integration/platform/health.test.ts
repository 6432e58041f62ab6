/**
 * Health probes for orchestrators: liveness answers while the process runs (also while it
 * drains), readiness only when the database answers, every migration is applied, the job runner
 * of this process is alive and the server is not shutting down. No credentials, no details.
 */
import net from "node:net";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { afterEach, describe, expect, it } from "vitest";
import * as liveRoute from "../../../app/api/health/route";
import * as readyRoute from "../../../app/api/health/ready/route";
import { getDb, setDbForTests, type Db } from "../../../db/client";
import * as schema from "../../../db/schema";
import { resetReadinessForTests } from "../../../lib/health/readiness";
import { resetConfigForTests } from "../../../lib/config";
import { startEmbeddedRunner } from "../../../lib/jobs/embedded-runner";
import { CLIENT_ADDRESS_HEADER } from "../../../lib/http/client-address";
import { resetLifecycleForTests, startDraining } from "../../../lib/server/lifecycle";
import { send } from "../../helpers/http";

/** As the server hands requests on: stamped with the connection's address (lib/server/web-server.ts). */
const get = async (handler: (req: Request) => Response | Promise<Response>, headers: Record<string, string> = { [CLIENT_ADDRESS_HEADER]: "10.0.0.1" }) => {
  const res = await send(handler, new Request("http://localhost/api/health", { headers }));
  return { status: res.status, headers: res.headers, body: await res.json() };
};

afterEach(() => {
  resetLifecycleForTests();
  resetReadinessForTests();
});

describe("GET /api/health", () => {
  it("answers 200 without credentials, uncached, and still while draining", async () => {
    const res = await get(liveRoute.GET);
    expect(res).toMatchObject({ status: 200, body: { status: "ok" } });
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("x-request-id")).toBeTruthy();
    startDraining();
    expect((await get(liveRoute.GET)).status).toBe(200);
  });
});

describe("GET /api/health/ready", () => {
  it("answers 200 with each check ok, and nothing else", async () => {
    const res = await get(readyRoute.GET);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ready", checks: { database: "ok", migrations: "ok", jobs: "ok", accepting: "ok", clientAddress: "ok" } });
  });

  it("answers 503 when requests reach the routes without their client's address", async () => {
    const res = await get(readyRoute.GET, {});
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ status: "not_ready", checks: { clientAddress: "failing", database: "ok" } });
  });

  it("answers 503 with Retry-After while the server drains", async () => {
    startDraining();
    const res = await get(readyRoute.GET);
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    expect(res.body).toMatchObject({ status: "not_ready", checks: { accepting: "failing", database: "ok" } });
  });

  it("answers 503 when the database is unreachable, without saying where it is", async () => {
    const real = await getDb();
    const s = net.createServer();
    await new Promise<void>((ok) => s.listen(0, "127.0.0.1", ok));
    const port = (s.address() as net.AddressInfo).port;
    await new Promise<void>((ok) => s.close(() => ok()));
    const client = postgres(`postgres://crm:s3cret-pw@127.0.0.1:${port}/crm`, { max: 1, connect_timeout: 1, onnotice: () => {} });
    setDbForTests(drizzle({ client, schema }) as unknown as Db);
    try {
      const res = await get(readyRoute.GET);
      expect(res.status).toBe(503);
      expect(res.body.checks.database).toBe("failing");
      expect(JSON.stringify(res.body)).not.toMatch(/s3cret|127\.0\.0\.1|crm|ECONNREFUSED/);
    } finally {
      setDbForTests(real);
      await client.end({ timeout: 1 });
    }
    expect((await get(readyRoute.GET)).status).toBe(200);
  });

  it("answers 503 when the database lacks this build's newest migration", async () => {
    const db = await getDb();
    // Pretend the newest migration is not applied: move its record back in time, then restore it.
    await db.execute(
      sql`update drizzle.__drizzle_migrations set created_at = created_at - 1000000000000 where created_at = (select max(created_at) from drizzle.__drizzle_migrations)`,
    );
    try {
      const res = await get(readyRoute.GET);
      expect(res.status).toBe(503);
      expect(res.body.checks.migrations).toBe("failing");
    } finally {
      await db.execute(sql`update drizzle.__drizzle_migrations set created_at = created_at + 1000000000000 where created_at < 1000000000000`);
    }
    resetReadinessForTests();
    expect((await get(readyRoute.GET)).body.checks.migrations).toBe("ok");
  });

  it("answers 503 when background work runs in this process and its runner is not running", async () => {
    const before = process.env.JOBS_RUNNER;
    process.env.JOBS_RUNNER = "embedded";
    resetConfigForTests();
    try {
      expect((await get(readyRoute.GET)).body.checks.jobs).toBe("failing");
      const runner = startEmbeddedRunner();
      try {
        expect((await get(readyRoute.GET)).body.checks.jobs).toBe("ok");
      } finally {
        await runner.stop();
      }
      expect((await get(readyRoute.GET)).body.checks.jobs).toBe("failing");
    } finally {
      if (before === undefined) delete process.env.JOBS_RUNNER;
      else process.env.JOBS_RUNNER = before;
      resetConfigForTests();
    }
  });
});
