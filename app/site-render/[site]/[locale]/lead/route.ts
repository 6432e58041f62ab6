import { findSiteView } from "@/app/site-render/_site/context";
import { DomainError } from "@/lib/errors/domain-errors";
import { clientAddress } from "@/lib/http/client-address";
import { translateDbError } from "@/lib/http/db-errors";
import { consumeRateLimit } from "@/lib/http/rate-limit";
import { receiveSiteLead } from "@/lib/leads/inbound/site-lead";
import { logger } from "@/lib/log/logger";
import { sitePathOr } from "@/lib/util/site-path";
import { ZodError } from "zod";

/**
 * `POST /lead` on a site (an HTML form, so it works without JavaScript): the lead goes to the
 * site's marketing channel (lib/leads/inbound/site-lead.ts), then the visitor is sent back to
 * the page with `?lead=sent` (or `?lead=invalid` / `?lead=unavailable`, or `?lead=limited` past
 * 10 forms a minute from one address) and the form's anchor.
 */
export async function POST(req: Request, ctx: { params: Promise<{ site: string; locale: string }> }) {
  const { site: siteSegment, locale } = await ctx.params;
  const site = await findSiteView(siteSegment, locale);
  if (!site) return new Response("Site not found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
  let form: Record<string, string> = {};
  try {
    const data = await req.formData();
    form = Object.fromEntries([...data.entries()].filter(([, v]) => typeof v === "string") as [string, string][]);
  } catch {
    return back(site.base, "/", "invalid");
  }
  const landing = sitePathOr(form.landingPage, "/");
  // The same per-address limiter as /api/sites: a form flood is turned back before it is stored.
  const limit = await consumeRateLimit(site.db, "site_lead", clientAddress(req.headers));
  if (limit && !limit.allowed) return back(site.base, landing, "limited");
  try {
    await receiveSiteLead(site.db, site.row, { ...form, locale }, { userAgent: req.headers.get("user-agent") });
    return back(site.base, landing, "sent");
  } catch (raw) {
    // Database refusals are named as the API names them (a value it cannot store: invalid; down: unavailable).
    const err = translateDbError(raw);
    if (err instanceof ZodError || (err instanceof DomainError && err.kind === "invalid")) return back(site.base, landing, "invalid");
    if (err instanceof DomainError && err.kind === "unavailable") {
      logger().warn({ site: site.row.id, reason: err.message }, "site lead not accepted");
      return back(site.base, landing, "unavailable");
    }
    throw err;
  }
}

/** 303 to the page the form was on (a path of the site, with its locale prefix), with the outcome. */
function back(base: string, landing: string, outcome: string): Response {
  const [path, query = ""] = landing.split("#")[0].split("?");
  const q = new URLSearchParams(query);
  q.set("lead", outcome);
  return new Response(null, { status: 303, headers: { location: `${base}${path}?${q.toString()}#lead`, "cache-control": "no-store" } });
}
