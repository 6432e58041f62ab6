import type { ReactNode } from "react";
import { renderDocument } from "@/app/_ui/static-markup";
import { LOCALES, LOCALE_NAMES } from "@/lib/i18n/locales";
import { FIELD_VISIBILITY_OPTIONS, type PreviewChoice } from "@/lib/share/share-preview";

/**
 * The brokers' share preview (`/preview/share`), signed out (the API key form) and signed in (the
 * picker, the draft form, the recipient's page in an iframe, save). Plain forms: the page works
 * without JavaScript; `/share-preview.js` only refreshes the iframe as the draft changes.
 */
const KIND_LABEL: Record<PreviewChoice["kind"], string> = { listing: "Listings", shortlist: "Shortlists", visit_itinerary: "Visit itineraries" };
const FV_LABEL: Record<string, string> = {
  address: "Address",
  coordinates: "Map point",
  financials: "Condo fee and property tax",
  price: "Price",
  listingCode: "Listing code",
  agentInfo: "Broker's card",
};
const OPTION_LABEL: Record<string, string> = {
  full: "full address",
  neighborhood_only: "neighbourhood only",
  city_only: "city only",
  hidden: "hidden",
  exact: "exact",
  approximate: "approximate (about 500 m)",
  visible: "shown",
  inherit: "as each listing says",
};
const NOTICES: Record<string, string> = {
  invalid_key: "That API key is unknown, revoked, or belongs to an inactive member.",
  signed_out: "You are signed out.",
  saved: "Saved: new links, and links already sent, now show these settings.",
};

const CSS = `body{font-family:system-ui,sans-serif;margin:0;color:#1b1f24;background:#f4f6f9}main{max-width:1200px;margin:0 auto;padding:20px 16px 48px}
h1{margin:0 0 8px;font-size:1.6rem}.bar{display:flex;gap:12px;align-items:center;flex-wrap:wrap;margin:0 0 16px}.bar h1{margin-right:auto}.grid{display:grid;gap:20px;grid-template-columns:minmax(0,1fr)}
@media(min-width:960px){.grid{grid-template-columns:380px minmax(0,1fr)}}.panel{background:#fff;border:1px solid #d5dbe1;border-radius:10px;padding:16px}.panel+.panel{margin-top:16px}.narrow{max-width:520px}
label{display:block;font-weight:600;margin:10px 0 4px}input,select{font:inherit;padding:8px 10px;border:1px solid #6b7785;border-radius:6px;width:100%;box-sizing:border-box;min-height:44px;background:#fff}
input[type=color]{padding:2px;width:72px}fieldset{border:1px solid #d5dbe1;border-radius:8px;margin:12px 0;padding:4px 12px 12px}legend{font-weight:700;padding:0 4px}
button{font:inherit;font-weight:700;border:0;border-radius:8px;padding:10px 18px;min-height:44px;cursor:pointer;background:#0b5cad;color:#fff}button.secondary{background:#fff;color:#0b5cad;border:1px solid #0b5cad}
.notice{border-left:4px solid #0b5cad;background:#fff;padding:10px 14px;border-radius:6px}.err{border-left-color:#b3261e}.muted{color:#4f5b6b;font-size:.9rem}.flush{margin-top:0}
.frame{background:#fff;border:1px solid #d5dbe1;border-radius:10px;padding:12px;display:flex;flex-direction:column;align-items:center;gap:8px}.frame h2{margin:0;font-size:1.1rem}iframe{width:390px;max-width:100%;height:780px;border:1px solid #c3ccd5;border-radius:18px;background:#fff}
a{color:#0b5cad}:focus-visible{outline:3px solid #0b5cad;outline-offset:2px}`;

/** A preview page with its status and the preview's headers (never framed, no referrer off-site). */
export async function previewPage(title: string, body: ReactNode, status = 200, script = false): Promise<Response> {
  const html = await renderDocument(
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title}</title>
        <meta name="robots" content="noindex" />
        <style dangerouslySetInnerHTML={{ __html: CSS }} />
      </head>
      <body>
        <main>{body}</main>
        {script && <script src="/share-preview.js" defer />}
      </body>
    </html>,
  );
  return new Response(html, {
    status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "private, no-store",
      "x-frame-options": "DENY",
      "referrer-policy": "same-origin",
      "content-security-policy":
        "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; script-src 'self'; frame-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
    },
  });
}

/** What the last action says (`?error=`, `?saved=`, `?signed_out=`), if anything. */
export function Notice({ q }: { q: URLSearchParams }) {
  const key = q.get("error") ?? (q.get("saved") ? "saved" : q.get("signed_out") ? "signed_out" : null);
  if (!key || !NOTICES[key]) return null;
  return (
    <p className={`notice${key === "invalid_key" ? " err" : ""}`} role={key === "invalid_key" ? "alert" : "status"}>
      {NOTICES[key]}
    </p>
  );
}

export function SignIn({ q }: { q: URLSearchParams }) {
  return (
    <>
      <h1>Share preview</h1>
      <p>
        See a share link exactly as your client will, before you send it. Sign in once with your API key: it is exchanged for a session cookie and not kept in
        the browser.
      </p>
      <Notice q={q} />
      <form className="panel narrow" method="post" action="/preview/share/session">
        <label htmlFor="apiKey">API key</label>
        <input id="apiKey" name="apiKey" type="password" autoComplete="off" required spellCheck={false} aria-describedby="key-hint" />
        <p className="muted" id="key-hint">
          A key starting with <code>crm_</code> (npm run demo prints the demo agency&apos;s).
        </p>
        <button type="submit">Sign in</button>
      </form>
    </>
  );
}

