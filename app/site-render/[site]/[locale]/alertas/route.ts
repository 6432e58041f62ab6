import { siteFormPost } from "@/app/site-render/_site/form-post";
import { clientAddress } from "@/lib/http/client-address";
import { createSavedSearch } from "@/lib/saved-searches/create";
import { savedSearchFormBody } from "@/lib/saved-searches/form-body";

/**
 * `POST /alertas` on a site: the catalogue's "Avise-me" form (plain HTML, works without
 * JavaScript), the same verb as `POST /api/sites/{siteId}/saved-searches`. The visitor is sent
 * back to the catalogue with `?alerta=sent` (or `invalid`, `limited`) at the form.
 */
export function POST(req: Request, ctx: { params: Promise<{ site: string; locale: string }> }) {
  return siteFormPost(req, ctx.params, {
    policy: "saved_search",
    param: "alerta",
    anchor: "avise-me",
    fallback: "/imoveis",
    store: async (site, form, { landing, locale }) => {
      await createSavedSearch(site.db, site.row, savedSearchFormBody(form, locale), {
        via: "form",
        linkBase: `${site.origin}${site.base}`,
        page: `${site.origin}${site.base}${landing}`,
        clientAddress: clientAddress(req.headers),
        userAgent: req.headers.get("user-agent"),
      });
    },
  });
}
