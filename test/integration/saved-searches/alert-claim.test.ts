/**
 * The alert claim takes the searches with waiting hits that are due: searches that wait (their
 * instant alert went out less than an hour ago, their daily digest hour has not come, they failed
 * too often, they left) are passed over and never hold back a due one. The mail is real, caught by
 * an SMTP server on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as propertiesRoute from "../../../app/api/v1/real-estate/properties/route";
import { getDb } from "../../../db/client";
import { savedSearches, savedSearchHits } from "../../../db/schema";
import { sendAlerts } from "../../../lib/saved-searches/deliver";
import type { FakeSmtp } from "../../fakes/smtp-server";
import { makeTenant, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { savedSearchRow, startServiceSmtp, stopServiceSmtp } from "../../helpers/saved-searches";
import { makeSite } from "../../helpers/sites";

let smtp: FakeSmtp;
let t: TestTenant;

beforeAll(async () => {
  smtp = await startServiceSmtp();
  t = await makeTenant("Imobiliária Fila de Alertas");
});
afterAll(() => stopServiceSmtp(smtp));

const mailsTo = (email: string) => smtp.state.received.filter((m) => m.to.includes(email));

describe("claiming due alerts", () => {
  it("passes over the searches that wait, in front of a due one, and takes the due one", async () => {
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
    // A fixed clock, three hours past the default digest hour (08:00 in São Paulo): the daily
    // search alerted at `now` stays before its next digest for every claim below.
    const now = new Date("2026-06-01T14:00:00Z");
    const tenMinutesAgo = new Date(now.getTime() - 10 * 60_000);
    // Ids chosen so the waiting searches come first in the walk.
    const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
    const waiting = [
      savedSearchRow(t, site, { city: "Campinas" }, { id: id(1), email: "ha-pouco@cliente.test", lastAlertAt: tenMinutesAgo }),
      savedSearchRow(t, site, { city: "Campinas" }, { id: id(2), email: "falhou@cliente.test", failures: 99 }),
      savedSearchRow(t, site, { city: "Campinas" }, { id: id(3), email: "diario@cliente.test", frequency: "daily", lastAlertAt: now }),
      savedSearchRow(t, site, { city: "Campinas" }, { id: id(4), email: "pausada@cliente.test", status: "unsubscribed" }),
    ];
    const due = savedSearchRow(t, site, { city: "Campinas" }, { id: "ffffffff-ffff-4fff-bfff-ffffffffffff", email: "devida@cliente.test" });
    const db = await getDb();
    const saved = await db
      .insert(savedSearches)
      .values([...waiting, due])
      .returning({ id: savedSearches.id });
    await db
      .insert(savedSearchHits)
      .values(saved.map((s) => ({ savedSearchId: s.id, listingId, tenantId: t.tenantId, price: "900000", reason: "new" as const })));

    expect(await sendAlerts(db, 1, now)).toBe(1);
    expect(mailsTo("devida@cliente.test")).toHaveLength(1);
    for (const s of waiting) expect(mailsTo(s.email)).toHaveLength(0);
    // Nothing else is due now.
    expect(await sendAlerts(db, 50, now)).toBe(0);
    // An hour after its last alert, the instant search's hit goes out.
    expect(await sendAlerts(db, 50, new Date(tenMinutesAgo.getTime() + 3600_000))).toBe(1);
    expect(mailsTo("ha-pouco@cliente.test")).toHaveLength(1);
  });
});
