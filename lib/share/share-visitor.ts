import type { Db } from "../../db/client";
import type { ShareLinkRow } from "../../db/schema";
import type { VisitorActor } from "../context/actor";
import type { Ctx } from "../context/verb-context";
import { unauthorized } from "../errors/domain-errors";
import { loadTenant } from "../tenants/load-tenant";
import type { TenantRow } from "../tenants/tenant-row";
import { openLink, shareNotFound } from "./resolve-share";

/** An anonymous person opening a share link: the link and its tenant ride along with the actor. */
export type ShareVisitor = VisitorActor & { via: { shareLink: string }; link: ShareLinkRow; tenant: TenantRow };
/** Public reads run on the database itself, never inside a caller's transaction. */
export type ShareVisitorCtx = Ctx<ShareVisitor> & { db: Db };

function visitorCtx(db: Db, link: ShareLinkRow, tenant: TenantRow): ShareVisitorCtx {
  return { db, tenantId: tenant.id, actor: { kind: "visitor", tenantId: tenant.id, via: { shareLink: link.id }, link, tenant } };
}

/** The context of a visitor opening `token` (404 unknown or inactive, 410 expired). */
export async function shareVisitor(db: Db, token: string, now = new Date()): Promise<ShareVisitorCtx> {
  const link = await openLink(db, token, now);
  return visitorCtx(db, link, await loadTenant(db, link.tenantId));
}

/**
 * The context of a visitor of the pricing tool, checked like any share link; a token of another
 * kind is a 404 here, so a listing link cannot reach the tool's helpers. The helpers carry no
 * password: a protected pricing link is opened through the resolve first.
 */
export async function pricingVisitor(db: Db, token: string): Promise<ShareVisitorCtx> {
  const link = await openLink(db, token);
  if (link.entityType !== "pricing_tool") throw shareNotFound();
  if (link.passwordHash) throw unauthorized("Password required", "password_required");
  return visitorCtx(db, link, await loadTenant(db, link.tenantId));
}
