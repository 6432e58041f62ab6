import { candidateColumns, type SavedFilters } from "../../lib/saved-searches/filters";
import type { TestTenant } from "./factories";

/**
 * The row of a saved search as a confirmed visitor's (active, e-mail, instant, consent given now),
 * with its index columns derived from its filters, for tests that insert searches directly.
 * `over` replaces any field (frequency, status, times, e-mail…).
 */
export function savedSearchRow(t: TestTenant, site: { id: string; domain: string }, filters: SavedFilters, over: Record<string, unknown> = {}) {
  return {
    tenantId: t.tenantId,
    siteId: site.id,
    status: "active" as const,
    channel: "email" as const,
    frequency: "instant" as const,
    filters,
    email: "buscador@cliente.test",
    linkBase: `http://${site.domain}`,
    consentAt: new Date(),
    consentSource: { via: "test" },
    confirmedAt: new Date(),
    ...candidateColumns(filters),
    ...over,
  };
}
