/**
 * An alert whose message fails loses nothing: its hits stay due and its claim goes back, so the
 * next run sends them; a hit is marked sent only once its message went out, and a hit whose price
 * fell again after it was read stays due with the new price. The mail is real, caught by an SMTP
 * server on 127.0.0.1 that can refuse messages.
 */
import { eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as propertiesRoute from "../../../app/api/v1/real-estate/properties/route";
import { getDb } from "../../../db/client";
import { rowsOf } from "../../../db/rows";
import { savedSearches, savedSearchHits } from "../../../db/schema";
import { sendAlerts } from "../../../lib/saved-searches/deliver";
import type { SavedFilters } from "../../../lib/saved-searches/filters";
import type { FakeSmtp } from "../../fakes/smtp-server";
import { makeTenant, type TestTenant } from "../../helpers/factories";
import { savedSearchRow, startServiceSmtp, stopServiceSmtp } from "../../helpers/saved-searches";
import { call } from "../../helpers/http";
import { makeSite } from "../../helpers/sites";

let smtp: FakeSmtp;
let t: TestTenant;

beforeAll(async () => {
  smtp = await startServiceSmtp();
  t = await makeTenant("Imobiliária Persistente");
});
afterAll(() => stopServiceSmtp(smtp));
afterEach(() => {
  smtp.state.switches.rejectData = false;
  smtp.state.beforeAccept = null;
});

/** An instant search with one waiting hit on a listing of its site. */
async function searchWithWaitingHit(email: string) {
  const site = await makeSite(t);
  const res = await call(propertiesRoute.POST, "POST", "/x", {
    key: t.key,
    body: {
      property: { type: "house", bedrooms: 3, totalArea: "140" },
      location: { city: "Campinas", neighborhood: "Cambuí", state: "SP" },
      listings: [{ title: "Casa no Cambuí", type: "sale", price: "900000", stage: "active" }],
    },
  });
  expect(res.status).toBe(201);
  const listingId = res.body.listings[0].id as string;
  const filters: SavedFilters = { type: "sale", city: "Campinas" };
  const db = await getDb();
  const [s] = await db
    .insert(savedSearches)
    .values(savedSearchRow(t, site, filters, { email }))
    .returning();
  await db.insert(savedSearchHits).values({ savedSearchId: s.id, listingId, tenantId: t.tenantId, price: "900000", reason: "new" });
  return { searchId: s.id, listingId };
}

async function state(searchId: string) {
  const db = await getDb();
  const [s] = await db.select().from(savedSearches).where(eq(savedSearches.id, searchId));
  const hits = await db.select().from(savedSearchHits).where(eq(savedSearchHits.savedSearchId, searchId));
  return { lastAlertAt: s.lastAlertAt, failures: s.failures, sent: hits.map((h) => h.sentAt !== null), prices: hits.map((h) => h.price) };
}

const mailsTo = (email: string) => smtp.state.received.filter((m) => m.to.includes(email));

describe("alerts that fail", () => {
  it("a refused message leaves its hit due and its claim back; the next run sends it, once", async () => {
    const email = "recusado@cliente.test";
    const { searchId } = await searchWithWaitingHit(email);
    smtp.state.switches.rejectData = true;
    await sendAlerts(await getDb(), 50);
    expect(mailsTo(email)).toHaveLength(0);
    expect(await state(searchId)).toMatchObject({ lastAlertAt: null, failures: 1, sent: [false] });

    smtp.state.switches.rejectData = false;
    await sendAlerts(await getDb(), 50);
    expect(mailsTo(email)).toHaveLength(1);
    expect(mailsTo(email)[0].parsed.text).toContain("Casa no Cambuí");
    const after = await state(searchId);
    expect(after).toMatchObject({ failures: 0, sent: [true] });
    expect(after.lastAlertAt).not.toBeNull();

    // Nothing waits any more: another run sends nothing.
    await sendAlerts(await getDb(), 50, new Date(Date.now() + 2 * 3600_000));
    expect(mailsTo(email)).toHaveLength(1);
  });

  it("a hit whose price fell again after the alert read it is not marked sent: the lower price goes in the next alert", async () => {
    const email = "preco-caiu@cliente.test";
    const { searchId, listingId } = await searchWithWaitingHit(email);
    const db = await getDb();
    // The matcher records a lower price while the message is on its way (the server holds its answer until then).
    smtp.state.beforeAccept = async () => {
      smtp.state.beforeAccept = null;
      await db.execute(sql`
        update saved_search_hits set price = 850000, reason = 'price_drop', matched_at = clock_timestamp(), sent_at = null
        where saved_search_id = ${searchId}::uuid and listing_id = ${listingId}::uuid`);
    };
    await sendAlerts(db, 50);
    expect(mailsTo(email)).toHaveLength(1);
    const [hit] = rowsOf<{ sent: boolean; price: string }>(
      await db.execute(sql`select sent_at is not null as sent, price::text as price from saved_search_hits where saved_search_id = ${searchId}::uuid`),
    );
    expect(hit).toEqual({ sent: false, price: "850000.00" });
  });
});
