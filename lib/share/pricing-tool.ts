import { and, eq } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../db/client";
import { shareLinks, type ShareLinkRow } from "../../db/schema";
import { inTenantTransaction } from "../../db/transaction";
import type { MemberCtx } from "../context/verb-context";
import { loadTenant } from "../tenants/load-tenant";
import { pricingCities } from "./pricing-cities";
import { newCoordinateSeed, newShareToken } from "./secrets";
import { shareUrl } from "./share-url";

export const PricingToolSchema = z
  .object({
    token: z.string().meta({ description: "The tenant's permanent pricing-tool token (a `pricing_tool` share link)." }),
    url: z.string().meta({ description: "Where homeowners open the tool (`/c/{token}` on the tenant's share domain)." }),
    shareLinkId: z.uuid(),
    cities: z.array(z.object({ code: z.string(), label: z.string(), state: z.string().nullable() })),
    createdAt: z.string(),
  })
  .meta({ id: "PricingTool" });
export type PricingTool = z.infer<typeof PricingToolSchema>;

async function live(db: DbOrTx, tenantId: string): Promise<ShareLinkRow | undefined> {
  const [row] = await db
    .select()
    .from(shareLinks)
    .where(and(eq(shareLinks.tenantId, tenantId), eq(shareLinks.entityType, "pricing_tool"), eq(shareLinks.active, true)))
    .limit(1);
  return row;
}

async function issue(db: DbOrTx, tenantId: string, createdById: string | null): Promise<ShareLinkRow> {
  const [row] = await db
    .insert(shareLinks)
    .values({ tenantId, token: newShareToken(), entityType: "pricing_tool", entityId: tenantId, createdById, coordinateSeed: newCoordinateSeed() })
    .returning();
  return row;
}

async function present(db: DbOrTx, tenantId: string, row: ShareLinkRow): Promise<PricingTool> {
  const tenant = await loadTenant(db, tenantId);
  return {
    token: row.token,
    url: await shareUrl(db, tenant, tenant.settings.sharingConfig, row.token, "pricing_tool"),
    shareLinkId: row.id,
    cities: await pricingCities(db, tenantId),
    createdAt: row.createdAt.toISOString(),
  };
}

/** The tenant's pricing tool; the first read issues its token (one live token per tenant, by a unique index). */
export async function getPricingTool({ db, actor }: MemberCtx): Promise<PricingTool> {
  return ensurePricingTool(db, actor.tenantId, actor.userId);
}

/** The same for the seed and the CLIs, which act for a tenant without an API key. */
export async function ensurePricingTool(db: DbOrTx, tenantId: string, createdById: string | null): Promise<PricingTool> {
  const row =
    (await live(db, tenantId)) ?? (await inTenantTransaction(db, tenantId, async (tx) => (await live(tx, tenantId)) ?? issue(tx, tenantId, createdById)));
  return present(db, tenantId, row);
}

/** A new token; the old one answers 404 from the same commit on. */
export async function rotatePricingTool({ db, actor }: MemberCtx): Promise<PricingTool> {
  const row = await inTenantTransaction(db, actor.tenantId, async (tx) => {
    await tx
      .update(shareLinks)
      .set({ active: false, updatedAt: new Date() })
      .where(and(eq(shareLinks.tenantId, actor.tenantId), eq(shareLinks.entityType, "pricing_tool"), eq(shareLinks.active, true)));
    return issue(tx, actor.tenantId, actor.userId);
  });
  return present(db, actor.tenantId, row);
}
