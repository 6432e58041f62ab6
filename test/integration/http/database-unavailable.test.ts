import net from "node:net";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import * as dealsRoute from "../../../app/api/v1/crm/deals/route";
import { getDb, setDbForTests, type Db } from "../../../db/client";
import * as schema from "../../../db/schema";
import { describeConnectionProblem } from "../../../lib/server/database-check";
import { makeTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";

/** A port where nothing listens: connecting to it is refused at once. */
async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((ok) => s.listen(0, "127.0.0.1", ok));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((ok) => s.close(() => ok()));
  return port;
}

describe("the database going away while the server runs", () => {
  it("answers 503 with Retry-After instead of 500, and recovers by itself when the database is back", async () => {
    const t = await makeTenant();
    const real = await getDb();
    const client = postgres(`postgres://crm:s3cret-pw@127.0.0.1:${await closedPort()}/crm`, { max: 1, connect_timeout: 2, onnotice: () => {} });
    setDbForTests(drizzle({ client, schema }) as unknown as Db);
    try {
      const res = await call(dealsRoute.GET, "GET", "/x", { key: t.key });
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("5");
      expect(res.body.error.code).toBe("unavailable");
      expect(res.body.error.message).toMatch(/database is unreachable/);
      expect(JSON.stringify(res.body)).not.toContain("s3cret");
    } finally {
      setDbForTests(real);
      await client.end({ timeout: 1 });
    }
    expect((await call(dealsRoute.GET, "GET", "/x", { key: t.key })).status).toBe(200);
  });
});

describe("the start-up check's message", () => {
  it("names host, port, user and database, never the password", () => {
    const err = Object.assign(new Error('password authentication failed for user "crm"'), { code: "28P01" });
    const line = describeConnectionProblem("postgres://crm:p%40ss-w0rd@db.internal:6543/crm_prod", err);
    expect(line).toBe(
      'Cannot connect to PostgreSQL at db.internal:6543 as user "crm", database "crm_prod": password authentication failed for user "crm" [28P01]. ' +
        "Check DATABASE_URL (host, port, user, password, database) and that the server is running.",
    );
    const leaky = describeConnectionProblem("postgres://u:hunter2@h/d", new Error("bad hunter2"));
    expect(leaky).not.toContain("hunter2");
  });
});
