/**
 * When this process last changed a tenant's search documents, so short-lived caches (such as
 * `out_of`) are dropped the moment the index changes here. Other processes' changes show within
 * the cache's few seconds.
 */
const changedAt = new Map<string, number>();
let version = 0;

export function markIndexChanged(tenantId: string): void {
  changedAt.set(tenantId, Date.now());
  version++;
}

/** Bumped by every change to any search document made by this process. */
export function indexVersion(): number {
  return version;
}

export function indexChangedSince(tenantId: string, since: number): boolean {
  return (changedAt.get(tenantId) ?? 0) >= since;
}
