import { renderDocument } from "@/app/_ui/static-markup";
import { Message, ShareDocument } from "@/app/share-render/_share/document";
import { findSiteView, type SiteView } from "@/app/site-render/_site/context";
import { href } from "@/app/site-render/_site/links";
import { translator } from "@/lib/i18n/translator";
import { describeFilters } from "@/lib/saved-searches/describe";
import type { SavedFilters } from "@/lib/saved-searches/filters";
import { confirmSavedSearch, peekConfirmation, unsubscribeSavedSearch, type LinkOutcome } from "@/lib/saved-searches/links";
import { alertTexts } from "@/lib/saved-searches/texts";

type Params = { site: string; locale: string; action: string; token: string };
const ACTIONS = { confirmar: confirmSavedSearch, sair: unsubscribeSavedSearch } as const;

/**
 * The links of saved-search messages, on the site, in the visitor's language.
 * `/alertas/confirmar/{token}` (the double opt-in): a GET only shows the search and a "Confirm"
 * button, whose POST confirms. Mail scanners and link previews open links, and a link they open
 * must not give consent on the visitor's behalf.
 * `/alertas/sair/{token}` (unsubscribe): a GET takes effect at once, as the issue asks of the link
 * in every alert (a scanner can only withdraw consent, never give it); a POST is the one-click
 * unsubscribe of mail clients (RFC 8058, body `List-Unsubscribe=One-Click`) and answers 204.
 * The token is checked before any lookup, and only a search of this site's tenant is touched.
 */
async function handle(req: Request, ctx: { params: Promise<Params> }): Promise<Response> {
  const { site: siteSegment, locale, action, token } = await ctx.params;
  const site = await findSiteView(siteSegment, locale);
  if (!site || !Object.hasOwn(ACTIONS, action)) return new Response("Not found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
  if (action === "confirmar" && req.method === "GET") {
    const row = await peekConfirmation(site.db, token, site.row.tenantId);
    return page(site, "confirmar", row ? { row, changed: false } : null, row?.status === "pending");
  }
  const verb = ACTIONS[action as keyof typeof ACTIONS];
  const outcome = await verb(site.db, token, site.row.tenantId);
  if (req.method === "POST" && action === "sair") return new Response(null, { status: outcome ? 204 : 404, headers: { "cache-control": "no-store" } });
  return page(site, action as keyof typeof ACTIONS, outcome, false);
}

/** The link's page; `ask`: a pending search's confirmation, still to be given with the button. */
async function page(site: SiteView, action: keyof typeof ACTIONS, outcome: LinkOutcome, ask: boolean): Promise<Response> {
  const t = alertTexts(site.locale);
  const brand = site.config.configuration.siteConfiguration.brand;
  let title = t("invalidLinkTitle");
  let text = t("invalidLinkText");
  if (outcome && ask) {
    title = t("confirmPageTitle");
    text = t("confirmPageText", { filters: describeFilters(outcome.row.filters as SavedFilters, t) });
  } else if (outcome && action === "confirmar" && outcome.row.status === "active") {
    title = t("confirmedTitle");
    text = t("confirmedText", { filters: describeFilters(outcome.row.filters as SavedFilters, t) });
  } else if (outcome && (action === "sair" || outcome.row.status === "unsubscribed")) {
    title = t("unsubscribedTitle");
    text = t("unsubscribedText");
  }
  const html = await renderDocument(
    <ShareDocument
      lang={site.locale}
      title={`${title} | ${site.name}`}
      description=""
      branding={{ name: site.name, logo: brand.logoUrl ?? null, primaryColor: brand.primaryColor ?? "#1f6feb" }}
      t={translator(site.locale)}
    >
      <Message title={title} text={text} />
      {ask ? (
        // No action attribute: the form posts to this very address (the token's), with nothing else to send.
        <form method="post" style={{ textAlign: "center", marginTop: 24 }}>
          <button className="btn" type="submit">
            {t("confirmButton")}
          </button>
        </form>
      ) : (
        <p style={{ textAlign: "center", marginTop: 24 }}>
          <a className="btn secondary" href={href(site, "/imoveis")}>
            {t("backToCatalogue")}
          </a>
        </p>
      )}
    </ShareDocument>,
  );
  return new Response(html, {
    status: outcome ? 200 : 404,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "x-robots-tag": "noindex",
      "referrer-policy": "no-referrer",
      "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; img-src * data:; base-uri 'none'; form-action 'self'",
    },
  });
}

export const GET = handle;
export const POST = handle;
