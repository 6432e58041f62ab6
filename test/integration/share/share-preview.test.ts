/**
 * The brokers' share preview (issue #16) through its route handlers with real requests on a real
 * database: the API key exchanged for a session cookie (flags, hashed row), same-origin and CSRF
 * checks on every form post, draft branding and fieldVisibility applied to the recipient's page,
 * saving for owners and admins only (403 page otherwise), a restricted key limited to what its
 * broker may share, sign-out and key revocation ending the session, and another tenant seeing nothing.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as main from "../../../app/preview/share/route";
import * as frame from "../../../app/preview/share/frame/route";
import * as frameListing from "../../../app/preview/share/frame/l/[listingId]/route";
import * as save from "../../../app/preview/share/save/route";
import * as session from "../../../app/preview/share/session/route";
import * as signOut from "../../../app/preview/share/sign-out/route";
import * as shortlistsRoute from "../../../app/api/v1/crm/shortlists/route";
import * as keysRoute from "../../../app/api/v1/settings/api-keys/[id]/route";
import { getDb } from "../../../db/client";
import { apiKeys, previewSessions } from "../../../db/schema";
import { hashApiKey } from "../../../lib/auth/api-key-secret";
import { csrfToken } from "../../../lib/auth/preview-sessions";
import { loadTenant } from "../../../lib/tenants/load-tenant";
import { makeMember, makeTenant, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { makeListing } from "../../helpers/share";

const ORIGIN = "http://localhost:3000";
type R = { status: number; headers: Headers; html: string };

async function send(
  handler: (req: Request) => Promise<Response>,
  path: string,
  o: { cookie?: string; form?: Record<string, string>; origin?: string | null } = {},
): Promise<R> {
  const headers: Record<string, string> = { host: "localhost:3000" };
  if (o.cookie) headers.cookie = `crm_preview=${o.cookie}`;
  if (o.form && o.origin !== null) headers.origin = o.origin ?? ORIGIN;
  if (o.form) headers["content-type"] = "application/x-www-form-urlencoded";
  const res = await handler(
    new Request(`${ORIGIN}${path}`, { method: o.form ? "POST" : "GET", headers, body: o.form ? new URLSearchParams(o.form).toString() : undefined }),
  );
  return { status: res.status, headers: res.headers, html: await res.text() };
}

/** Signs in with a key; returns the session token from the cookie. */
async function signIn(key: string): Promise<string> {
  const r = await send(session.POST, "/preview/share/session", { form: { apiKey: key } });
  expect(r.status).toBe(303);
  const token = /crm_preview=([^;]+)/.exec(r.headers.get("set-cookie") ?? "")?.[1];
  expect(token).toBeTruthy();
  return token!;
}

let a: TestTenant;
let b: TestTenant;
let broker: { userId: string; key: string };
let publicListing: { id: string };
let privateOfColleague: { id: string };
let brokersOwn: { id: string };
let ownerShortlist: string;
let bListing: { id: string };

beforeAll(async () => {
  a = await makeTenant("Imobiliária Prévia A");
  b = await makeTenant("Imobiliária Prévia B");
  broker = await makeMember(a, "broker", "restricted");
  publicListing = await makeListing(
    a,
    { title: "Cobertura pública", price: "2500000.00" },
    { totalArea: "180.00", condominiumFee: "3100.00" },
    { number: "777" },
  );
  privateOfColleague = await makeListing(a, { title: "Casa privada da colega", visibility: "private" });
  brokersOwn = await makeListing(a, { title: "Apartamento do corretor", visibility: "private" }, { assignedToId: broker.userId });
  ownerShortlist = (await call(shortlistsRoute.POST, "POST", "/x", { key: a.key, body: { name: "Seleção da dona", listingIds: [publicListing.id] } })).body.id;
  bListing = await makeListing(b, { title: "Imóvel da outra imobiliária" });
});

