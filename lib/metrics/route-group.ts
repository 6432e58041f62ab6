/**
 * The route group of a request path, the only form a path takes in a metric label: a fixed set,
 * so tenant hosts, ids and tokens in paths never become series of their own.
 */
const API_GROUPS: Record<string, string> = {
  v1: "api_v1",
  sites: "api_sites",
  webhooks: "webhooks",
  admin: "admin",
  health: "health",
  mcp: "mcp",
  inngest: "inngest",
  docs: "docs",
  metrics: "metrics",
};

export function routeGroup(url: string | undefined): string {
  const path = (url ?? "/").split("?", 1)[0];
  const api = /^\/api\/([^/]+)/.exec(path);
  if (api) return API_GROUPS[api[1]] ?? "api_other";
  if (path === "/api" || path === "/api/") return "api_other";
  if (path.startsWith("/_media/")) return "media";
  if (path.startsWith("/_next/")) return "static";
  // Share pages `/p/{token}` (optionally under a locale) and the pricing tool `/c/{token}`.
  if (/^\/(?:(?:en|es|pt-BR)\/)?[pc]\/[^/]+/.test(path)) return "share_pages";
  // Everything else is a page: a site's (on its host), a preview, the service's own.
  return "site_pages";
}
