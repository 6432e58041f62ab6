import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../../db/client";
import { listings, listingSiteViews } from "../../../db/schema";
import { recordSiteView, settleAccesses } from "../../../lib/share/record-access";
import { makeTenant, type TestTenant } from "../../helpers/factories";
import { makeListing } from "../../helpers/share";

const today = () => new Date().toISOString().slice(0, 10);

async function viewsOf(listingId: string): Promise<number | null> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(listingSiteViews)
    .where(and(eq(listingSiteViews.listingId, listingId), eq(listingSiteViews.day, today())));
  return row?.views ?? null;
}

describe("site views are gathered and written together", () => {
  let t: TestTenant;
  let other: TestTenant;
  beforeAll(async () => {
    t = await makeTenant();
    other = await makeTenant();
  });

  it("counts every view of a batch, per listing and tenant, added to what was written before", async () => {
    const db = await getDb();
    const a = await makeListing(t);
    const b = await makeListing(other);
    for (let i = 0; i < 7; i++) recordSiteView(db, t.tenantId, a.id);
    recordSiteView(db, other.tenantId, b.id);
    // Nothing is written until the flush (a second later, or now on settle).
    expect(await viewsOf(a.id)).toBeNull();
    await settleAccesses();
    expect(await viewsOf(a.id)).toBe(7);
    expect(await viewsOf(b.id)).toBe(1);
    recordSiteView(db, t.tenantId, a.id);
    await settleAccesses();
    expect(await viewsOf(a.id)).toBe(8);
  });

  it("skips a listing deleted before the flush, keeping the others of the batch", async () => {
    const db = await getDb();
    const gone = await makeListing(t);
    const kept = await makeListing(t);
    recordSiteView(db, t.tenantId, gone.id);
    recordSiteView(db, t.tenantId, kept.id);
    await db.delete(listings).where(eq(listings.id, gone.id));
    await settleAccesses();
    expect(await viewsOf(gone.id)).toBeNull();
    expect(await viewsOf(kept.id)).toBe(1);
  });

  it("never counts a view under a listing of another tenant", async () => {
    const db = await getDb();
    const theirs = await makeListing(other);
    recordSiteView(db, t.tenantId, theirs.id);
    await settleAccesses();
    expect(await viewsOf(theirs.id)).toBeNull();
  });

  it("writes on its own a second later", async () => {
    const db = await getDb();
    const a = await makeListing(t);
    recordSiteView(db, t.tenantId, a.id);
    await new Promise((r) => setTimeout(r, 1500));
    expect(await viewsOf(a.id)).toBe(1);
  });
});
