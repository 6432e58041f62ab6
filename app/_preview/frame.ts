import { getDb } from "@/db/client";
import { previewSession, sessionTokenOf } from "@/lib/auth/preview-sessions";
import { memberCtx } from "@/lib/context/verb-context";
import { applyDraft, draftFromForm, parsePick, previewAnswer } from "@/lib/share/share-preview";
import type { ShareAnswer } from "@/lib/share/share-page";
import { loadTenant } from "@/lib/tenants/load-tenant";
import { contactBar, type Agent, type ShareView } from "@/app/_share/components";
import { memberDoc, memberListingBody, shareBody } from "@/app/_share/pages";
import { escapeHtml } from "@/app/_share/html";
import { messageBody, NEUTRAL_BRANDING, shareDocument } from "@/app/_share/document";
import { isShareLocale, shareTranslator, type ShareLocale } from "@/app/_share/i18n";
import { localized, str } from "@/app/_site/format";

/**
 * `GET /preview/share/frame?pick=kind:id&…draft`: the share page a recipient would get for the
 * broker's pick, built by the share pages' own components from the same resolve answer, with the
 * draft branding and `sharingConfig` applied. Shown in the preview's iframe (same origin only).
 */
const HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "cache-control": "private, no-store",
  "x-robots-tag": "noindex, nofollow",
  "x-content-type-options": "nosniff",
  "content-security-policy": "default-src 'none'; img-src http: https: data:; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'self'",
};

/** The financing simulator's own fields (components.ts): never carried over from the query. */
const SIMULATOR_FIELDS = new Set(["entrada", "prazo", "juros"]);

/**
 * The frame, or with `listingId` one listing inside a shortlist or itinerary (the page a recipient
 * reaches from a card). Links within the frame keep the pick and the draft in their query.
 */
export async function framePage(req: Request, listingId: string | null): Promise<Response> {
  const url = new URL(req.url);
  const lang = url.searchParams.get("lang");
  const locale: ShareLocale = isShareLocale(lang) ? lang : "pt-BR";
  const t = shareTranslator(locale);
  const message = (status: number, title: string, text: string) =>
    new Response(shareDocument({ lang: locale, title, description: "", branding: NEUTRAL_BRANDING, t, body: messageBody(title, text) }).value, { status, headers: HEADERS });
  const db = await getDb();
  const session = await previewSession(db, sessionTokenOf(req.headers));
  if (!session) return message(401, "Signed out", "Sign in to the share preview with your API key.");
  const pick = parsePick(url.searchParams.get("pick"));
  if (!pick) return message(400, "Nothing picked", "Pick a listing, a shortlist or an itinerary to preview.");
  const ctx = memberCtx(db, session.actor);
  const { settings } = applyDraft(await loadTenant(db, session.actor.tenantId), draftFromForm(url.searchParams));
  const r = await previewAnswer(ctx, settings, pick.kind, pick.id);
  if (!r.ok && r.reason === "not_found") return message(404, "Not found", "This is not something your key may share.");
  if (!r.ok) return message(404, "Hidden by the sharing rules", "A recipient would get the 'link not found' page: the listing's stage hides its share links (sharingConfig.restrictions).");
  const answer = r.answer as unknown as ShareAnswer;
  // The simulator's own fields drive it as on the real page; the pick and the draft are not its query.
  const query = Object.fromEntries([...url.searchParams].filter(([k]) => SIMULATOR_FIELDS.has(k)));
  const view: ShareView = { answer, locale, t, base: "/preview/share/frame", simulator: answer.showFinancialSimulator, query };
  const e = answer.entity;
  const doc = (e.listing ?? {}) as Record<string, unknown>;
  const parentTitle =
    e.type === "listing" || e.type === "seller_report"
      ? localized(doc, "title", locale)
      : e.type === "shortlist"
        ? str((e.shortlist as Record<string, unknown> | undefined)?.name)
        : str((e.itinerary as Record<string, unknown> | undefined)?.name);
  // A listing opened inside a shortlist or itinerary is titled by itself, as on the real page.
  const member = listingId ? memberDoc(e, listingId) : null;
  const title = (member && localized(member, "title", locale)) || parentTitle;
  const agent = (e.agent as Agent | null | undefined) ?? null;
  const body = listingId ? memberListingBody(view, listingId) : shareBody(view);
  if (!body) return message(404, "Not found", "This listing is not part of what you picked (or the sharing rules hide it).");
  const page = shareDocument({ lang: locale, title: `${title} · ${answer.branding.name}`, description: "", branding: answer.branding, t, body, bar: contactBar(view, agent, title) });
  const keep = escapeHtml(url.searchParams.toString());
  // The simulator's GET form keeps them as hidden fields (a GET form drops its action's query).
  const hidden = [...url.searchParams].filter(([k]) => !SIMULATOR_FIELDS.has(k)).map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`).join("");
  const linked = page.value
    .replace(/href="(\/preview\/share\/frame(?:\/l\/[^"?#]+)?)"/g, `href="$1?${keep}"`)
    .replace(/(<form method="get" action="\/preview\/share\/frame[^"]*"[^>]*>)/g, `$1${hidden}`);
  return new Response(linked, { status: 200, headers: HEADERS });
}
