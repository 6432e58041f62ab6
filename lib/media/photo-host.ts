import { eq } from "drizzle-orm";
import { LRUCache } from "lru-cache";
import { getDb } from "../../db/client";
import { tenants } from "../../db/schema";
import { shareHostKind } from "../share/share-host";
import { isServiceHost, serviceHostSet } from "../sites/render/host-routing";
import { processGlobal } from "../util/process-global";

/** Whether a host serves a tenant changes when a site or domain does: a minute is how long a removed domain may still show photos. */
const REMEMBER_MS = 60_000;

const serviceHosts = () => processGlobal("media-service-hosts", () => serviceHostSet(process.env.SERVICE_HOSTS));
const answers = () => processGlobal("media-host-tenant", () => new LRUCache<string, boolean>({ max: 20_000, ttl: REMEMBER_MS }));

/**
 * Whether a photo a page of `tenantId` wrote may be served on `host`: on the service's own hosts
 * (share links and previews of every tenant open there), on the tenant's share subdomain and on
 * its active sites' domains; never on another tenant's site. The same rule as the share pages
 * (`shareHostKind`), remembered a minute per host and tenant so a cached variant stays a memory
 * lookup.
 */
export async function hostServesTenantPhotos(host: string | undefined, tenantId: string): Promise<boolean> {
  if (isServiceHost(host ?? "", serviceHosts())) return true;
  const key = `${host}|${tenantId}`;
  const known = answers().get(key);
  if (known !== undefined) return known;
  const db = await getDb();
  const [tenant] = await db.select({ id: tenants.id, slug: tenants.slug }).from(tenants).where(eq(tenants.id, tenantId)).limit(1);
  const ok = tenant ? (await shareHostKind(db, host ?? null, tenant, serviceHosts())) !== null : false;
  answers().set(key, ok);
  return ok;
}

export function forgetPhotoHostsForTests(): void {
  answers().clear();
}
