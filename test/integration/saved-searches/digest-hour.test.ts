/**
 * Daily digests at each agency's own morning hour: the tenant's `savedSearchDigest` (hour and time
 * zone, each defaulting to the service's) decides when a daily search's waiting listings go out.
 * The clock is the test's; the mail is real, caught by an SMTP server on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as propertiesRoute from "../../../app/api/v1/real-estate/properties/route";
import * as settingsRoute from "../../../app/api/v1/settings/route";
import { getDb } from "../../../db/client";
import { savedSearches, savedSearchHits } from "../../../db/schema";
import { resetConfigForTests } from "../../../lib/config";
import { sendAlerts } from "../../../lib/saved-searches/deliver";
import type { SavedFilters } from "../../../lib/saved-searches/filters";
import { startFakeSmtp, type FakeSmtp } from "../../fakes/smtp-server";
import { makeTenant, type TestTenant } from "../../helpers/factories";
import { savedSearchRow } from "../../helpers/saved-searches";
import { call } from "../../helpers/http";
import { makeSite } from "../../helpers/sites";

let smtp: FakeSmtp;
const tenants: Record<"saoPaulo" | "tokyo" | "service", { t: TestTenant; email: string }> = {} as never;

/** The last alert of every search: 2026-06-01 14:00 UTC (11:00 in São Paulo, 23:00 in Tokyo), after each tenant's digest that day. */
const LAST_ALERT = new Date("2026-06-01T14:00:00Z");

async function dailySearchWithWaitingHit(t: TestTenant, email: string) {
  const site = await makeSite(t);
  const res = await call(propertiesRoute.POST, "POST", "/x", {
    key: t.key,
    body: {
      property: { type: "apartment", bedrooms: 2, totalArea: "60" },
      location: { city: "Santos", neighborhood: "Gonzaga", state: "SP" },
      listings: [{ title: `Apartamento no Gonzaga`, type: "sale", price: "500000", stage: "active" }],
    },
  });
  expect(res.status).toBe(201);
  const filters: SavedFilters = { type: "sale", city: "Santos" };
  const db = await getDb();
  const [s] = await db
    .insert(savedSearches)
    .values(savedSearchRow(t, site, filters, { frequency: "daily", email, consentAt: LAST_ALERT, confirmedAt: LAST_ALERT, lastAlertAt: LAST_ALERT }))
    .returning();
  await db.insert(savedSearchHits).values({ savedSearchId: s.id, listingId: res.body.listings[0].id, tenantId: t.tenantId, price: "500000", reason: "new" });
}

const patchDigest = async (t: TestTenant, savedSearchDigest: unknown) =>
  call(settingsRoute.PATCH, "PATCH", "/api/v1/settings", { key: t.key, body: { savedSearchDigest } });

beforeAll(async () => {
  smtp = await startFakeSmtp({ user: "svc", password: "svc-pass" });
  process.env.SMTP_URL = `smtp://svc:svc-pass@${smtp.host}:${smtp.port}`;
  process.env.SAVED_SEARCH_DIGEST_HOUR = "10";
  process.env.SAVED_SEARCH_TIMEZONE = "America/Sao_Paulo";
  resetConfigForTests();
  for (const [k, name] of [
    ["saoPaulo", "Imobiliária Paulista"],
    ["tokyo", "Imobiliária Tóquio"],
    ["service", "Imobiliária Padrão"],
  ] as const) {
    const t = await makeTenant(name);
    tenants[k] = { t, email: `digest-${k}@cliente.test` };
    await dailySearchWithWaitingHit(t, tenants[k].email);
  }
  expect((await patchDigest(tenants.saoPaulo.t, { hour: 6, timeZone: "America/Sao_Paulo" })).status).toBe(200);
  expect((await patchDigest(tenants.tokyo.t, { hour: 7, timeZone: "Asia/Tokyo" })).status).toBe(200);
});
afterAll(async () => {
  delete process.env.SMTP_URL;
  delete process.env.SAVED_SEARCH_DIGEST_HOUR;
  delete process.env.SAVED_SEARCH_TIMEZONE;
  resetConfigForTests();
  await smtp.close();
});

/** Who got a digest when the clock reads `iso`. */
async function digestsAt(iso: string) {
  const before = smtp.state.received.length;
  await sendAlerts(await getDb(), 50, new Date(iso));
  const got = smtp.state.received.slice(before).flatMap((m) => m.to);
  return (Object.keys(tenants) as (keyof typeof tenants)[]).filter((k) => got.some((to) => to.includes(tenants[k].email)));
}

describe("daily digest hour per tenant", () => {
  it("refuses a bad hour or zone with a 400 naming it, and reads back what was set", async () => {
    const { t } = tenants.service;
    for (const [body, field] of [
      [{ hour: 24, timeZone: null }, "savedSearchDigest.hour"],
      [{ hour: 8, timeZone: "Mars/Olympus" }, "savedSearchDigest.timeZone"],
      [{ hour: 8 }, "savedSearchDigest.timeZone"],
    ] as const) {
      const res = await patchDigest(t, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(res.body)).toContain(field);
    }
    const read = await call(settingsRoute.GET, "GET", "/api/v1/settings", { key: t.key });
    expect(read.body.savedSearchDigest).toEqual({ hour: null, timeZone: null });
    const tokyo = await call(settingsRoute.GET, "GET", "/api/v1/settings", { key: tenants.tokyo.t.key });
    expect(tokyo.body.savedSearchDigest).toEqual({ hour: 7, timeZone: "Asia/Tokyo" });
  });

  it("sends each tenant's digest at its own morning hour, in its own zone", async () => {
    // 2026-06-01 21:59 UTC: 06:59 on June 2 in Tokyo, 18:59 in São Paulo (that day's digests already sent).
    expect(await digestsAt("2026-06-01T21:59:00Z")).toEqual([]);
    // 22:00 UTC is 07:00 in Tokyo: only Tokyo's digest.
    expect(await digestsAt("2026-06-01T22:00:00Z")).toEqual(["tokyo"]);
    // June 2, 08:59 UTC = 05:59 in São Paulo: nothing yet; 09:00 UTC = 06:00: the São Paulo tenant's.
    expect(await digestsAt("2026-06-02T08:59:00Z")).toEqual([]);
    expect(await digestsAt("2026-06-02T09:00:00Z")).toEqual(["saoPaulo"]);
    // The tenant without a setting follows the service's 10:00 in São Paulo (13:00 UTC).
    expect(await digestsAt("2026-06-02T12:59:00Z")).toEqual([]);
    expect(await digestsAt("2026-06-02T13:00:00Z")).toEqual(["service"]);
    // Once a day: nothing more that day.
    expect(await digestsAt("2026-06-02T20:00:00Z")).toEqual([]);
  });
});
