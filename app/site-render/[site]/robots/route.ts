import { findSiteView } from "@/app/site-render/_site/context";
import { robotsTxt } from "@/lib/sites/render/sitemap";

/** `/robots.txt`: the sitemap on a published site; a preview path is never indexed. */
export async function GET(_req: Request, ctx: { params: Promise<{ site: string }> }) {
  const { site: s } = await ctx.params;
  const site = await findSiteView(s, "pt-BR");
  const body = site ? robotsTxt(site.origin, { indexable: !site.preview }) : robotsTxt("", { indexable: false });
  return new Response(body, { headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "public, max-age=600" } });
}
