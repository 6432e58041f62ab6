import { and, count, desc, eq } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../db/client";
import { listings, properties, shareLinks, shareLinkViews, type ShareLinkRow } from "../../db/schema";
import { inTenantTransaction } from "../../db/transaction";
import type { MemberActor } from "../context/actor";
import type { MemberCtx } from "../context/verb-context";
import { conflict, invalid, notFound } from "../errors/domain-errors";
import { tenantListingsWhere } from "../listings/access";
import { PageQuery, pageSchema } from "../schemas/paging";
import { loadTenant } from "../tenants/load-tenant";
import { hashPassword, newCoordinateSeed, newShareToken } from "./secrets";
import { shareUrl } from "./share-url";
import type { SharingConfig } from "../tenants/sharing-config";
import { loadShortlist } from "./shortlists";
import { assertDealInTenant } from "./tenant-refs";
import { loadItinerary } from "./visit-itineraries";

export const SHARE_KINDS = ["listing", "shortlist", "seller_report", "visit_itinerary", "pricing_tool"] as const;
export type ShareKind = (typeof SHARE_KINDS)[number];

const Password = z.string().min(4, "must have at least 4 characters").max(200).meta({ description: "Stored as an scrypt hash; never returned." });
const FutureDate = z.iso
  .datetime({ offset: true })
  .transform((v) => new Date(v))
  .refine((d) => d.getTime() > Date.now(), "must be in the future")
  .meta({ description: "ISO 8601; the link answers 410 `expired` from this instant on." });

export const CreateShareLinkSchema = z
  .strictObject({
    entityType: z.enum(SHARE_KINDS),
    entityId: z.uuid().transform((v) => v.toLowerCase()),
    dealId: z.uuid().nullable().optional(),
    expiresAt: FutureDate.nullable().optional(),
    password: Password.nullable().optional(),
  })
  .meta({ id: "ShareLinkCreate" });

export const UpdateShareLinkSchema = z
  .strictObject({ expiresAt: FutureDate.nullable(), password: Password.nullable(), active: z.boolean() })
  .partial()
  .meta({ id: "ShareLinkUpdate" });

export const ShareLinkSchema = z
  .object({
    id: z.uuid(),
    token: z.string().meta({ description: "32 URL-safe characters (192 random bits)." }),
    url: z.string().meta({ description: "The address to send, per `sharingConfig.defaultShareDomain`." }),
    entityType: z.enum(SHARE_KINDS),
    entityId: z.uuid(),
    dealId: z.uuid().nullable(),
    createdById: z.uuid().nullable(),
    expiresAt: z.string().nullable(),
    hasPassword: z.boolean(),
    active: z.boolean(),
    viewCount: z.number().int(),
    lastViewedAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "ShareLink" });
export type ShareLink = z.infer<typeof ShareLinkSchema>;

export const ListShareLinksQuery = z.strictObject({
  ...PageQuery,
  entityType: z.enum(SHARE_KINDS).optional(),
  entityId: z.uuid().optional(),
  active: z
    .enum(["true", "false"])
    .transform((v) => v === "true")
    .optional(),
});

export const ShareViewSchema = z
  .object({
    id: z.uuid(),
    viewedAt: z.string(),
    clientHash: z.string().meta({ description: "Keyed hash of the client address: tells visitors apart without keeping the address." }),
    userAgent: z.string().nullable(),
    referrer: z.string().nullable(),
  })
  .meta({ id: "ShareLinkView" });

/** `listShareLinks`. */
export const ShareLinkPageSchema = pageSchema(ShareLinkSchema, "ShareLinkPage");

/** `listShareViews`. */
export const ShareViewPageSchema = pageSchema(ShareViewSchema, "ShareLinkViewPage");

