import { getDb } from "@/db/client";
import { previewSession, sessionTokenOf, type PreviewSession } from "@/lib/auth/preview-sessions";
import { can } from "@/lib/context/permissions";
import { memberCtx } from "@/lib/context/verb-context";
import { DEFAULT_LOCALE, isLocale } from "@/lib/i18n/locales";
import { applyDraft, draftFromForm, parsePick, previewChoices } from "@/lib/share/share-preview";
import { loadTenant } from "@/lib/tenants/load-tenant";
import { getMemberInTenant } from "@/lib/tenants/members";
import { previewPage, SignedIn, SignIn, type SignedInView } from "@/app/preview/_preview/preview-page";

/**
 * `GET /preview/share`: the brokers' share preview. Signed out: the API key sign-in form.
 * Signed in: pick a listing, shortlist or itinerary, change draft branding and `fieldVisibility`
 * values (a GET form: works without JavaScript; `/share-preview.js` refreshes the preview as the
 * fields change), see the recipient's page in an iframe, and save the draft (owner or admin).
 * The markup is `app/preview/_preview/preview-page.tsx`.
 */
export async function GET(req: Request): Promise<Response> {
  const q = new URL(req.url).searchParams;
  const db = await getDb();
  const session = await previewSession(db, sessionTokenOf(req.headers));
  if (!session) return signIn(q);
  return signedIn(q, session);
}

function signIn(q: URLSearchParams): Promise<Response> {
  return previewPage("Share preview · sign in", <SignIn q={q} />, q.get("error") ? 401 : 200);
}

async function signedIn(q: URLSearchParams, s: PreviewSession): Promise<Response> {
  const db = await getDb();
  const ctx = memberCtx(db, s.actor);
  const [tenant, choices, me] = await Promise.all([
    loadTenant(db, s.actor.tenantId),
    previewChoices(ctx),
    getMemberInTenant(db, s.actor.tenantId, s.actor.userId),
  ]);
  const draft = draftFromForm(q);
  const { settings, errors } = applyDraft(tenant, draft);
  const pick = parsePick(q.get("pick")) ?? (choices[0] ? { kind: choices[0].kind, id: choices[0].id } : null);
  const pickValue = pick ? `${pick.kind}:${pick.id}` : "";
  const b = settings.branding;
  const fv = settings.sharingConfig.fieldVisibility as Record<string, string>;
  const requested = q.get("lang");
  const lang = isLocale(requested) ? requested : DEFAULT_LOCALE;
  const params = new URLSearchParams({
    pick: pickValue,
    name: b.name,
    logo: b.logo ?? "",
    color: b.primaryColor,
    lang,
    simulator: settings.sharingConfig.showFinancialSimulator ? "on" : "off",
  });
  for (const [k, v] of Object.entries(fv)) params.set(`fv_${k}`, v);
  const view: SignedInView = {
    who: `${me?.name ?? "Member"} · ${s.actor.role}, ${s.actor.access} access · ${tenant.name}`,
    csrf: s.csrf,
    admin: can(s.actor, "tenant.admin"),
    choices,
    pickValue: pick ? pickValue : "",
    lang,
    branding: b,
    fieldVisibility: fv,
    simulator: settings.sharingConfig.showFinancialSimulator,
    errors,
    params,
  };
  return previewPage("Share preview", <SignedIn q={q} v={view} />, 200, true);
}
