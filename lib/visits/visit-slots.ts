import { and, asc, eq, gte, inArray, lt } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../db/client";
import { memberAvailability, members, tasks, type SiteRow } from "../../db/schema";
import { findSiteListing, propertyNotFound } from "../sites/find-site-listing";
import { brokerOfHit } from "../sites/brokers";
import type { SearchHit } from "../search/engine";
import { MAX_SLOT_MINUTES } from "./availability-schema";
import { localDateOf, offeredSlots, withoutBusy, type AvailabilityRules, type Slot } from "./slots";

/** Visitors cannot book a slot starting sooner than this: the broker needs time to see it. */
export const VISIT_NOTICE_MINUTES = 60;
export const DEFAULT_DAYS = 14;
export const MAX_DAYS = 31;
/** How many members the tenant's visit queue draws on at most (a bound on the work of one request). */
const MAX_QUEUE_MEMBERS = 20;

export const VisitSlotsQuery = z.strictObject({
  from: z
    .union([z.iso.date(), z.iso.datetime({ offset: true })], { error: "must be a date (YYYY-MM-DD) or an ISO 8601 date-time with offset" })
    .optional()
    .meta({
      description:
        "First day (a local date of the broker's zone) or instant to look from; default now. Slots in the past or within the hour are never offered.",
    }),
  days: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_DAYS)
    .default(DEFAULT_DAYS)
    .meta({
      type: "integer",
      minimum: 1,
      maximum: MAX_DAYS,
      default: DEFAULT_DAYS,
      description: `Local days to cover, 1 to ${MAX_DAYS} (default ${DEFAULT_DAYS}).`,
    }),
});
export type VisitSlotsQueryInput = z.infer<typeof VisitSlotsQuery>;

export const VisitSlotsSchema = z
  .object({
    slots: z.array(z.object({ start: z.string().meta({ example: "2026-12-01T13:00:00.000Z" }), end: z.string() })),
    timezone: z.string().nullable().meta({
      description:
        "IANA zone of the broker's availability (the first member's of a visit queue), for showing the times as the broker means them; null when nobody shows the listing.",
      example: "America/Sao_Paulo",
    }),
  })
  .meta({ id: "VisitSlots" });

export type Host = { memberId: string; name: string; rules: AvailabilityRules };

/**
 * Who shows a listing: its broker (the broker card's member: the property's assigned member, else
 * the listing's creator) when that member published availability; otherwise the tenant's visit
 * queue, every active member with published availability (oldest first). A partner network's
 * listing is shown by its own agency: nobody here.
 */
export async function visitHosts(db: DbOrTx, site: SiteRow, hit: SearchHit): Promise<Host[]> {
  if (hit.isNetworkListing) return [];
  const broker = await brokerOfHit(db, site, hit);
  const brokerId = broker && "id" in broker ? broker.id : null;
  if (brokerId) {
    const own = await publishedHosts(db, site.tenantId, brokerId);
    if (own.length) return own;
  }
  return publishedHosts(db, site.tenantId, null);
}

/** Active members with published availability: one member, or (null) the whole queue. */
async function publishedHosts(db: DbOrTx, tenantId: string, memberId: string | null): Promise<Host[]> {
  const rows = await db
    .select({ a: memberAvailability, name: members.name })
    .from(memberAvailability)
    .innerJoin(members, and(eq(members.id, memberAvailability.memberId), eq(members.tenantId, memberAvailability.tenantId), eq(members.active, true)))
    .where(and(eq(memberAvailability.tenantId, tenantId), memberId ? eq(memberAvailability.memberId, memberId) : undefined))
    .orderBy(asc(members.createdAt), asc(members.id))
    .limit(MAX_QUEUE_MEMBERS);
  return rows.filter((r) => r.a.weekly.length || r.a.exceptions.length).map((r) => ({ memberId: r.a.memberId, name: r.name, rules: r.a }));
}

export type FreeSlot = Slot & { memberIds: string[] };

/**
 * The free slots of the hosts: each host's offered slots minus its open visits and meetings, then
 * merged by start (a queue slot is free while any of its members is). `memberIds` lists who is free.
 * Without `subtractBusy`: every offered slot (a booking tells "taken" from "never offered").
 */
export async function freeSlots(
  db: DbOrTx,
  tenantId: string,
  hosts: Host[],
  q: VisitSlotsQueryInput,
  now = Date.now(),
  subtractBusy = true,
): Promise<FreeSlot[]> {
  if (!hosts.length) return [];
  const fromMs = q.from && q.from.length > 10 ? Date.parse(q.from) : null;
  const notBefore = Math.max(now + VISIT_NOTICE_MINUTES * 60_000, fromMs ?? 0);
  const perHost = hosts.map((h) => {
    const fromDate = q.from && q.from.length === 10 ? q.from : localDateOf(h.rules.timezone, fromMs ?? now);
    return { h, slots: offeredSlots(h.rules, fromDate, q.days, notBefore) };
  });
  const all = perHost.flatMap((p) => p.slots);
  if (!all.length) return [];
  const lo = Math.min(...all.map((s) => s.start)) - MAX_SLOT_MINUTES * 60_000;
  const hi = Math.max(...all.map((s) => s.end));
  const busy = !subtractBusy
    ? []
    : await db
        .select({ memberId: tasks.assigneeId, dueAt: tasks.dueAt })
        .from(tasks)
        .where(
          and(
            eq(tasks.tenantId, tenantId),
            inArray(
              tasks.assigneeId,
              hosts.map((h) => h.memberId),
            ),
            eq(tasks.status, "open"),
            inArray(tasks.type, ["visit", "meeting"]),
            gte(tasks.dueAt, new Date(lo)),
            lt(tasks.dueAt, new Date(hi)),
          ),
        );
  const merged = new Map<number, FreeSlot>();
  for (const { h, slots } of perHost) {
    const mine = busy.filter((b) => b.memberId === h.memberId && b.dueAt).map((b) => b.dueAt!.getTime());
    for (const s of withoutBusy(slots, mine, h.rules.slotMinutes)) {
      const seen = merged.get(s.start);
      if (seen) seen.memberIds.push(h.memberId);
      else merged.set(s.start, { ...s, memberIds: [h.memberId] });
    }
  }
  return [...merged.values()].sort((a, b) => a.start - b.start);
}

/** `GET /api/sites/{siteId}/listings/{id}/visit-slots`. */
export async function listingVisitSlots(db: DbOrTx, site: SiteRow, ref: string, q: VisitSlotsQueryInput): Promise<z.infer<typeof VisitSlotsSchema>> {
  const hit = await findSiteListing(db, site, ref);
  if (!hit) throw propertyNotFound();
  const hosts = await visitHosts(db, site, hit);
  const slots = await freeSlots(db, site.tenantId, hosts, q);
  return {
    slots: slots.map((s) => ({ start: new Date(s.start).toISOString(), end: new Date(s.end).toISOString() })),
    timezone: hosts[0]?.rules.timezone ?? null,
  };
}
