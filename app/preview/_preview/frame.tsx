import type { ReactNode } from "react";
import { renderDocument } from "@/app/_ui/static-markup";
import { getDb } from "@/db/client";
import { previewSession, sessionTokenOf } from "@/lib/auth/preview-sessions";
import { memberCtx } from "@/lib/context/verb-context";
import { DEFAULT_LOCALE, isLocale, type Locale } from "@/lib/i18n/locales";
import { translator } from "@/lib/i18n/translator";
import { obj, str } from "@/lib/listings/view/doc-fields";
import { localized } from "@/lib/listings/view/localized-text";
import { applyDraft, draftFromForm, parsePick, previewAnswer } from "@/lib/share/share-preview";
import type { ShareAnswer, ShareBranding } from "@/lib/share/share-page";
import { loadTenant } from "@/lib/tenants/load-tenant";
import { Message, NEUTRAL_BRANDING, ShareDocument } from "@/app/share-render/_share/document";
import { ContactBar, listingTitle } from "@/app/share-render/_share/listing-view";
import { MemberListing, memberDoc, ShareBody } from "@/app/share-render/_share/share-body";
import { agentOf, type ShareView } from "@/app/share-render/_share/share-view";

/**
 * `GET /preview/share/frame?pick=kind:id&…draft`: the share page a recipient would get for the
 * broker's pick, rendered by the share pages' own components from the same resolve answer, with the
 * draft branding and `sharingConfig` applied. Shown in the preview's iframe (same origin only).
 */
const HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "cache-control": "private, no-store",
  "x-robots-tag": "noindex, nofollow",
  "x-content-type-options": "nosniff",
  "content-security-policy":
    "default-src 'none'; img-src http: https: data:; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'self'",
};

/** The financing simulator's own fields: never carried over from the query. */
const SIMULATOR_FIELDS = new Set(["entrada", "prazo", "juros"]);

async function answer(status: number, p: { lang: Locale; title: string; branding: ShareBranding; bar?: ReactNode; body: ReactNode }): Promise<Response> {
  const t = translator(p.lang);
  const html = await renderDocument(
    <ShareDocument lang={p.lang} title={p.title} description="" branding={p.branding} t={t} bar={p.bar}>
      {p.body}
    </ShareDocument>,
  );
  return new Response(html, { status, headers: HEADERS });
}

/**
 * The frame, or with `listingId` one listing inside a shortlist or itinerary (the page a recipient
 * reaches from a card). Links and forms within the frame keep the pick and the draft.
 */
export async function framePage(req: Request, listingId: string | null): Promise<Response> {
  const url = new URL(req.url);
  const lang = url.searchParams.get("lang");
  const locale: Locale = isLocale(lang) ? lang : DEFAULT_LOCALE;
  const t = translator(locale);
  const message = (status: number, title: string, text: string) =>
    answer(status, { lang: locale, title, branding: NEUTRAL_BRANDING, body: <Message title={title} text={text} /> });
  const db = await getDb();
  const session = await previewSession(db, sessionTokenOf(req.headers));
  if (!session) return message(401, "Signed out", "Sign in to the share preview with your API key.");
  const pick = parsePick(url.searchParams.get("pick"));
  if (!pick) return message(400, "Nothing picked", "Pick a listing, a shortlist or an itinerary to preview.");
  const ctx = memberCtx(db, session.actor);
  const { settings } = applyDraft(await loadTenant(db, session.actor.tenantId), draftFromForm(url.searchParams));
  const r = await previewAnswer(ctx, settings, pick.kind, pick.id);
  if (!r.ok && r.reason === "not_found") return message(404, "Not found", "This is not something your key may share.");
  if (!r.ok)
    return message(
      404,
      "Hidden by the sharing rules",
      "A recipient would get the 'link not found' page: the listing's stage hides its share links (sharingConfig.restrictions).",
    );
  const shared = r.answer as unknown as ShareAnswer;
  // The simulator's own fields drive it as on the real page; the pick and the draft are what every link keeps.
  const query = Object.fromEntries([...url.searchParams].filter(([k]) => SIMULATOR_FIELDS.has(k)));
  const keep = [...url.searchParams].filter(([k]) => !SIMULATOR_FIELDS.has(k));
  const view: ShareView = { answer: shared, locale, t, base: "/preview/share/frame", simulator: shared.showFinancialSimulator, query, keep };
  const e = shared.entity;
  const parentTitle =
    e.type === "listing" || e.type === "seller_report"
      ? localized(obj(e.listing), "title", locale)
      : e.type === "shortlist"
        ? str(obj(e.shortlist).name)
        : str(obj(e.itinerary).name);
  // A listing opened inside a shortlist or itinerary is titled by itself, as on the real page.
  const member = listingId ? memberDoc(e, listingId) : null;
  if (listingId && !member) return message(404, "Not found", "This listing is not part of what you picked (or the sharing rules hide it).");
  const title = (member && listingTitle(view, member)) || parentTitle;
  const body = listingId ? <MemberListing view={view} listingId={listingId} /> : <ShareBody view={view} />;
  return answer(200, {
    lang: locale,
    title: `${title} · ${shared.branding.name}`,
    branding: shared.branding,
    bar: <ContactBar t={t} agent={agentOf(e)} title={title} />,
    body,
  });
}
