import { and, desc, eq } from "drizzle-orm";
import type { z } from "zod";
import { sites, type SiteRow } from "../../db/schema";
import { inTenantTransaction } from "../../db/transaction";
import type { MemberCtx } from "../context/verb-context";
import { notFound } from "../errors/domain-errors";
import type { DbOrTx } from "../../db/client";
import { loadTenant } from "../tenants/load-tenant";
import { claimDomain, storedDomain } from "./domain/domain-claim";
import { forgetSitesAfterCommit } from "./load-site";
import { CreateSiteSchema, UpdateSiteSchema } from "./site-schemas";
import { assertWebChatChannel } from "./site-chat";
import { serializeSite, type DeletedSiteSchema, type Site, type SiteListSchema } from "./serialize-site";

export async function listSites({ db, tenantId }: MemberCtx): Promise<z.infer<typeof SiteListSchema>> {
  const rows = await db.select().from(sites).where(eq(sites.tenantId, tenantId)).orderBy(desc(sites.createdAt), desc(sites.id));
  return { items: rows.map(serializeSite) };
}

export async function getSite({ db, tenantId }: MemberCtx, id: string): Promise<Site> {
  return serializeSite(await siteInTenant(db, tenantId, id));
}

/** A new site; its domain is held at once or waits for its DNS proof (lib/sites/domain/domain-claim.ts). */
export async function createSite(ctx: MemberCtx, input: unknown): Promise<Site> {
  const data = CreateSiteSchema.parse(input);
  return inTenantTransaction(ctx.db, ctx.tenantId, async (tx) => {
    if (data.chat) await assertWebChatChannel(tx, ctx.tenantId, data.chat.channelId, "chat.channelId");
    const claim = await claimDomain(tx, await loadTenant(tx, ctx.tenantId), storedDomain(data.domain));
    const [row] = await tx
      .insert(sites)
      .values({ ...data, ...claim, tenantId: ctx.tenantId })
      .returning();
    await forgetSitesAfterCommit(tx, [row]);
    return serializeSite(row);
  });
}

export async function updateSite(ctx: MemberCtx, { id, body }: { id: string; body: unknown }): Promise<Site> {
  const data = UpdateSiteSchema.parse(body);
  return inTenantTransaction(ctx.db, ctx.tenantId, async (tx) => {
    const current = await siteInTenant(tx, ctx.tenantId, id);
    if (data.chat) await assertWebChatChannel(tx, ctx.tenantId, data.chat.channelId, "chat.channelId");
    const { domain: raw, ...rest } = data;
    const domain = raw === undefined ? undefined : storedDomain(raw);
    // Another spelling of the same name changes nothing; a new name is claimed afresh.
    const claim = domain !== undefined && domain !== current.domain ? await claimDomain(tx, await loadTenant(tx, ctx.tenantId), domain, id) : {};
    if (!Object.keys(rest).length && !Object.keys(claim).length) return serializeSite(current);
    const [row] = await tx
      .update(sites)
      .set({ ...rest, ...claim, updatedAt: new Date() })
      .where(and(eq(sites.id, id), eq(sites.tenantId, ctx.tenantId)))
      .returning();
    await forgetSitesAfterCommit(tx, [current, row]);
    return serializeSite(row);
  });
}

export async function deleteSite(ctx: MemberCtx, id: string): Promise<z.infer<typeof DeletedSiteSchema>> {
  return inTenantTransaction(ctx.db, ctx.tenantId, async (tx) => {
    await forgetSitesAfterCommit(tx, [await siteInTenant(tx, ctx.tenantId, id)]);
    await tx.delete(sites).where(and(eq(sites.id, id), eq(sites.tenantId, ctx.tenantId)));
    return { id, deleted: true as const };
  });
}

export async function siteInTenant(db: DbOrTx, tenantId: string, id: string): Promise<SiteRow> {
  const [row] = await db
    .select()
    .from(sites)
    .where(and(eq(sites.id, id), eq(sites.tenantId, tenantId)))
    .limit(1);
  if (!row) throw notFound(`Site ${id} not found.`);
  return row;
}
