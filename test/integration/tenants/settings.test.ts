import { beforeAll, describe, expect, it } from "vitest";
import * as propertiesRoute from "../../../app/api/v1/real-estate/properties/route";
import * as keysRoute from "../../../app/api/v1/settings/api-keys/route";
import * as memberRoute from "../../../app/api/v1/settings/members/[id]/route";
import * as membersRoute from "../../../app/api/v1/settings/members/route";
import * as settingsRoute from "../../../app/api/v1/settings/route";
import { makeMember, makeTenant, propertyBody, saleListing, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";

let t: TestTenant;
beforeAll(async () => {
  t = await makeTenant("Lar Doce Lar");
});

describe("GET/PATCH /settings", () => {
  it("returns the tenant's settings with defaults", async () => {
    const res = await call(settingsRoute.GET, "GET", "/x", { key: t.key });
    expect(res.status).toBe(200);
    expect(res.body.tenant).toMatchObject({ id: t.tenantId, name: "Lar Doce Lar" });
    expect(res.body.listingLanguages).toEqual(["pt-BR"]);
    expect(res.body.listingWorkflow.activeStageId).toBe("active");
    expect(res.body.listingWorkflow.terminalStageIds).toEqual(["closed"]);
    expect(res.body.branding.name).toBe("Lar Doce Lar");
    expect(res.body.propertyTypes.some((p: any) => p.id === "apartment")).toBe(true);
    expect(res.body.primaryMarketEnabled).toBe(false);
  });

  it("changes the keys it is sent and validates the whole result", async () => {
    const res = await call(settingsRoute.PATCH, "PATCH", "/x", {
      key: t.key,
      body: {
        listingLanguages: ["pt-BR", "es"],
        branding: { name: "Lar", logo: "https://cdn.example.com/logo.png", primaryColor: "#aa3300" },
        primaryMarketEnabled: true,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ listingLanguages: ["pt-BR", "es"], primaryMarketEnabled: true, branding: { primaryColor: "#aa3300" } });
    expect(res.body.propertyTypes.length).toBeGreaterThan(3);

    const bad: [unknown, RegExp][] = [
      [{ listingLanguages: ["en"] }, /listingLanguages/],
      [{ listingLanguages: ["pt-BR", "fr"] }, /listingLanguages/],
      [{ branding: { name: "x", logo: null, primaryColor: "red" } }, /branding\.primaryColor/],
      [{ listingWorkflow: { stages: [{ id: "a", label: "A" }], activeStageId: "b", defaultStageId: "a", terminalStageIds: [] } }, /activeStageId/],
      [{ propertyTypes: [] }, /propertyTypes/],
      [{ primaryMarketEnabled: "yes" }, /primaryMarketEnabled/],
      [{ colour: "x" }, /colour/],
      [{}, /at least one/],
    ];
    for (const [body, msg] of bad) {
      const r = await call(settingsRoute.PATCH, "PATCH", "/x", { key: t.key, body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.message).toMatch(msg);
    }
    const after = await call(settingsRoute.GET, "GET", "/x", { key: t.key });
    expect(after.body.listingLanguages).toEqual(["pt-BR", "es"]);
  });

  it("keeps every key a PATCH does not send, deal workflow and custom fields included", async () => {
    const fields = [{ key: "origem", label: "Origem", type: "select", options: ["site", "portal"] }];
    expect((await call(settingsRoute.PATCH, "PATCH", "/x", { key: t.key, body: { customFields: fields } })).status).toBe(200);
    const res = await call(settingsRoute.PATCH, "PATCH", "/x", { key: t.key, body: { primaryMarketEnabled: false } });
    expect(res.body.customFields).toEqual(fields);
    expect(res.body.dealWorkflow.stages.map((s: any) => s.id)).toContain("ganho");
    const bad = await call(settingsRoute.PATCH, "PATCH", "/x", { key: t.key, body: { customFields: [{ key: "budget", label: "B", type: "number" }] } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/body field `customFields\.0\.key`: is reserved/);
    const logo = await call(settingsRoute.PATCH, "PATCH", "/x", {
      key: t.key,
      body: { branding: { name: "x", logo: "javascript:alert(1)", primaryColor: "#000000" } },
    });
    expect(logo.status).toBe(400);
  });

  it("refuses to remove a stage or property type that listings still use", async () => {
    const p = await call(propertiesRoute.POST, "POST", "/x", { key: t.key, body: propertyBody({ type: "house" }, [saleListing({ stage: "suspended" })]) });
    expect(p.status).toBe(201);
    const cur = (await call(settingsRoute.GET, "GET", "/x", { key: t.key })).body;
    const stages = cur.listingWorkflow.stages.filter((s: any) => s.id !== "suspended");
    const r = await call(settingsRoute.PATCH, "PATCH", "/x", { key: t.key, body: { listingWorkflow: { ...cur.listingWorkflow, stages } } });
    expect(r.status).toBe(409);
    const types = cur.propertyTypes.filter((x: any) => x.id !== "house");
    expect((await call(settingsRoute.PATCH, "PATCH", "/x", { key: t.key, body: { propertyTypes: types } })).status).toBe(409);
    // A new stage can be added and then used.
    const added = await call(settingsRoute.PATCH, "PATCH", "/x", {
      key: t.key,
      body: { listingWorkflow: { ...cur.listingWorkflow, stages: [...cur.listingWorkflow.stages, { id: "launch", label: "Lançamento", statuses: [] }] } },
    });
    expect(added.status).toBe(200);
    const used = await call(propertiesRoute.POST, "POST", "/x", { key: t.key, body: propertyBody({}, [saleListing({ stage: "launch" })]) });
    expect(used.status).toBe(201);
  });

  it("is only for owner and admin members with a broad key", async () => {
    const admin = await makeMember(t, "admin");
    expect((await call(settingsRoute.GET, "GET", "/x", { key: admin.key })).status).toBe(200);
    for (const [role, scope] of [
      ["manager", "broad"],
      ["broker", "broad"],
      ["admin", "restricted"],
    ] as const) {
      const m = await makeMember(t, role, scope);
      for (const [handler, method] of [
        [settingsRoute.GET, "GET"],
        [membersRoute.GET, "GET"],
        [keysRoute.GET, "GET"],
      ] as const) {
        const res = await call(handler, method, "/x", { key: m.key });
        expect(res.status, `${role}/${scope} ${method}`).toBe(403);
        expect(res.body.error.code).toBe("forbidden");
      }
      const patch = await call(settingsRoute.PATCH, "PATCH", "/x", { key: m.key, body: { primaryMarketEnabled: false } });
      expect(patch.status).toBe(403);
    }
  });
});

describe("members", () => {
  it("adds, lists and edits members with E.164 phones and unique e-mails", async () => {
    const res = await call(membersRoute.POST, "POST", "/x", {
      key: t.key,
      body: { name: "Ana Corretora", email: "Ana@Example.com", phone: "(21) 99876-5432", creci: "12345-F/RJ", role: "broker" },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ email: "ana@example.com", phone: "+5521998765432", role: "broker", active: true });
    const dup = await call(membersRoute.POST, "POST", "/x", { key: t.key, body: { name: "Ana 2", email: "ANA@example.com" } });
    expect(dup.status).toBe(409);
    const list = await call(membersRoute.GET, "GET", "/x", { key: t.key });
    expect(list.body.items.some((m: any) => m.id === res.body.id)).toBe(true);
    const edit = await call(memberRoute.PATCH, "PATCH", "/x", {
      key: t.key,
      params: { id: res.body.id },
      body: { role: "manager", phone: "+55 11 3333-4444" },
    });
    expect(edit.status).toBe(200);
    expect(edit.body).toMatchObject({ role: "manager", phone: "+551133334444" });
    for (const body of [{ role: "god" }, { phone: "abc" }, { email: "x" }, { active: "no" }, {}]) {
      const r = await call(memberRoute.PATCH, "PATCH", "/x", { key: t.key, params: { id: res.body.id }, body });
      expect(r.status, JSON.stringify(body)).toBe(400);
    }
  });

  it("keeps at least one active owner and keeps admins from managing owners", async () => {
    const demote = await call(memberRoute.PATCH, "PATCH", "/x", { key: t.key, params: { id: t.ownerId }, body: { role: "admin" } });
    expect(demote.status).toBe(409);
    const admin = await makeMember(t, "admin");
    const byAdmin = await call(memberRoute.PATCH, "PATCH", "/x", { key: admin.key, params: { id: t.ownerId }, body: { active: false } });
    expect(byAdmin.status).toBe(403);
    const makeOwner = await call(membersRoute.POST, "POST", "/x", { key: admin.key, body: { name: "Novo dono", email: "dono2@example.com", role: "owner" } });
    expect(makeOwner.status).toBe(403);
  });
});
