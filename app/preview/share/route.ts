import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { members } from "@/db/schema";
import { previewSession, sessionTokenOf, type PreviewSession } from "@/lib/auth/preview-sessions";
import { can } from "@/lib/context/permissions";
import { memberCtx } from "@/lib/context/verb-context";
import { applyDraft, draftFromForm, FIELD_VISIBILITY_OPTIONS, parsePick, previewChoices, type PreviewChoice } from "@/lib/share/share-preview";
import { loadTenant } from "@/lib/tenants/load-tenant";
import { html, raw, type Html } from "@/app/_share/html";

/**
 * `GET /preview/share`: the brokers' share preview. Signed out: the API key sign-in form.
 * Signed in: pick a listing, shortlist or itinerary, change draft branding and `fieldVisibility`
 * values (a GET form: works without JavaScript; `/share-preview.js` refreshes the preview as the
 * fields change), see the recipient's page in an iframe, and save the draft (owner or admin).
 */
const KIND_LABEL: Record<PreviewChoice["kind"], string> = { listing: "Listings", shortlist: "Shortlists", visit_itinerary: "Visit itineraries" };
const FV_LABEL: Record<string, string> = {
  address: "Address", coordinates: "Map point", financials: "Condo fee and property tax", price: "Price", listingCode: "Listing code", agentInfo: "Broker's card",
};
const OPTION_LABEL: Record<string, string> = {
  full: "full address", neighborhood_only: "neighbourhood only", city_only: "city only", hidden: "hidden", exact: "exact", approximate: "approximate (about 500 m)",
  visible: "shown", inherit: "as each listing says",
};
const NOTICES: Record<string, string> = {
  invalid_key: "That API key is unknown, revoked, or belongs to an inactive member.",
  signed_out: "You are signed out.",
  saved: "Saved: new links, and links already sent, now show these settings.",
};

const CSS = raw(`body{font-family:system-ui,sans-serif;margin:0;color:#1b1f24;background:#f4f6f9}main{max-width:1200px;margin:0 auto;padding:20px 16px 48px}
h1{margin:0 0 8px;font-size:1.6rem}.bar{display:flex;gap:12px;align-items:center;flex-wrap:wrap;margin:0 0 16px}.grid{display:grid;gap:20px;grid-template-columns:minmax(0,1fr)}
@media(min-width:960px){.grid{grid-template-columns:380px minmax(0,1fr)}}.panel{background:#fff;border:1px solid #d5dbe1;border-radius:10px;padding:16px}
label{display:block;font-weight:600;margin:10px 0 4px}input,select{font:inherit;padding:8px 10px;border:1px solid #6b7785;border-radius:6px;width:100%;box-sizing:border-box;min-height:44px;background:#fff}
input[type=color]{padding:2px;width:72px}fieldset{border:1px solid #d5dbe1;border-radius:8px;margin:12px 0;padding:4px 12px 12px}legend{font-weight:700;padding:0 4px}
button{font:inherit;font-weight:700;border:0;border-radius:8px;padding:10px 18px;min-height:44px;cursor:pointer;background:#0b5cad;color:#fff}button.secondary{background:#fff;color:#0b5cad;border:1px solid #0b5cad}
.notice{border-left:4px solid #0b5cad;background:#fff;padding:10px 14px;border-radius:6px}.err{border-left-color:#b3261e}.muted{color:#4f5b6b;font-size:.9rem}
.frame{background:#fff;border:1px solid #d5dbe1;border-radius:10px;padding:12px;display:flex;flex-direction:column;align-items:center;gap:8px}iframe{width:390px;max-width:100%;height:780px;border:1px solid #c3ccd5;border-radius:18px;background:#fff}
a{color:#0b5cad}:focus-visible{outline:3px solid #0b5cad;outline-offset:2px}`);

function page(title: string, body: Html, status = 200, script = false): Response {
  const doc = html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title><meta name="robots" content="noindex"><style>${CSS}</style></head>
<body><main>${body}</main>${script ? html`<script src="/share-preview.js" defer></script>` : null}</body></html>`;
  return new Response(doc.value, { status, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "private, no-store", "x-frame-options": "DENY", "referrer-policy": "same-origin",
    "content-security-policy": "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; script-src 'self'; frame-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'" } });
}

const notice = (q: URLSearchParams) => {
  const key = q.get("error") ?? (q.get("saved") ? "saved" : q.get("signed_out") ? "signed_out" : null);
  return key && NOTICES[key] ? html`<p class="notice${key === "invalid_key" ? " err" : ""}" role="${key === "invalid_key" ? "alert" : "status"}">${NOTICES[key]}</p>` : null;
};

export async function GET(req: Request): Promise<Response> {
  const q = new URL(req.url).searchParams;
  const db = await getDb();
  const session = await previewSession(db, sessionTokenOf(req.headers));
  if (!session) return signIn(q);
  return signedIn(q, session);
}

function signIn(q: URLSearchParams): Response {
  return page(
    "Share preview · sign in",
    html`<h1>Share preview</h1><p>See a share link exactly as your client will, before you send it. Sign in once with your API key: it is exchanged for a session cookie and not kept in the browser.</p>${notice(q)}
<form class="panel" method="post" action="/preview/share/session" style="max-width:520px"><label for="apiKey">API key</label><input id="apiKey" name="apiKey" type="password" autocomplete="off" required spellcheck="false" aria-describedby="key-hint">
<p class="muted" id="key-hint">A key starting with <code>crm_</code> (npm run demo prints the demo agency's).</p><button type="submit">Sign in</button></form>`,
    q.get("error") ? 401 : 200,
  );
}

