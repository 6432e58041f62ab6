import { and, count, desc, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../db/client";
import { listings, properties, visitItineraries, type ItineraryStop, type MeetingPoint, type VisitItineraryRow } from "../../db/schema";
import { inTenantTransaction } from "../../db/transaction";
import type { MemberCtx } from "../context/verb-context";
import { invalid, notFound } from "../errors/domain-errors";
import { deletedSchema, PageQuery, pageSchema } from "../schemas/paging";
import { planRoute } from "./route-plan";
import { assertDealInTenant, assertListingsReadable, createdByVisible } from "./tenant-refs";

const MeetingPointSchema = z
  .strictObject({
    name: z.string().trim().min(1).max(200),
    address: z.string().trim().max(300).nullable().default(null),
    latitude: z.number().min(-90).max(90).nullable().default(null),
    longitude: z.number().min(-180).max(180).nullable().default(null),
  })
  .refine((m) => (m.latitude === null) === (m.longitude === null), { message: "latitude and longitude go together", path: ["latitude"] })
  .meta({ id: "MeetingPoint" });

const StopSchema = z.strictObject({
  listingId: z.uuid().transform((v) => v.toLowerCase()),
  time: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, "must be a time such as 09:30")
    .nullable()
    .default(null),
  notes: z.string().trim().max(1000).nullable().default(null),
});

const Stops = z
  .array(StopSchema)
  .max(30)
  .refine((l) => new Set(l.map((s) => s.listingId)).size === l.length, "must not visit a listing twice");

const IsoDate = z.iso.date().meta({ description: "YYYY-MM-DD." });

export const CreateItinerarySchema = z
  .strictObject({
    name: z.string().trim().min(1).max(120),
    scheduledDate: IsoDate,
    meetingPoint: MeetingPointSchema.nullable().default(null),
    stops: Stops.default([]),
    dealId: z.uuid().nullable().optional(),
  })
  .meta({ id: "VisitItineraryCreate" });

export const UpdateItinerarySchema = z
  .strictObject({
    name: z.string().trim().min(1).max(120),
    scheduledDate: IsoDate,
    meetingPoint: MeetingPointSchema.nullable(),
    stops: Stops,
    dealId: z.uuid().nullable(),
  })
  .partial()
  .meta({ id: "VisitItineraryUpdate" });

const RouteCacheSchema = z
  .object({
    order: z.array(z.uuid()),
    legs: z.array(z.object({ fromListingId: z.uuid().nullable(), toListingId: z.uuid(), distanceMeters: z.number().nullable() })),
    totalDistanceMeters: z.number().nullable(),
    computedAt: z.string(),
  })
  .meta({
    id: "RouteCache",
    description:
      "Visiting order (timed stops by time, otherwise nearest neighbour from the meeting point) and straight-line legs rounded to 100 m; a leg from `fromListingId: null` starts at the meeting point.",
  });

export const VisitItinerarySchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    scheduledDate: z.string(),
    meetingPoint: z.object({ name: z.string(), address: z.string().nullable(), latitude: z.number().nullable(), longitude: z.number().nullable() }).nullable(),
    stops: z.array(z.object({ listingId: z.uuid(), time: z.string().nullable(), notes: z.string().nullable() })),
    routeCache: RouteCacheSchema,
    dealId: z.uuid().nullable(),
    createdById: z.uuid().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "VisitItinerary" });
export type VisitItinerary = z.infer<typeof VisitItinerarySchema>;

/** `listItineraries`. */
export const VisitItineraryPageSchema = pageSchema(VisitItinerarySchema, "VisitItineraryPage");

/** `deleteItinerary` (the same answer as a deleted shortlist). */
export const DeletedItinerarySchema = deletedSchema("DeletedShareEntity");

export const ListItinerariesQuery = z.strictObject({ ...PageQuery, dealId: z.uuid().optional() });

