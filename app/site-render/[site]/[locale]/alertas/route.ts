import { findSiteView } from "@/app/site-render/_site/context";
import { DomainError } from "@/lib/errors/domain-errors";
import { clientAddress } from "@/lib/http/client-address";
import { translateDbError } from "@/lib/http/db-errors";
import { consumeRateLimit } from "@/lib/http/rate-limit";
import { createSavedSearch } from "@/lib/saved-searches/create";
import { savedSearchFormBody } from "@/lib/saved-searches/form-body";
import { sitePathOr } from "@/lib/util/site-path";
import { ZodError } from "zod";

/**
 * `POST /alertas` on a site: the catalogue's "Avise-me" form (plain HTML, works without
 * JavaScript), the same verb as `POST /api/sites/{siteId}/saved-searches`. The visitor is sent
 * back to the catalogue with `?alerta=sent` (or `invalid`, `limited`, `unavailable`) at the form.
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
    return back(site.base, "/imoveis", "invalid");
  }
  const landing = sitePathOr(form.landingPage, "/imoveis");
  const limit = await consumeRateLimit(site.db, "saved_search", clientAddress(req.headers));
  if (limit && !limit.allowed) return back(site.base, landing, "limited");
  try {
    await createSavedSearch(site.db, site.row, savedSearchFormBody(form, locale), {
      via: "form",
      linkBase: `${site.origin}${site.base}`,
      page: `${site.origin}${site.base}${landing}`,
      clientAddress: clientAddress(req.headers),
      userAgent: req.headers.get("user-agent"),
    });
    return back(site.base, landing, "sent");
  } catch (raw) {
    const err = translateDbError(raw);
    if (err instanceof ZodError || (err instanceof DomainError && err.kind === "invalid")) return back(site.base, landing, "invalid");
    throw err;
  }
}

/** 303 to the catalogue page the form was on, with the outcome at the form's anchor. */
function back(base: string, landing: string, outcome: string): Response {
  const [path, query = ""] = landing.split("#")[0].split("?");
  const q = new URLSearchParams(query);
  q.set("alerta", outcome);
  return new Response(null, { status: 303, headers: { location: `${base}${path}?${q.toString()}#avise-me`, "cache-control": "no-store" } });
}
