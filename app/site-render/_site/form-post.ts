import { findSiteView, type SiteView } from "@/app/site-render/_site/context";
import { DomainError } from "@/lib/errors/domain-errors";
import { clientAddress } from "@/lib/http/client-address";
import { translateDbError } from "@/lib/http/db-errors";
import { consumeRateLimit } from "@/lib/http/rate-limit";
import type { SitePolicyName } from "@/lib/rate-limit/policies";
import { sitePathOr } from "@/lib/util/site-path";
import { ZodError } from "zod";

type FormPost = {
  /** The named per-address limit (a form flood is turned back before anything is stored). */
  policy: SitePolicyName;
  /** The query parameter and the anchor that carry the outcome back to the page (`?lead=sent#lead`). */
  param: string;
  anchor: string;
  /** Where to go back when the form names no page of the site. */
  fallback: string;
  /** Stores what the form says; throws a ZodError or DomainError `invalid` for bad input. */
  store: (site: SiteView, form: Record<string, string>, at: { landing: string; locale: string }) => Promise<void>;
  /** An `unavailable` refusal (the channel is off): logged by the caller's rule, answered `unavailable`. */
  onUnavailable?: (site: SiteView, err: DomainError) => void;
};

/**
 * A site's HTML form post (works without JavaScript): the site from the address, the form's
 * fields, the limit, the verb, then a 303 back to the page the form was on with the outcome
 * (`sent`, `invalid`, `limited`, `unavailable`) at the form's anchor.
 */
export async function siteFormPost(req: Request, params: Promise<{ site: string; locale: string }>, o: FormPost): Promise<Response> {
  const { site: siteSegment, locale } = await params;
  const site = await findSiteView(siteSegment, locale);
  if (!site) return new Response("Site not found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
  const back = (landing: string, outcome: string) => {
    const [path, query = ""] = landing.split("#")[0].split("?");
    const q = new URLSearchParams(query);
    q.set(o.param, outcome);
    return new Response(null, { status: 303, headers: { location: `${site.base}${path}?${q.toString()}#${o.anchor}`, "cache-control": "no-store" } });
  };
  let form: Record<string, string> = {};
  try {
    const data = await req.formData();
    form = Object.fromEntries([...data.entries()].filter(([, v]) => typeof v === "string") as [string, string][]);
  } catch {
    return back(o.fallback, "invalid");
  }
  const landing = sitePathOr(form.landingPage, o.fallback);
  const limit = await consumeRateLimit(site.db, o.policy, clientAddress(req.headers));
  if (limit && !limit.allowed) return back(landing, "limited");
  try {
    await o.store(site, form, { landing, locale });
    return back(landing, "sent");
  } catch (raw) {
    // Database refusals are named as the API names them (a value it cannot store: invalid; down: unavailable).
    const err = translateDbError(raw);
    if (err instanceof ZodError || (err instanceof DomainError && err.kind === "invalid")) return back(landing, "invalid");
    if (o.onUnavailable && err instanceof DomainError && err.kind === "unavailable") {
      o.onUnavailable(site, err);
      return back(landing, "unavailable");
    }
    throw err;
  }
}