async function signedIn(q: URLSearchParams, s: PreviewSession): Promise<Response> {
  const db = await getDb();
  const ctx = memberCtx(db, s.actor);
  const [tenant, choices, [me]] = await Promise.all([
    loadTenant(db, s.actor.tenantId),
    previewChoices(ctx),
    db.select({ name: members.name }).from(members).where(eq(members.id, s.actor.userId)).limit(1),
  ]);
  const draft = draftFromForm(q);
  const { settings, errors } = applyDraft(tenant, draft);
  const pick = parsePick(q.get("pick")) ?? (choices[0] ? { kind: choices[0].kind, id: choices[0].id } : null);
  const pickValue = pick ? `${pick.kind}:${pick.id}` : "";
  const b = settings.branding;
  const fv = settings.sharingConfig.fieldVisibility as Record<string, string>;
  const lang = ["en", "es"].includes(q.get("lang") ?? "") ? q.get("lang")! : "pt-BR";
  const params = new URLSearchParams({ pick: pickValue, name: b.name, logo: b.logo ?? "", color: b.primaryColor, lang, simulator: settings.sharingConfig.showFinancialSimulator ? "on" : "off" });
  for (const [k, v] of Object.entries(fv)) params.set(`fv_${k}`, v);
  const admin = can(s.actor, "tenant.admin");
  const kinds = (["listing", "shortlist", "visit_itinerary"] as const).filter((k) => choices.some((c) => c.kind === k));
  const select = (name: string, label: string, value: string, options: readonly string[], text: (o: string) => string) =>
    html`<label for="f-${name}">${label}</label><select id="f-${name}" name="${name}">${options.map((o) => html`<option value="${o}"${raw(o === value ? " selected" : "")}>${text(o)}</option>`)}</select>`;
  const hiddenDraft = [...params].filter(([k]) => k !== "lang").map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`);
  const body = html`<div class="bar"><h1 style="margin-right:auto">Share preview</h1><span class="muted">${me?.name ?? "Member"} · ${s.actor.role}, ${s.actor.access} access · ${tenant.name}</span>
<form method="post" action="/preview/share/sign-out"><input type="hidden" name="csrf" value="${s.csrf}"><button class="secondary" type="submit">Sign out</button></form></div>
${notice(q)}${errors.length ? html`<div class="notice err" role="alert"><strong>The draft is not valid; the saved values are shown:</strong><ul>${errors.map((e) => html`<li>${e}</li>`)}</ul></div>` : null}
<div class="grid"><div>
<form id="draft" class="panel" method="get" action="/preview/share">
${
    choices.length
      ? html`<label for="f-pick">What to preview</label><select id="f-pick" name="pick">${kinds.map(
          (k) => html`<optgroup label="${KIND_LABEL[k]}">${choices.filter((c) => c.kind === k).map((c) => html`<option value="${c.kind}:${c.id}"${raw(`${c.kind}:${c.id}` === pickValue ? " selected" : "")}>${c.label}</option>`)}</optgroup>`,
        )}</select>`
      : html`<p>Your key has no listing, shortlist or itinerary to share yet.</p>`
  }
${select("lang", "Recipient's language", lang, ["pt-BR", "en", "es"], (o) => ({ "pt-BR": "Português", en: "English", es: "Español" })[o] ?? o)}
<fieldset><legend>Branding (draft)</legend><label for="f-name">Name</label><input id="f-name" name="name" value="${b.name}" maxlength="120">
<label for="f-logo">Logo URL</label><input id="f-logo" name="logo" type="url" value="${b.logo ?? ""}" placeholder="https://… or /logo.png">
<label for="f-color">Primary colour</label><input id="f-color" name="color" type="color" value="${b.primaryColor}"></fieldset>
<fieldset><legend>What links show (draft)</legend>${Object.entries(FIELD_VISIBILITY_OPTIONS).map(([k, opts]) => select(`fv_${k}`, FV_LABEL[k] ?? k, fv[k], opts, (o) => OPTION_LABEL[o] ?? o))}
${select("simulator", "Financing simulator (sale listings)", settings.sharingConfig.showFinancialSimulator ? "on" : "off", ["on", "off"], (o) => (o === "on" ? "shown" : "hidden"))}</fieldset>
<button type="submit">Update preview</button></form>
<form id="save" class="panel" method="post" action="/preview/share/save" style="margin-top:16px"><input type="hidden" name="csrf" value="${s.csrf}">${hiddenDraft}
<p class="muted" style="margin-top:0">${admin ? "Saving changes the tenant's branding and sharing configuration for every link." : "Only an owner's or an admin's key can save; you can still try the draft here."}</p><button type="submit">Save these settings</button></form>
</div>
<section class="frame" aria-labelledby="pv-title"><h2 id="pv-title" style="margin:0;font-size:1.1rem">What the recipient sees</h2>
${pick ? html`<iframe id="preview" title="Preview of the share page as the recipient sees it" src="/preview/share/frame?${params.toString()}"></iframe><a id="preview-link" href="/preview/share/frame?${params.toString()}" target="_blank" rel="noopener">Open the preview in its own tab</a>` : html`<p>Nothing to preview.</p>`}
</section></div>`;
  return page("Share preview", body, 200, true);
}
