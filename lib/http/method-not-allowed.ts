import { requestIdFrom } from "./request-id";

/**
 * JSON answers for the methods a route file does not implement.
 *
 * Next.js answers a method a route file does not export with a 405 whose body is empty, and its
 * automatic OPTIONS lists every exported method in `Allow`. So a route file exports its real
 * handlers plus, on one line at its end, the handlers made here:
 *
 *   export const { POST, PUT, DELETE, OPTIONS } = otherMethods("GET", "PATCH");
 *
 * The type only offers the methods that are not in the list, so a real handler cannot be
 * shadowed by mistake. OPTIONS is always among them: it answers 204 with the `Allow` header of
 * the real methods (Next's own would list the 405 handlers too). HEAD is left to Next when GET is
 * supported (it runs GET without the body) and answers 405 otherwise.
 */

export const HTTP_METHODS = ["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];
/** The methods a route implements itself (OPTIONS only for the CORS preflight of public routes). */
export type RouteMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS";

type Handler = (req: Request) => Response;
type Others<A extends RouteMethod> = Exclude<HttpMethod, A | ("GET" extends A ? "HEAD" : never)>;

/** Handlers made here, so a test can tell them from a route's real ones. */
const generated = new WeakSet<Handler>();
export const isGeneratedHandler = (h: unknown): boolean => typeof h === "function" && generated.has(h as Handler);

/** The `Allow` value for a route that implements `methods` (HEAD comes with GET, OPTIONS always). */
export function allowHeader(methods: readonly RouteMethod[]): string {
  const all = new Set<string>([...methods, "OPTIONS"]);
  if (all.has("GET")) all.add("HEAD");
  return [...all].sort().join(", ");
}

export function otherMethods<const A extends RouteMethod[]>(...allowed: A): Record<Others<A[number]>, Handler> {
  const allow = allowHeader(allowed);
  const out: Partial<Record<HttpMethod, Handler>> = {};
  for (const method of HTTP_METHODS) {
    if ((allowed as readonly string[]).includes(method) || (method === "HEAD" && allowed.includes("GET"))) continue;
    const handler: Handler = method === "OPTIONS" ? (req) => options(req, allow) : (req) => methodNotAllowed(req, allow);
    generated.add(handler);
    out[method] = handler;
  }
  return out as Record<Others<A[number]>, Handler>;
}

function options(req: Request, allow: string): Response {
  return new Response(null, { status: 204, headers: { Allow: allow, "x-request-id": requestIdFrom(req.headers) } });
}

function methodNotAllowed(req: Request, allow: string): Response {
  const path = new URL(req.url).pathname;
  return Response.json(
    { error: { code: "method_not_allowed", message: `${req.method} is not supported on ${path}; use ${allow}.` } },
    { status: 405, headers: { Allow: allow, "Cache-Control": "no-store", "x-request-id": requestIdFrom(req.headers) } },
  );
}
