import { siteFormPost } from "@/app/site-render/_site/form-post";
import { receiveSiteLead } from "@/lib/leads/inbound/site-lead";
import { logger } from "@/lib/log/logger";

/**
 * `POST /lead` on a site (an HTML form, so it works without JavaScript): the lead goes to the
 * site's marketing channel (lib/leads/inbound/site-lead.ts), then the visitor is sent back to
 * the page with `?lead=sent` (or `?lead=invalid` / `?lead=unavailable`, or `?lead=limited` past
 * 10 forms a minute from one address) and the form's anchor.
 */
export function POST(req: Request, ctx: { params: Promise<{ site: string; locale: string }> }) {
  return siteFormPost(req, ctx.params, {
    policy: "site_lead",
    param: "lead",
    anchor: "lead",
    fallback: "/",
    store: (site, form, { locale }) => receiveSiteLead(site.db, site.row, { ...form, locale }, { userAgent: req.headers.get("user-agent") }).then(() => {}),
    onUnavailable: (site, err) => logger().warn({ site: site.row.id, reason: err.message }, "site lead not accepted"),
  });
}
