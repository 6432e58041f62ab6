import { and, eq, ne } from "drizzle-orm";
import { sites, type SiteRow } from "../../../db/schema";
import { inTenantTransaction } from "../../../db/transaction";
import type { MemberCtx } from "../../context/verb-context";
import { conflict, invalid } from "../../errors/domain-errors";
import { loadTenant } from "../../tenants/load-tenant";
import { forgetSitesAfterCommit } from "../load-site";
import { serializeSite, type Site } from "../serialize-site";
import { siteInTenant } from "../sites";
import { domainTaken, lockDomainName, verificationRecordName } from "./domain-claim";
import { domainKind, reservedReason } from "./domain-policy";
import { lookupTxt } from "./txt-lookup";

/**
 * `POST /api/v1/sites/{id}/domain/verify`: a custom domain starts serving once the TXT record
 * `_imobicrm.{domain}` holds the site's token. The first site to prove a name holds it; other
 * claims on the same name (pending, or held since before proofs existed and never proven) are
 * dropped (`taken`). Names under `localhost` and `SITES_BASE_DOMAIN` need no record: they are held
 * as soon as no other site holds them. Proven already: answered as is. The DNS question is asked
 * before the transaction, which stays short; the name's lock serializes it with other claims.
 */
export async function verifySiteDomain(ctx: MemberCtx, id: string): Promise<Site> {
  const site = await siteInTenant(ctx.db, ctx.tenantId, id);
  const custom = domainKind(site.domain) === "custom";
  if (proven(site, custom)) return serializeSite(site);
  const { slug } = await loadTenant(ctx.db, ctx.tenantId);
  const reason = reservedReason(site.domain, slug);
  if (reason) throw invalid(`domain: ${reason} Choose another domain.`, "domain_reserved");
  if (custom) await assertRecord(site);
  return inTenantTransaction(ctx.db, ctx.tenantId, async (tx) => {
    await lockDomainName(tx, site.domain);
    const current = await siteInTenant(tx, ctx.tenantId, id);
    if (current.domain !== site.domain || current.domainToken !== site.domainToken) {
      throw conflict("domain: the site's domain changed while it was being verified; verify again.", "domain_not_verified");
    }
    if (proven(current, custom)) return serializeSite(current);
    const holders = await tx
      .select()
      .from(sites)
      .where(and(eq(sites.domain, current.domain), eq(sites.domainStatus, "active"), ne(sites.id, id)));
    if (holders.some((h) => !custom || h.domainVerifiedAt)) throw domainTaken(current.domain);
    // Every other claim on the name (any tenant's) is dropped first: one name, one holder.
    const dropped = await tx
      .update(sites)
      .set({ domainStatus: "taken", updatedAt: new Date() })
      .where(and(eq(sites.domain, current.domain), ne(sites.id, id), ne(sites.domainStatus, "taken")))
      .returning();
    const [row] = await tx
      .update(sites)
      .set({ domainStatus: "active", domainVerifiedAt: custom ? new Date() : null, updatedAt: new Date() })
      .where(and(eq(sites.id, id), eq(sites.tenantId, ctx.tenantId)))
      .returning();
    await forgetSitesAfterCommit(tx, [current, ...dropped]);
    return serializeSite(row);
  });
}

/** Held for good: a custom domain once its record was found, any other name once held. */
const proven = (s: SiteRow, custom: boolean) => s.domainStatus === "active" && (!custom || s.domainVerifiedAt !== null);

async function assertRecord(site: SiteRow): Promise<void> {
  const name = verificationRecordName(site.domain);
  const found = await lookupTxt(name);
  if (site.domainToken && found.includes(site.domainToken)) return;
  const seen = found.length
    ? `found ${found
        .slice(0, 3)
        .map((v) => JSON.stringify(v.slice(0, 80)))
        .join(", ")}`
    : "found no TXT record";
  throw conflict(
    `domain: create a TXT record ${name} with the value ${site.domainToken} (the DNS ${seen}); changes can take a few minutes to appear.`,
    "domain_not_verified",
  );
}
