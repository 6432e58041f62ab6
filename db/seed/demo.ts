import { eq } from "drizzle-orm";
import { issueApiKey } from "../../lib/auth/api-keys";
import { memberCtx } from "../../lib/context/verb-context";
import { createProperty } from "../../lib/listings/properties";
import type { Db } from "../client";
import { tenants } from "../schema";
import { inTransaction } from "../transaction";
import { DEMO_BROKER_KEY_NAME, existingCredentials, writeDemoFile } from "./credentials";
import { createDevelopment } from "./development";
import { developmentPayloads } from "./development-listings";
import { makeHome } from "./home";
import { propertyPayload } from "./property-body";
import { createDemoDeals } from "./deals";
import { createDemoSite } from "./site";
import { createRng } from "./random";
import { createTeam, DEMO_SLUG } from "./team";
import { loadTenant } from "../../lib/tenants/load-tenant";

export type DemoCredentials = {
  tenantId: string;
  slug: string;
  apiKey: string;
  ownerId: string;
  brokers: { id: string; name: string; email: string }[];
  /** The first broker, with a restricted key: what a broker's integration sees. */
  broker: { id: string; name: string; email: string; apiKey: string };
  created: boolean;
};

export type DemoOptions = {
  log?: (msg: string) => void;
  /** Origin prefixed to the demo images; default none: root-relative paths served from `public/`. */
  assetBaseUrl?: string;
};

/** Resale properties; with the ~11% that also have a rental listing and the 3 launches, ~200 listings. */
const RESALE_PROPERTIES = 180;
const SEED = 20250601;

/**
 * Loads the demo agency once. Idempotent: if the `demo` tenant exists nothing is created and the
 * stored credentials are returned. Everything is written in one transaction, so a run that dies
 * half-way leaves no half-seeded tenant behind for the next run to mistake for a finished one.
 */
export { DEMO_SITE_DOMAIN } from "./site";

export async function loadDemoData(db: Db, opts: DemoOptions = {}): Promise<DemoCredentials> {
  const log = opts.log ?? (() => {});
  const assetBase = (opts.assetBaseUrl ?? "").replace(/\/$/, "");
  const [existing] = await db.select().from(tenants).where(eq(tenants.slug, DEMO_SLUG)).limit(1);
  if (existing) {
    log(`Demo tenant '${DEMO_SLUG}' already exists: nothing created.`);
    const { createdAt: _createdAt, ...stored } = await existingCredentials(db, await loadTenant(db, existing.id), log);
    return { ...stored, created: false };
  }

  const rng = createRng(SEED);
  const started = Date.now();
  // One transaction: the demo appears whole or not at all; its after-commit work runs once at the end.
  const result = await inTransaction(db, async (tx) => {
    const team = await createTeam(tx, assetBase);
    const brokers = team.members.filter((m) => m.role === "broker");
    log(`Tenant '${team.slug}' with ${team.members.length + 1} members.`);

    const dev = await createDevelopment(tx, team.actor.tenantId, assetBase, rng);
    const spBroker = brokers.find((b) => b.city === "São Paulo")!;
    for (const body of developmentPayloads(dev, spBroker.id, assetBase, rng)) await createProperty(memberCtx(tx, team.actor), body);
    log(`Development '${dev.building.name}': ${dev.typologies.length} typologies, ${dev.units} units.`);

    let listings = dev.typologies.length;
    const listingIds: string[] = [];
    for (let i = 0; i < RESALE_PROPERTIES; i++) {
      const body = propertyPayload(makeHome(rng), { rng, assetBase, brokers, index: i });
      const created = await createProperty(memberCtx(tx, team.actor), body);
      listings += created.listings.length;
      listingIds.push(...created.listings.map((l) => l.id));
      if ((i + 1) % 50 === 0 || i + 1 === RESALE_PROPERTIES) {
        log(`Properties: ${i + 1}/${RESALE_PROPERTIES} (${listings} listings, ${((Date.now() - started) / 1000).toFixed(1)} s).`);
      }
    }
    // Its own generator, so adding deals did not change the listings above.
    const deals = await createDemoDeals(tx, team.actor, brokers, listingIds, createRng(SEED + 1));
    log(`Deals: ${deals} over the funnel, with two marketing channels.`);
    // A published site with a Puck home page and a blog: rendered at http://demo.localhost:3000.
    const site = await createDemoSite(memberCtx(tx, team.actor), dev.building.id);
    log(`Site '${site.domain}', published, with a home page and a blog.`);
    const first = brokers[0];
    const brokerKey = await issueApiKey(tx, team.actor.tenantId, first.id, DEMO_BROKER_KEY_NAME, "restricted");
    return {
      tenantId: team.actor.tenantId,
      slug: team.slug,
      apiKey: team.apiKey,
      ownerId: team.actor.userId,
      brokers: brokers.map(({ id, name, email }) => ({ id, name, email })),
      broker: { id: first.id, name: first.name, email: first.email, apiKey: brokerKey.key },
    };
  });
  writeDemoFile({ ...result, createdAt: new Date().toISOString() });
  return { ...result, created: true };
}
