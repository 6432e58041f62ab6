/**
 * State that must exist once per process, whatever copy of a module asks for it.
 *
 * Next.js bundles the server code more than once (the proxy, each route's bundle, instrumentation)
 * and our own server loads `lib/` unbundled beside them, so a module-level `const` exists once per
 * copy. A database pool, a cache or a "database is down" flag kept that way would be split in
 * several, and an embedded database folder would be opened twice (which corrupts it). Such state
 * is kept on `globalThis` under one prefix, through this function only, so every use is found here
 * by name (`git grep processGlobal`).
 */
export function processGlobal<T>(name: string, init: () => T): T {
  const store = globalThis as unknown as Record<string, unknown>;
  const key = `__crm:${name}`;
  if (!(key in store)) store[key] = init();
  return store[key] as T;
}