export async function presentLink(db: DbOrTx, tenant: { id: string; slug: string }, cfg: SharingConfig, r: ShareLinkRow): Promise<ShareLink> {
  return {
    id: r.id,
    token: r.token,
    url: await shareUrl(db, tenant, cfg, r.token, r.entityType),
    entityType: r.entityType,
    entityId: r.entityId,
    dealId: r.dealId,
    createdById: r.createdById,
    expiresAt: r.expiresAt?.toISOString() ?? null,
    hasPassword: r.passwordHash !== null,
    active: r.active,
    viewCount: r.viewCount,
    lastViewedAt: r.lastViewedAt?.toISOString() ?? null,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

const visible = (actor: MemberActor) => (actor.access === "broad" ? undefined : eq(shareLinks.createdById, actor.userId));

async function loadLink({ db, actor }: MemberCtx, id: string): Promise<ShareLinkRow> {
  const [row] = await db
    .select()
    .from(shareLinks)
    .where(and(eq(shareLinks.id, id), eq(shareLinks.tenantId, actor.tenantId), visible(actor)))
    .limit(1);
  if (!row) throw notFound(`Share link ${id} not found.`);
  return row;
}

/**
 * The entity must exist in the caller's tenant and be readable by it. A listing (or a seller
 * report of one) in a stage or status the tenant's sharing rules exclude is a 409 naming the rule.
 * A private listing can be shared: share visibility, not listing visibility, governs the link.
 */
async function assertShareable(ctx: MemberCtx, cfg: SharingConfig, kind: ShareKind, entityId: string): Promise<void> {
  const { db, actor } = ctx;
  if (kind === "pricing_tool") {
    throw invalid("entityType: the pricing tool has one permanent link per tenant; read it (or rotate it) at /api/v1/settings/pricing-tool.");
  }
  if (kind === "shortlist") return void (await loadShortlist(ctx, entityId));
  if (kind === "visit_itinerary") return void (await loadItinerary(ctx, entityId));
  const [l] = await db
    .select({ id: listings.id, stage: listings.stage, status: listings.status, code: listings.listingCode })
    .from(listings)
    .innerJoin(properties, eq(properties.id, listings.propertyId))
    .where(and(tenantListingsWhere(actor), eq(listings.id, entityId)))
    .limit(1);
  if (!l) throw notFound(`Listing ${entityId} not found.`);
  const r = cfg.restrictions;
  if (r.preventCreationForStages.includes(l.stage)) {
    throw conflict(
      `restrictions.preventCreationForStages: listing ${l.code} is in stage '${l.stage}', for which the tenant's sharing rules prevent new links.`,
      "share_creation_prevented",
    );
  }
  if (l.status && r.preventCreationForStatuses.includes(l.status)) {
    throw conflict(
      `restrictions.preventCreationForStatuses: listing ${l.code} has status '${l.status}', for which the tenant's sharing rules prevent new links.`,
      "share_creation_prevented",
    );
  }
}

export async function createShareLink(ctx: MemberCtx, input: unknown): Promise<ShareLink> {
  const data = CreateShareLinkSchema.parse(input);
  const { actor } = ctx;
  // scrypt is slow on purpose: hash before the tenant lock is taken.
  const passwordHash = data.password ? await hashPassword(data.password) : null;
  return inTenantTransaction(ctx.db, actor.tenantId, async (tx) => {
    const tenant = await loadTenant(tx, actor.tenantId);
    const cfg = tenant.settings.sharingConfig;
    await assertShareable({ ...ctx, db: tx }, cfg, data.entityType, data.entityId);
    await assertDealInTenant(tx, actor.tenantId, data.dealId);
    const [row] = await tx
      .insert(shareLinks)
      .values({
        tenantId: actor.tenantId,
        token: newShareToken(),
        entityType: data.entityType,
        entityId: data.entityId,
        dealId: data.dealId ?? null,
        createdById: actor.userId,
        expiresAt: data.expiresAt ?? null,
        passwordHash,
        coordinateSeed: newCoordinateSeed(),
      })
      .returning();
    return presentLink(tx, tenant, cfg, row);
  });
}

export async function listShareLinks(ctx: MemberCtx, q: z.infer<typeof ListShareLinksQuery>): Promise<z.infer<typeof ShareLinkPageSchema>> {
  const { db, actor } = ctx;
  const where = and(
    eq(shareLinks.tenantId, actor.tenantId),
    visible(actor),
    q.entityType ? eq(shareLinks.entityType, q.entityType) : undefined,
    q.entityId ? eq(shareLinks.entityId, q.entityId.toLowerCase()) : undefined,
    q.active !== undefined ? eq(shareLinks.active, q.active) : undefined,
  );
  const [rows, [{ total }], tenant] = await Promise.all([
    db
      .select()
      .from(shareLinks)
      .where(where)
      .orderBy(desc(shareLinks.createdAt), desc(shareLinks.id))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    db.select({ total: count() }).from(shareLinks).where(where),
    loadTenant(db, actor.tenantId),
  ]);
  const items = await Promise.all(rows.map((r) => presentLink(db, tenant, tenant.settings.sharingConfig, r)));
  return { items, total, page: q.page, pageSize: q.pageSize };
}

export async function getShareLink(ctx: MemberCtx, id: string): Promise<ShareLink> {
  const row = await loadLink(ctx, id);
  const tenant = await loadTenant(ctx.db, ctx.actor.tenantId);
  return presentLink(ctx.db, tenant, tenant.settings.sharingConfig, row);
}

/** Expiry, password (null removes it) and `active`; a new password replaces the old at once. */
export async function updateShareLink(ctx: MemberCtx, { id, body }: { id: string; body: unknown }): Promise<ShareLink> {
  const data = UpdateShareLinkSchema.parse(body);
  if (Object.keys(data).length === 0) throw invalid("Send at least one of expiresAt, password, active.");
  const passwordHash = data.password ? await hashPassword(data.password) : data.password;
  return inTenantTransaction(ctx.db, ctx.actor.tenantId, async (tx) => {
    const current = await loadLink({ ...ctx, db: tx }, id);
    if (current.entityType === "pricing_tool" && data.active === false) {
      throw invalid("active: the pricing tool link is permanent; rotate it at /api/v1/settings/pricing-tool instead.");
    }
    // The tool is a public form for home owners and its helpers take no password: a protected
    // pricing link would only ever answer 401.
    if (current.entityType === "pricing_tool" && data.password) {
      throw invalid(
        "password: the pricing tool is a public page and cannot be protected; rotate its link at /api/v1/settings/pricing-tool to retire an address.",
      );
    }
    const [row] = await tx
      .update(shareLinks)
      .set({
        ...(data.expiresAt !== undefined ? { expiresAt: data.expiresAt } : {}),
        ...(passwordHash !== undefined ? { passwordHash } : {}),
        ...(data.active !== undefined ? { active: data.active } : {}),
        updatedAt: new Date(),
      })
      .where(and(eq(shareLinks.id, current.id), eq(shareLinks.tenantId, ctx.actor.tenantId)))
      .returning();
    const tenant = await loadTenant(tx, ctx.actor.tenantId);
    return presentLink(tx, tenant, tenant.settings.sharingConfig, row);
  });
}

/** DELETE deactivates: the link answers 404 from then on, and its access log is kept. */
export async function deactivateShareLink(ctx: MemberCtx, id: string): Promise<ShareLink> {
  return updateShareLink(ctx, { id, body: { active: false } });
}

export const ListViewsQuery = z.strictObject({ ...PageQuery });

export async function listShareViews(
  ctx: MemberCtx,
  { id, q }: { id: string; q: z.infer<typeof ListViewsQuery> },
): Promise<z.infer<typeof ShareViewPageSchema>> {
  const link = await loadLink(ctx, id);
  const where = and(eq(shareLinkViews.tenantId, ctx.actor.tenantId), eq(shareLinkViews.shareLinkId, link.id));
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select()
      .from(shareLinkViews)
      .where(where)
      .orderBy(desc(shareLinkViews.viewedAt), desc(shareLinkViews.id))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    ctx.db.select({ total: count() }).from(shareLinkViews).where(where),
  ]);
  return {
    items: rows.map((v) => ({ id: v.id, viewedAt: v.viewedAt.toISOString(), clientHash: v.clientHash, userAgent: v.userAgent, referrer: v.referrer })),
    total,
    page: q.page,
    pageSize: q.pageSize,
  };
}
