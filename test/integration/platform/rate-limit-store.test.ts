/**
 * Issue #32, D3: a broken rate-limit store must be loud. The start-up check proves the store
 * writes and reads a row (and stops the server otherwise); a store that fails later is logged as
 * an error while the process counts in its own memory, instead of falling back in silence.
 */
import net from "node:net";
import { like } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { afterAll, describe, expect, it, vi } from "vitest";
import { getDb, type Db } from "../../../db/client";
import * as schema from "../../../db/schema";
import { rateLimits } from "../../../db/schema";
import { logger } from "../../../lib/log/logger";
import { consume } from "../../../lib/rate-limit/limiter";
import { checkRateLimitStore } from "../../../lib/rate-limit/self-check";

async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((ok) => s.listen(0, "127.0.0.1", ok));
  const { port } = s.address() as net.AddressInfo;
  await new Promise<void>((ok) => s.close(() => ok()));
  return port;
}

const client = postgres(`postgres://crm:pw@127.0.0.1:${await closedPort()}/crm`, { max: 1, connect_timeout: 1, onnotice: () => {} });
const broken = drizzle({ client, schema }) as unknown as Db;
afterAll(() => client.end({ timeout: 1 }));

describe("the rate limit store", () => {
  it("passes the start-up check on a working database and leaves no row behind", async () => {
    const db = await getDb();
    await checkRateLimitStore(db);
    expect(await db.$count(rateLimits, like(rateLimits.key, "selfcheck:%"))).toBe(0);
  });

  it("fails the start-up check, naming the store, when it cannot write and read a row", async () => {
    await expect(checkRateLimitStore(broken)).rejects.toThrow(/rate limit store does not work/);
  });

  it("logs an error (once a minute per policy) and counts in memory when the store fails later", async () => {
    const error = vi.spyOn(logger(), "error");
    const policy = { name: "probe", points: 2, windowSeconds: 60, keyPrefix: `probe-${Date.now()}` };
    const decisions = [];
    for (let i = 0; i < 3; i++) decisions.push(await consume(broken, policy, "10.0.0.1"));
    expect(decisions.map((d) => d?.allowed)).toEqual([true, true, false]);
    const lines = error.mock.calls.filter((c) => String(c[1]).includes("rate limit store failed"));
    expect(lines).toHaveLength(1);
    expect(lines[0][0]).toMatchObject({ policy: "probe" });
    error.mockRestore();
  });
});
