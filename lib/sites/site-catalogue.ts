import type { DbOrTx } from "../../db/client";
import type { SiteRow } from "../../db/schema";
import { memberNetworkIds } from "../networks/networks";
import { anyOf, strExact } from "../search/ast-build";
import type { SearchScope } from "../search/engine";
import type { FilterNode } from "../search/filter";
import { loadTenant } from "../tenants/load-tenant";
import type { TenantSettings } from "../tenants/settings-schema";

/** What a site's visitors may see: the engine scope and the site's criteria, ANDed outside any caller filter. */
export type SiteCatalogue = { scope: SearchScope; criteria: FilterNode[] };

/**
 * The automatic filters of spec 2 §4: public listings in the tenant's active stage (the scope's
 * `publicOnly`), the site's listing criteria (property types, locations, market type), and other
 * tenants' network listings only when the site includes them. The caller's `filter_by` is
 * parsed separately and ANDed with these, so it can narrow the catalogue but never widen it.
 */
export async function siteCatalogue(db: DbOrTx, site: SiteRow, tenantSettings?: TenantSettings): Promise<SiteCatalogue> {
  // A caller that has just read the tenant (the saved-search matcher) passes its settings.
  const settings = tenantSettings ?? (await loadTenant(db, site.tenantId)).settings;
  const scope: SearchScope = {
    tenantId: site.tenantId,
    access: { kind: "all" },
    networkIds: site.includeNetworkListings ? await memberNetworkIds(db, site.tenantId) : [],
    publicOnly: { activeStage: settings.listingWorkflow.activeStageId },
  };
  return { scope, criteria: criteriaFilters(site.listingCriteria) };
}

export function criteriaFilters(c: SiteRow["listingCriteria"]): FilterNode[] {
  const out: FilterNode[] = [];
  if (c.propertyTypes.length) out.push(strExact("propertyType", c.propertyTypes));
  if (c.locations.length) {
    // A location names a state (UF), a city or a neighborhood; any of them matches.
    out.push(anyOf([strExact("location_state", c.locations), strExact("location_city", c.locations), strExact("location_neighborhood", c.locations)]));
  }
  if (c.marketType) out.push(strExact("marketType", [c.marketType]));
  return out;
}