describe("session exchange", () => {
  it("trades a key for an HttpOnly, SameSite=Lax cookie on /preview; only the token's hash is stored", async () => {
    const r = await send(session.POST, "/preview/share/session", { form: { apiKey: a.key } });
    expect(r.status).toBe(303);
    expect(r.headers.get("location")).toBe("/preview/share");
    const cookie = r.headers.get("set-cookie")!;
    expect(cookie).toMatch(/^crm_preview=[A-Za-z0-9_-]{43}; Max-Age=43200; Path=\/preview; HttpOnly; SameSite=Lax$/);
    const token = /crm_preview=([^;]+)/.exec(cookie)![1];
    const rows = await (await getDb()).select().from(previewSessions).where(eq(previewSessions.tenantId, a.tenantId));
    expect(rows.some((x) => x.tokenHash === token)).toBe(false);
    expect(rows.some((x) => x.tokenHash === hashApiKey(token))).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(a.key);
  });

  it("is Secure in production", async () => {
    const env = process.env as Record<string, string | undefined>;
    const before = env.NODE_ENV;
    env.NODE_ENV = "production";
    try {
      const r = await send(session.POST, "/preview/share/session", { form: { apiKey: a.key } });
      expect(r.headers.get("set-cookie")).toMatch(/; HttpOnly; SameSite=Lax; Secure$/);
    } finally {
      env.NODE_ENV = before;
    }
  });

  it("refuses a wrong key (no cookie) and a sign-in posted from another site (403)", async () => {
    const wrong = await send(session.POST, "/preview/share/session", { form: { apiKey: "crm_nope" } });
    expect(wrong.status).toBe(303);
    expect(wrong.headers.get("location")).toBe("/preview/share?error=invalid_key");
    expect(wrong.headers.get("set-cookie")).toBeNull();
    const page = await send(main.GET, "/preview/share?error=invalid_key");
    expect(page.status).toBe(401);
    expect(page.html).toContain("That API key is unknown, revoked");
    const cross = await send(session.POST, "/preview/share/session", { form: { apiKey: a.key }, origin: "https://evil.example" });
    expect(cross.status).toBe(403);
    expect(cross.headers.get("set-cookie")).toBeNull();
    const none = await send(session.POST, "/preview/share/session", { form: { apiKey: a.key }, origin: null });
    expect(none.status).toBe(403);
  });

  it("without a session the page is the sign-in form; with one, the picker, the draft form and the preview", async () => {
    const out = await send(main.GET, "/preview/share");
    expect(out.html).toMatch(/<form(?=[^>]* method="post")(?=[^>]* action="\/preview\/share\/session")[^>]*>/);
    expect(out.html).toMatch(/<input(?=[^>]* name="apiKey")(?=[^>]* type="password")[^>]*>/);
    const token = await signIn(a.key);
    const r = await send(main.GET, "/preview/share", { cookie: token });
    expect(r.status).toBe(200);
    expect(r.headers.get("x-frame-options")).toBe("DENY");
    expect(r.html).toContain("Cobertura pública");
    expect(r.html).toContain("Casa privada da colega");
    expect(r.html).toContain("Seleção da dona");
    expect(r.html).not.toContain("Imóvel da outra imobiliária");
    expect(r.html).toContain(`name="csrf" value="${csrfToken(token)}"`);
    expect(r.html).toContain('<iframe id="preview"');
  });
});

