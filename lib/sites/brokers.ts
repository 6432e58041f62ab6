import { and, eq, inArray, or } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../db/client";
import { listings, members, properties, type MemberRow, type SiteRow } from "../../db/schema";
import { invalid } from "../errors/domain-errors";
import type { SearchHit } from "../search/engine";
import { UUID_PATTERN } from "../schemas/uuid";
import { findSiteListing, propertyNotFound } from "./find-site-listing";

export const MAX_PUBLIC_BROKER_IDS = 100;

/** The broker card of spec 2 §2.5: a public profile, never the e-mail or the role. */
export const BrokerCardSchema = z
  .object({ id: z.uuid(), name: z.string(), imageUrl: z.string().nullable(), phone: z.string().nullable(), creci: z.string().nullable() })
  .meta({ id: "BrokerCard" });
export type BrokerCard = z.infer<typeof BrokerCardSchema>;

/** The answer of `listingBroker` (null answers 204). */
export const ListingBrokerSchema = z.union([BrokerCardSchema, z.object({ suppressed: z.literal(true) })]);

/** The answer of `publicBrokers`: `image` repeats `imageUrl` for clients of the original interface. */
export const PublicBrokersSchema = z.object({ brokers: z.array(BrokerCardSchema.extend({ image: z.string().nullable() })) });

export const toBrokerCard = (m: MemberRow): BrokerCard => ({ id: m.id, name: m.name, imageUrl: m.image, phone: m.phone, creci: m.creci });

export const BrokerQuery = z.strictObject({ tenantId: z.string().max(100).optional() });

/**
 * `GET /listings/{listingId}/broker`: the property's assigned member, else the listing's creator
 * (active members only). A listing of another tenant (a partner network's) is `{suppressed: true}`:
 * no personal card of another agency's broker. No broker: null (the route answers 204).
 */
export async function listingBroker(
  db: DbOrTx,
  site: SiteRow,
  ref: string,
  q: z.infer<typeof BrokerQuery>,
): Promise<z.infer<typeof ListingBrokerSchema> | null> {
  if (q.tenantId !== undefined && !UUID_PATTERN.test(q.tenantId)) throw invalid("tenantId: must be a UUID", "invalid_parameter");
  const hit = await findSiteListing(db, site, ref);
  if (!hit) throw propertyNotFound();
  if (q.tenantId !== undefined && !hit.isNetworkListing && q.tenantId.toLowerCase() !== site.tenantId) throw propertyNotFound();
  return brokerOfHit(db, site, hit);
}

/**
 * The broker card of a listing the site shows (`findSiteListing`'s hit): the property's assigned
 * member, else the listing's creator, active members only, in one statement; a partner's listing
 * is `{suppressed: true}`. The listing page passes the hit it already has.
 */
export async function brokerOfHit(db: DbOrTx, site: SiteRow, hit: SearchHit): Promise<BrokerCard | { suppressed: true } | null> {
  if (hit.isNetworkListing) return { suppressed: true };
  const rows = await db
    .select({ member: members, assignedToId: properties.assignedToId })
    .from(listings)
    .innerJoin(properties, eq(properties.id, listings.propertyId))
    .innerJoin(
      members,
      and(eq(members.tenantId, listings.tenantId), eq(members.active, true), or(eq(members.id, properties.assignedToId), eq(members.id, listings.createdById))),
    )
    .where(and(eq(listings.id, String(hit.document.id)), eq(listings.tenantId, site.tenantId)));
  const broker = rows.find((r) => r.member.id === r.assignedToId) ?? rows[0];
  return broker ? toBrokerCard(broker.member) : null;
}

export const PublicBrokersQuery = z.strictObject({
  ids: z.string({ error: "is required: a comma-separated list of member ids" }).max(4000),
});

/**
 * `GET /brokers/public?ids=a,b`: active members of the site's tenant among `ids` (at most 100
 * UUIDs). Ids of other tenants or inactive members are simply absent. `image` repeats `imageUrl`
 * for clients of the original interface; the e-mail stays server-side.
 */
export async function publicBrokers(db: DbOrTx, site: SiteRow, q: z.infer<typeof PublicBrokersQuery>): Promise<z.infer<typeof PublicBrokersSchema>> {
  const ids = [
    ...new Set(
      q.ids
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
  if (!ids.length) throw invalid("ids: send at least one member id", "invalid_parameter");
  if (ids.length > MAX_PUBLIC_BROKER_IDS) throw invalid(`ids: at most ${MAX_PUBLIC_BROKER_IDS} ids per request (got ${ids.length})`, "invalid_parameter");
  const bad = ids.find((id) => !UUID_PATTERN.test(id));
  if (bad) throw invalid(`ids: '${bad.slice(0, 60)}' is not a UUID`, "invalid_parameter");
  const rows = await db
    .select()
    .from(members)
    .where(
      and(
        eq(members.tenantId, site.tenantId),
        eq(members.active, true),
        inArray(
          members.id,
          ids.map((id) => id.toLowerCase()),
        ),
      ),
    );
  const order = new Map(ids.map((id, i) => [id.toLowerCase(), i]));
  rows.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  return { brokers: rows.map((m) => ({ ...toBrokerCard(m), image: m.image })) };
}
