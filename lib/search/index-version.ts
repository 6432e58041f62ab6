/**
 * When this process last changed a tenant's search documents, so short-lived caches (such as
 * `out_of`) are dropped the moment the index changes here. Other processes' changes show within
 * the cache's few seconds.
 */
const changedAt = new Map<string, number>();

export function markIndexChanged(tenantId: string): void {
  changedAt.set(tenantId, Date.now());
}

export function indexChangedSince(tenantId: string, since: number): boolean {
  return (changedAt.get(tenantId) ?? 0) >= since;
}