describe("the recipient's page with draft values", () => {
  it("renders the share page's own components; each fieldVisibility draft changes what is shown", async () => {
    const token = await signIn(a.key);
    const pick = `listing:${publicListing.id}`;
    const shown = await send(frame.GET, `/preview/share/frame?pick=${pick}&fv_financials=visible&fv_price=inherit&name=Nome+Rascunho&color=%23aa0000`, {
      cookie: token,
    });
    expect(shown.status).toBe(200);
    expect(shown.headers.get("content-security-policy")).toContain("frame-ancestors 'self'");
    expect(shown.html).toContain("Cobertura pública");
    expect(shown.html).toContain("Nome Rascunho");
    expect(shown.html).toContain("--brand:#aa0000");
    expect(shown.html).toMatch(/2\.500\.000/);
    expect(shown.html).toMatch(/3\.100/);
    // The financing simulator's form keeps the pick and the draft (hidden fields), not its own old inputs.
    expect(shown.html).toMatch(
      new RegExp(`<form(?=[^>]* action="/preview/share/frame#simulador")[^>]*><input type="hidden" name="pick" value="listing:${publicListing.id}"/?>`),
    );
    // The simulator answers its own inputs in the preview as on the real page.
    const simulated = await send(frame.GET, `/preview/share/frame?pick=${pick}&fv_financials=visible&entrada=1000000&prazo=20&juros=9.5`, { cookie: token });
    expect(simulated.html).toMatch(/<input(?=[^>]* name="entrada")(?=[^>]* value="1000000")[^>]*>/);
    expect(simulated.html).toMatch(/<input(?=[^>]* name="prazo")(?=[^>]* value="20")[^>]*>/);
    expect(simulated.html).not.toContain('<input type="hidden" name="entrada"');
    const hidden = await send(frame.GET, `/preview/share/frame?pick=${pick}&fv_financials=hidden&fv_price=hidden&fv_address=city_only`, { cookie: token });
    expect(hidden.html).not.toMatch(/2\.500\.000/);
    expect(hidden.html).not.toMatch(/3\.100/);
    expect(hidden.html).not.toMatch(/\b777\b/); // the street number as a number of its own, not digits of an id or a hash
    // The draft is not saved by previewing.
    expect((await loadTenant(await getDb(), a.tenantId)).settings.sharingConfig.fieldVisibility.price).toBe("inherit");
    const sl = await send(frame.GET, `/preview/share/frame?pick=shortlist:${ownerShortlist}`, { cookie: token });
    expect(sl.html).toContain("Seleção da dona");
    // A card opens the listing inside the preview, keeping the pick and the draft.
    expect(sl.html).toContain(`href="/preview/share/frame/l/${publicListing.id}?pick=shortlist%3A${ownerShortlist}"`);
    const inside = await frameListing.GET(
      new Request(`${ORIGIN}/preview/share/frame/l/${publicListing.id}?pick=shortlist%3A${ownerShortlist}&fv_price=hidden`, {
        headers: { cookie: `crm_preview=${token}` },
      }),
      { params: Promise.resolve({ listingId: publicListing.id }) },
    );
    expect(inside.status).toBe(200);
    const insideHtml = await inside.text();
    expect(insideHtml).toContain("Cobertura pública");
    // Titled by the listing opened, not by the shortlist around it.
    expect(insideHtml).toMatch(/<title>Cobertura pública[^<]* · /);
    expect(insideHtml).not.toMatch(/2\.500\.000/);
    expect(insideHtml).toContain(`href="/preview/share/frame?pick=shortlist%3A${ownerShortlist}&amp;fv_price=hidden"`);
  });

  it("an invalid draft shows the saved values with the reasons", async () => {
    const token = await signIn(a.key);
    const r = await send(main.GET, `/preview/share?pick=listing:${publicListing.id}&color=notacolour&fv_address=everything`, { cookie: token });
    expect(r.html).toContain("The draft is not valid");
    expect(r.html).toContain("branding.primaryColor");
  });

  it("a restricted key picks only what its broker may share; a colleague's private listing is a 404", async () => {
    const token = await signIn(broker.key);
    const r = await send(main.GET, "/preview/share", { cookie: token });
    expect(r.html).toContain("Cobertura pública");
    expect(r.html).toContain("Apartamento do corretor");
    expect(r.html).not.toContain("Casa privada da colega");
    expect(r.html).not.toContain("Seleção da dona");
    expect((await send(frame.GET, `/preview/share/frame?pick=listing:${privateOfColleague.id}`, { cookie: token })).status).toBe(404);
    expect((await send(frame.GET, `/preview/share/frame?pick=shortlist:${ownerShortlist}`, { cookie: token })).status).toBe(404);
    expect((await send(frame.GET, `/preview/share/frame?pick=listing:${brokersOwn.id}`, { cookie: token })).status).toBe(200);
  });

  it("another tenant's key sees nothing of this tenant", async () => {
    const token = await signIn(b.key);
    const r = await send(main.GET, "/preview/share", { cookie: token });
    expect(r.html).toContain("Imóvel da outra imobiliária");
    expect(r.html).not.toContain("Cobertura pública");
    expect((await send(frame.GET, `/preview/share/frame?pick=listing:${publicListing.id}`, { cookie: token })).status).toBe(404);
    expect((await send(frame.GET, `/preview/share/frame?pick=listing:${bListing.id}`, { cookie: token })).status).toBe(200);
  });
});

