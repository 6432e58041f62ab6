import { and, desc, eq, ne } from "drizzle-orm";
import { sites, type SiteRow } from "../../db/schema";
import { afterCommit, inTenantTransaction } from "../../db/transaction";
import type { MemberCtx } from "../context/verb-context";
import { conflict, notFound } from "../errors/domain-errors";
import type { DbOrTx } from "../../db/client";
import { forgetSite } from "./load-site";
import { CreateSiteSchema, UpdateSiteSchema } from "./site-schemas";
import { serializeSite, type Site } from "./serialize-site";

export async function listSites({ db, tenantId }: MemberCtx): Promise<{ items: Site[] }> {
  const rows = await db.select().from(sites).where(eq(sites.tenantId, tenantId)).orderBy(desc(sites.createdAt), desc(sites.id));
  return { items: rows.map(serializeSite) };
}

export async function getSite({ db, tenantId }: MemberCtx, id: string): Promise<Site> {
  return serializeSite(await siteInTenant(db, tenantId, id));
}

export async function createSite(ctx: MemberCtx, input: unknown): Promise<Site> {
  const data = CreateSiteSchema.parse(input);
  return inTenantTransaction(ctx.db, ctx.tenantId, async (tx) => {
    await assertDomainFree(tx, data.domain);
    const [row] = await tx.insert(sites).values({ ...data, tenantId: ctx.tenantId }).returning();
    forgetAfterCommit(tx, row);
    return serializeSite(row);
  });
}

export async function updateSite(ctx: MemberCtx, { id, body }: { id: string; body: unknown }): Promise<Site> {
  const data = UpdateSiteSchema.parse(body);
  return inTenantTransaction(ctx.db, ctx.tenantId, async (tx) => {
    const current = await siteInTenant(tx, ctx.tenantId, id);
    if (data.domain && data.domain !== current.domain) await assertDomainFree(tx, data.domain, id);
    if (!Object.keys(data).length) return serializeSite(current);
    const [row] = await tx
      .update(sites)
      .set({ ...data, updatedAt: new Date() })
      .where(and(eq(sites.id, id), eq(sites.tenantId, ctx.tenantId)))
      .returning();
    forgetAfterCommit(tx, current);
    forgetAfterCommit(tx, row);
    return serializeSite(row);
  });
}

export async function deleteSite(ctx: MemberCtx, id: string): Promise<{ id: string; deleted: true }> {
  return inTenantTransaction(ctx.db, ctx.tenantId, async (tx) => {
    forgetAfterCommit(tx, await siteInTenant(tx, ctx.tenantId, id));
    await tx.delete(sites).where(and(eq(sites.id, id), eq(sites.tenantId, ctx.tenantId)));
    return { id, deleted: true as const };
  });
}

export async function siteInTenant(db: DbOrTx, tenantId: string, id: string): Promise<SiteRow> {
  const [row] = await db.select().from(sites).where(and(eq(sites.id, id), eq(sites.tenantId, tenantId))).limit(1);
  if (!row) throw notFound(`Site ${id} not found.`);
  return row;
}

/** Domains are unique across all tenants (a host serves one site); the unique index closes the race. */
async function assertDomainFree(db: DbOrTx, domain: string, exceptId?: string): Promise<void> {
  const [taken] = await db
    .select({ id: sites.id })
    .from(sites)
    .where(exceptId ? and(eq(sites.domain, domain), ne(sites.id, exceptId)) : eq(sites.domain, domain))
    .limit(1);
  if (taken) throw conflict(`domain: '${domain}' is already used by another site; choose another domain.`, "domain_taken");
}

/** Public reads cache sites for a few seconds: this process forgets a changed one once the change commits. */
function forgetAfterCommit(tx: DbOrTx, row: SiteRow): void {
  afterCommit(tx, "sites:forget", () => [] as SiteRow[], (rows) => rows.forEach(forgetSite)).push(row);
}
