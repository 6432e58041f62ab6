import { authenticateApiKey, readApiKey } from "../auth/authenticate-key";
import { noteLogContext } from "../log/log-context";
import { verifyOperator } from "../auth/operator-token";
import type { MemberActor } from "../context/actor";
import { requirePermission, type Permission } from "../context/permissions";
import { memberCtx, type MemberCtx } from "../context/verb-context";
import { run, type RouteCtx, type Segment } from "./run";

export type { RouteCtx } from "./run";
/** An `/api/v1` handler gets the verb context of the key's member (`ctx`) to pass to domain verbs. */
export type KeyCtx<P> = RouteCtx<P> & { actor: MemberActor; ctx: MemberCtx };

export { json } from "./run";

/**
 * An `/api/v1` route: the Bearer API key decides the tenant and the acting member. `permission`
 * is the endpoint's rule (`lib/context/permissions.ts`), checked before the handler runs; without
 * one any member may call it and the domain's row-level access applies.
 */
export function apiRoute<P = Record<string, never>>(
  handler: (c: KeyCtx<P>) => Promise<Response>,
  opts: { allowXApiKey?: boolean; permission?: Permission } = {},
) {
  return (req: Request, segment?: Segment<P>) =>
    run(req, segment, withPrivateHeaders, async (c) => {
      const actor = await authenticateApiKey(c.db, readApiKey(req.headers, opts.allowXApiKey));
      if (opts.permission) requirePermission(actor, opts.permission);
      noteLogContext({ tenantId: actor.tenantId });
      const log = c.log.child({ userId: actor.userId });
      return handler({ ...c, actor, ctx: memberCtx(c.db, actor), log });
    });
}

/** An `/api/admin` route for the operator of the installation. */
export function operatorRoute<P = Record<string, never>>(handler: (c: RouteCtx<P>) => Promise<Response>) {
  return (req: Request, segment?: Segment<P>) =>
    run(req, segment, withPrivateHeaders, async (c) => {
      verifyOperator(req.headers);
      return handler(c);
    });
}

/**
 * Every authenticated answer may carry personal data: no shared or browser cache keeps it. A 401
 * says how to authenticate (RFC 6750), so clients and tools know a Bearer key is expected; `realm`
 * names the surface (`api`, or `mcp` for the tool interface).
 */
export function privateHeaders(realm: string) {
  return (req: Request, res: Response): Response => {
    res.headers.set("cache-control", "no-store");
    if (res.status === 401 && !res.headers.has("www-authenticate")) {
      const sent = req.headers.has("authorization") || req.headers.has("x-api-key");
      res.headers.set("www-authenticate", sent ? `Bearer realm="${realm}", error="invalid_token"` : `Bearer realm="${realm}"`);
    }
    return res;
  };
}

const withPrivateHeaders = privateHeaders("api");