describe("saving", () => {
  const draft = {
    pick: "",
    name: "Casa Salva",
    logo: "",
    color: "#114477",
    fv_address: "city_only",
    fv_coordinates: "hidden",
    fv_financials: "hidden",
    fv_price: "inherit",
    fv_listingCode: "hidden",
    fv_agentInfo: "visible",
    simulator: "off",
  };

  it("needs the session's CSRF token and a same-origin post (403 otherwise), and a live session (401)", async () => {
    const token = await signIn(a.key);
    expect((await send(save.POST, "/preview/share/save", { cookie: token, form: draft })).status).toBe(403);
    expect((await send(save.POST, "/preview/share/save", { cookie: token, form: { ...draft, csrf: csrfToken("someone-else") } })).status).toBe(403);
    expect(
      (await send(save.POST, "/preview/share/save", { cookie: token, form: { ...draft, csrf: csrfToken(token) }, origin: "https://evil.example" })).status,
    ).toBe(403);
    expect((await send(save.POST, "/preview/share/save", { form: { ...draft, csrf: csrfToken(token) } })).status).toBe(401);
    expect((await loadTenant(await getDb(), a.tenantId)).settings.branding.name).not.toBe("Casa Salva");
  });

  it("a broker gets a 403 page saying who can save; nothing changes", async () => {
    const token = await signIn(broker.key);
    const r = await send(save.POST, "/preview/share/save", { cookie: token, form: { ...draft, csrf: csrfToken(token) } });
    expect(r.status).toBe(403);
    expect(r.html).toContain("Not allowed to save");
    expect(r.html).toMatch(/needs an owner(&#39;|&#x27;)s or an admin(&#39;|&#x27;)s broad API key/);
    expect((await loadTenant(await getDb(), a.tenantId)).settings.branding.name).not.toBe("Casa Salva");
  });

  it("the owner saves branding and fieldVisibility through the settings verb", async () => {
    const token = await signIn(a.key);
    const r = await send(save.POST, "/preview/share/save", { cookie: token, form: { ...draft, pick: `listing:${publicListing.id}`, csrf: csrfToken(token) } });
    expect(r.status).toBe(303);
    expect(r.headers.get("location")).toBe(`/preview/share?pick=listing%3A${publicListing.id}&saved=1`);
    const s = (await loadTenant(await getDb(), a.tenantId)).settings;
    expect(s.branding).toMatchObject({ name: "Casa Salva", logo: null, primaryColor: "#114477" });
    expect(s.sharingConfig.fieldVisibility).toEqual({
      address: "city_only",
      coordinates: "hidden",
      financials: "hidden",
      price: "inherit",
      listingCode: "hidden",
      agentInfo: "visible",
    });
    expect(s.sharingConfig.showFinancialSimulator).toBe(false);
    // Other sharing settings are kept.
    expect(s.sharingConfig.restrictions.autoHideTerminalStages).toBe(true);
  });
});

describe("ending a session", () => {
  it("sign-out (with CSRF) deletes the row and clears the cookie", async () => {
    const token = await signIn(a.key);
    expect((await send(signOut.POST, "/preview/share/sign-out", { cookie: token, form: {} })).status).toBe(403);
    const r = await send(signOut.POST, "/preview/share/sign-out", { cookie: token, form: { csrf: csrfToken(token) } });
    expect(r.status).toBe(303);
    expect(r.headers.get("set-cookie")).toMatch(/^crm_preview=; Max-Age=0; Path=\/preview; HttpOnly; SameSite=Lax/);
    expect((await send(main.GET, "/preview/share", { cookie: token })).html).toContain('name="apiKey"');
  });

  it("revoking the API key ends its sessions at once", async () => {
    const m = await makeMember(a, "admin", "broad");
    const token = await signIn(m.key);
    expect((await send(main.GET, "/preview/share", { cookie: token })).html).toContain("Sign out");
    const [row] = await (await getDb())
      .select({ id: apiKeys.id })
      .from(apiKeys)
      .where(eq(apiKeys.hash, hashApiKey(m.key)));
    const del = await call(keysRoute.DELETE, "DELETE", "/x", { key: a.key, params: { id: row.id } });
    expect(del.status).toBeLessThan(300);
    expect((await send(main.GET, "/preview/share", { cookie: token })).html).toContain('name="apiKey"');
    expect((await send(frame.GET, `/preview/share/frame?pick=listing:${publicListing.id}`, { cookie: token })).status).toBe(401);
  });
});