const present = (r: VisitItineraryRow): VisitItinerary => ({
  id: r.id,
  name: r.name,
  scheduledDate: r.scheduledDate,
  meetingPoint: r.meetingPoint,
  stops: r.stops,
  routeCache: r.routeCache,
  dealId: r.dealId,
  createdById: r.createdById,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

/** Coordinates of the stops' properties (tenant-scoped), for the route. */
export async function stopCoordinates(db: DbOrTx, tenantId: string, ids: string[]) {
  const out = new Map<string, { latitude: number; longitude: number } | null>();
  if (!ids.length) return out;
  const rows = await db
    .select({ id: listings.id, lat: properties.latitude, lng: properties.longitude })
    .from(listings)
    .innerJoin(properties, eq(properties.id, listings.propertyId))
    .where(and(eq(listings.tenantId, tenantId), inArray(listings.id, ids)));
  for (const r of rows) out.set(r.id, r.lat !== null && r.lng !== null ? { latitude: r.lat, longitude: r.lng } : null);
  return out;
}

async function route(db: DbOrTx, tenantId: string, meeting: MeetingPoint | null, stops: ItineraryStop[]) {
  return planRoute(
    meeting,
    stops,
    await stopCoordinates(
      db,
      tenantId,
      stops.map((s) => s.listingId),
    ),
  );
}

export async function loadItinerary({ db, actor }: MemberCtx, id: string): Promise<VisitItineraryRow> {
  const [row] = await db
    .select()
    .from(visitItineraries)
    .where(and(eq(visitItineraries.id, id), eq(visitItineraries.tenantId, actor.tenantId)))
    .limit(1);
  if (!row || !createdByVisible(actor, row.createdById)) throw notFound(`Visit itinerary ${id} not found.`);
  return row;
}

export async function listItineraries({ db, actor }: MemberCtx, q: z.infer<typeof ListItinerariesQuery>): Promise<z.infer<typeof VisitItineraryPageSchema>> {
  const where = and(
    eq(visitItineraries.tenantId, actor.tenantId),
    actor.access === "broad" ? undefined : eq(visitItineraries.createdById, actor.userId),
    q.dealId ? eq(visitItineraries.dealId, q.dealId) : undefined,
  );
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(visitItineraries)
      .where(where)
      .orderBy(desc(visitItineraries.createdAt), desc(visitItineraries.id))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    db.select({ total: count() }).from(visitItineraries).where(where),
  ]);
  return { items: rows.map(present), total, page: q.page, pageSize: q.pageSize };
}

export async function getItinerary(ctx: MemberCtx, id: string): Promise<VisitItinerary> {
  return present(await loadItinerary(ctx, id));
}

export async function createItinerary(ctx: MemberCtx, input: unknown): Promise<VisitItinerary> {
  const data = CreateItinerarySchema.parse(input);
  const { actor } = ctx;
  return inTenantTransaction(ctx.db, actor.tenantId, async (tx) => {
    await assertListingsReadable(
      tx,
      actor,
      data.stops.map((s) => s.listingId),
      "stops",
    );
    await assertDealInTenant(tx, actor.tenantId, data.dealId);
    const [row] = await tx
      .insert(visitItineraries)
      .values({
        tenantId: actor.tenantId,
        name: data.name,
        scheduledDate: data.scheduledDate,
        meetingPoint: data.meetingPoint,
        stops: data.stops,
        routeCache: await route(tx, actor.tenantId, data.meetingPoint, data.stops),
        dealId: data.dealId ?? null,
        createdById: actor.userId,
      })
      .returning();
    return present(row);
  });
}

export async function updateItinerary(ctx: MemberCtx, { id, body }: { id: string; body: unknown }): Promise<VisitItinerary> {
  const data = UpdateItinerarySchema.parse(body);
  if (Object.keys(data).length === 0) throw invalid("Send at least one field to change.");
  const { actor } = ctx;
  return inTenantTransaction(ctx.db, actor.tenantId, async (tx) => {
    const current = await loadItinerary({ ...ctx, db: tx }, id);
    if (data.stops)
      await assertListingsReadable(
        tx,
        actor,
        data.stops.map((s) => s.listingId),
        "stops",
      );
    await assertDealInTenant(tx, actor.tenantId, data.dealId);
    const meetingPoint = data.meetingPoint !== undefined ? data.meetingPoint : current.meetingPoint;
    const stops = data.stops ?? current.stops;
    const [row] = await tx
      .update(visitItineraries)
      .set({ ...data, routeCache: await route(tx, actor.tenantId, meetingPoint, stops), updatedAt: new Date() })
      .where(and(eq(visitItineraries.id, id), eq(visitItineraries.tenantId, actor.tenantId)))
      .returning();
    return present(row);
  });
}

export async function deleteItinerary(ctx: MemberCtx, id: string): Promise<z.infer<typeof DeletedItinerarySchema>> {
  return inTenantTransaction(ctx.db, ctx.actor.tenantId, async (tx) => {
    await loadItinerary({ ...ctx, db: tx }, id);
    await tx.delete(visitItineraries).where(and(eq(visitItineraries.id, id), eq(visitItineraries.tenantId, ctx.actor.tenantId)));
    return { id, deleted: true as const };
  });
}