function Select({
  name,
  label,
  value,
  options,
  text,
}: {
  name: string;
  label: string;
  value: string;
  options: readonly string[];
  text: (o: string) => string;
}) {
  return (
    <>
      <label htmlFor={`f-${name}`}>{label}</label>
      <select id={`f-${name}`} name={name} defaultValue={value}>
        {options.map((o) => (
          <option key={o} value={o}>
            {text(o)}
          </option>
        ))}
      </select>
    </>
  );
}

export type SignedInView = {
  who: string;
  csrf: string;
  admin: boolean;
  choices: PreviewChoice[];
  pickValue: string;
  lang: string;
  branding: { name: string; logo: string | null; primaryColor: string };
  fieldVisibility: Record<string, string>;
  simulator: boolean;
  errors: string[];
  /** The frame's query: the pick and the draft. */
  params: URLSearchParams;
};

/** Signed in: who, sign out, the picker and the draft form, save, and the recipient's page in an iframe. */
export function SignedIn({ q, v }: { q: URLSearchParams; v: SignedInView }) {
  const kinds = (["listing", "shortlist", "visit_itinerary"] as const).filter((k) => v.choices.some((c) => c.kind === k));
  const frameSrc = `/preview/share/frame?${v.params.toString()}`;
  return (
    <>
      <div className="bar">
        <h1>Share preview</h1>
        <span className="muted">{v.who}</span>
        <form method="post" action="/preview/share/sign-out">
          <input type="hidden" name="csrf" value={v.csrf} />
          <button className="secondary" type="submit">
            Sign out
          </button>
        </form>
      </div>
      <Notice q={q} />
      {v.errors.length > 0 && (
        <div className="notice err" role="alert">
          <strong>The draft is not valid; the saved values are shown:</strong>
          <ul>
            {v.errors.map((e) => (
              <li key={e}>{e}</li>
            ))}
          </ul>
        </div>
      )}
      <div className="grid">
        <div>
          <form id="draft" className="panel" method="get" action="/preview/share">
            {v.choices.length ? (
              <>
                <label htmlFor="f-pick">What to preview</label>
                <select id="f-pick" name="pick" defaultValue={v.pickValue}>
                  {kinds.map((k) => (
                    <optgroup key={k} label={KIND_LABEL[k]}>
                      {v.choices
                        .filter((c) => c.kind === k)
                        .map((c) => (
                          <option key={`${c.kind}:${c.id}`} value={`${c.kind}:${c.id}`}>
                            {c.label}
                          </option>
                        ))}
                    </optgroup>
                  ))}
                </select>
              </>
            ) : (
              <p>Your key has no listing, shortlist or itinerary to share yet.</p>
            )}
            <Select name="lang" label="Recipient's language" value={v.lang} options={LOCALES} text={(o) => LOCALE_NAMES[o as keyof typeof LOCALE_NAMES] ?? o} />
            <fieldset>
              <legend>Branding (draft)</legend>
              <label htmlFor="f-name">Name</label>
              <input id="f-name" name="name" defaultValue={v.branding.name} maxLength={120} />
              <label htmlFor="f-logo">Logo URL</label>
              <input id="f-logo" name="logo" type="url" defaultValue={v.branding.logo ?? ""} placeholder="https://… or /logo.png" />
              <label htmlFor="f-color">Primary colour</label>
              <input id="f-color" name="color" type="color" defaultValue={v.branding.primaryColor} />
            </fieldset>
            <fieldset>
              <legend>What links show (draft)</legend>
              {Object.entries(FIELD_VISIBILITY_OPTIONS).map(([k, opts]) => (
                <Select key={k} name={`fv_${k}`} label={FV_LABEL[k] ?? k} value={v.fieldVisibility[k]} options={opts} text={(o) => OPTION_LABEL[o] ?? o} />
              ))}
              <Select
                name="simulator"
                label="Financing simulator (sale listings)"
                value={v.simulator ? "on" : "off"}
                options={["on", "off"]}
                text={(o) => (o === "on" ? "shown" : "hidden")}
              />
            </fieldset>
            <button type="submit">Update preview</button>
          </form>
          <form id="save" className="panel" method="post" action="/preview/share/save">
            <input type="hidden" name="csrf" value={v.csrf} />
            {[...v.params]
              .filter(([k]) => k !== "lang")
              .map(([k, val]) => (
                <input key={k} type="hidden" name={k} value={val} />
              ))}
            <p className="muted flush">
              {v.admin
                ? "Saving changes the tenant's branding and sharing configuration for every link."
                : "Only an owner's or an admin's key can save; you can still try the draft here."}
            </p>
            <button type="submit">Save these settings</button>
          </form>
        </div>
        <section className="frame" aria-labelledby="pv-title">
          <h2 id="pv-title">What the recipient sees</h2>
          {v.pickValue ? (
            <>
              <iframe id="preview" title="Preview of the share page as the recipient sees it" src={frameSrc}></iframe>
              <a id="preview-link" href={frameSrc} target="_blank" rel="noopener">
                Open the preview in its own tab
              </a>
            </>
          ) : (
            <p>Nothing to preview.</p>
          )}
        </section>
      </div>
    </>
  );
}
