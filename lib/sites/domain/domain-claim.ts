import { randomBytes } from "node:crypto";
import { and, eq, ne, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client";
import { sites, type DomainStatus } from "../../../db/schema";
import { conflict, invalid } from "../../errors/domain-errors";
import { parseDomain } from "./domain-name";
import { domainKind, reservedReason } from "./domain-policy";

export type DomainClaim = { domain: string; domainStatus: DomainStatus; domainToken: string | null; domainVerifiedAt: Date | null };

/** The TXT record that proves a custom domain: its name, and the value the site expects there. */
export const verificationRecordName = (domain: string) => `_imobicrm.${domain}`;
const newToken = () => `imobicrm-verify=${randomBytes(18).toString("base64url")}`;

/** The stored form of a domain a client sent (the schema has already checked it parses). */
export function storedDomain(raw: string): string {
  const p = parseDomain(raw);
  if (!p.ok) throw invalid(`domain: ${p.reason}`);
  return p.domain;
}

export const domainTaken = (domain: string) => conflict(`domain: '${domain}' is already used by another site; choose another domain.`, "domain_taken");

/**
 * What a site stores when it asks for a name: held at once under `localhost` and
 * `SITES_BASE_DOMAIN`, pending a DNS proof elsewhere. Refused with 400 `domain_reserved` for names
 * no site may take, and with 409 `domain_taken` when another site holds the name, or another site
 * of the same tenant already claims it. A pending claim of another tenant blocks nothing: both
 * wait, and the first to prove the name holds it (`verifySiteDomain`). Neither does a custom domain
 * held since before proofs existed (migration 0035) and never proven: its owner can prove it (and
 * keep it), or another tenant can, and then the proven claim takes it over. The partial unique
 * index on held names backs the name lock below.
 */
export async function claimDomain(tx: DbOrTx, tenant: { id: string; slug: string }, domain: string, siteId?: string): Promise<DomainClaim> {
  const reason = reservedReason(domain, tenant.slug);
  if (reason) throw invalid(`domain: ${reason}`, "domain_reserved");
  await lockDomainName(tx, domain);
  const custom = domainKind(domain) === "custom";
  const others = await tx
    .select({ tenantId: sites.tenantId, status: sites.domainStatus, verifiedAt: sites.domainVerifiedAt })
    .from(sites)
    .where(siteId ? and(eq(sites.domain, domain), ne(sites.id, siteId)) : eq(sites.domain, domain));
  if (others.some((o) => (o.status === "active" && (!custom || o.verifiedAt)) || (o.tenantId === tenant.id && o.status !== "taken"))) throw domainTaken(domain);
  if (!custom) return { domain, domainStatus: "active", domainToken: null, domainVerifiedAt: null };
  return { domain, domainStatus: "pending", domainToken: newToken(), domainVerifiedAt: null };
}

/**
 * Claims and proofs of one name run one at a time (a transaction-scoped advisory lock on the
 * name): two verifications of the same name at once would otherwise each wait on the other's row
 * and index entry, and a claim made while a proof commits would survive it as `pending`.
 */
export async function lockDomainName(tx: DbOrTx, domain: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`site-domain:${domain}`}))`);
}
