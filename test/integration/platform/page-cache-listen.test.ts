/**
 * Issue 38: the page cache hears other processes' commits through PostgreSQL NOTIFY, and stops
 * serving the moment its LISTEN connection is lost (what is announced meanwhile would be missed),
 * emptied and serving again once postgres.js has listened again. PostgreSQL only (`npm run test:pg`).
 */
import postgres from "postgres";
import { afterAll, describe, expect, inject, it } from "vitest";
import { PAGE_CACHE_CHANNEL } from "../../../lib/page-cache/invalidate";
import { pageCacheLive, startPageCacheListener } from "../../../lib/page-cache/listener";
import { cacheMark, cachedPage, storePage } from "../../../lib/page-cache/page-store";

const tpl = inject("dbTemplate");
let other: postgres.Sql | undefined;

async function until(cond: () => boolean, ms = 5000): Promise<boolean> {
  const end = Date.now() + ms;
  while (!cond() && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
  return cond();
}

afterAll(async () => {
  await other?.end();
});

describe.skipIf(tpl.kind !== "postgres")("page cache invalidations over LISTEN/NOTIFY", () => {
  it("drops a page when another connection's commit announces its tag, and only that page", async () => {
    await startPageCacheListener();
    expect(pageCacheLive()).toBe(true);
    const { getDb } = await import("../../../db/client");
    const db = (await getDb()) as unknown as { $client: postgres.Sql };
    // Another process's connection to the same database (NOTIFY is per database).
    const [{ url }] = await db.$client<{ url: string }[]>`select current_database() as url`;
    const u = new URL(tpl.kind === "postgres" ? tpl.url : "");
    u.pathname = `/${url}`;
    other = postgres(u.toString(), { max: 1, onnotice: () => {} });
    storePage("a", { headers: {}, body: Buffer.from("a"), tags: ["t:tenant-a"] }, cacheMark());
    storePage("b", { headers: {}, body: Buffer.from("b"), tags: ["t:tenant-b"] }, cacheMark());
    // Rolled back: announces nothing.
    await other
      .begin(async (tx) => {
        await tx`select pg_notify(${PAGE_CACHE_CHANNEL}, 't:tenant-a')`;
        throw new Error("rollback");
      })
      .catch(() => {});
    await new Promise((r) => setTimeout(r, 200));
    expect(cachedPage("a")).toBeDefined();
    await other.begin(async (tx) => {
      await tx`select pg_notify(${PAGE_CACHE_CHANNEL}, 't:tenant-a s:site-x')`;
    });
    expect(await until(() => cachedPage("a") === undefined)).toBe(true);
    expect(cachedPage("b")).toBeDefined();
  });

  it("stops serving when its LISTEN connection is cut, and serves an emptied cache once it listens again", async () => {
    storePage("c", { headers: {}, body: Buffer.from("c"), tags: ["t:tenant-c"] }, cacheMark());
    const cut = await other!`select pg_terminate_backend(pid) as ok from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid() and query ilike 'listen%'`;
    expect(cut.length).toBeGreaterThan(0);
    expect(await until(() => !pageCacheLive(), 3000)).toBe(true);
    expect(cachedPage("c")).toBeUndefined();
    expect(await until(() => pageCacheLive(), 10_000)).toBe(true);
    // Listening again: it hears the next announcement.
    storePage("d", { headers: {}, body: Buffer.from("d"), tags: ["t:tenant-d"] }, cacheMark());
    await other!`select pg_notify(${PAGE_CACHE_CHANNEL}, 't:tenant-d')`;
    expect(await until(() => cachedPage("d") === undefined)).toBe(true);
  });
});
