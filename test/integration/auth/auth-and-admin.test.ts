import { beforeAll, describe, expect, it } from "vitest";
import * as tenantsRoute from "../../../app/api/admin/tenants/route";
import * as listingsRoute from "../../../app/api/v1/real-estate/listings/route";
import * as keyRoute from "../../../app/api/v1/settings/api-keys/[id]/route";
import * as keysRoute from "../../../app/api/v1/settings/api-keys/route";
import * as memberRoute from "../../../app/api/v1/settings/members/[id]/route";
import { makeMember, makeTenant, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";

const OPERATOR = "test-operator-token-0123456789";
const list = (key: string | null, headers?: Record<string, string>) => call(listingsRoute.GET, "GET", "/api/v1/real-estate/listings", { key, headers });

describe("POST /api/admin/tenants", () => {
  it("creates a tenant, its owner and a working broad key", async () => {
    const res = await call(tenantsRoute.POST, "POST", "/api/admin/tenants", {
      key: OPERATOR,
      body: { name: "Imobiliária São João", owner: { name: "João", email: "Joao@Example.com", phone: "11 98888-7777" } },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ slug: "imobiliaria-sao-joao", owner: { userId: expect.any(String) } });
    expect(res.body.apiKey).toMatch(/^crm_/);
    expect((await list(res.body.apiKey)).status).toBe(200);

    const again = await call(tenantsRoute.POST, "POST", "/api/admin/tenants", {
      key: OPERATOR,
      body: { name: "Imobiliária São João", owner: { name: "Outro", email: "o@example.com" } },
    });
    expect(again.status).toBe(201);
    expect(again.body.slug).toBe("imobiliaria-sao-joao-2");
    const taken = await call(tenantsRoute.POST, "POST", "/api/admin/tenants", {
      key: OPERATOR,
      body: { name: "X", slug: "imobiliaria-sao-joao", owner: { name: "Y", email: "y@example.com" } },
    });
    expect(taken.status).toBe(409);
  });

  it("needs the operator token and valid input", async () => {
    const body = { name: "A", owner: { name: "B", email: "b@example.com" } };
    expect((await call(tenantsRoute.POST, "POST", "/x", { body })).status).toBe(401);
    expect((await call(tenantsRoute.POST, "POST", "/x", { key: "wrong-token", body })).status).toBe(401);
    const t = await makeTenant();
    expect((await call(tenantsRoute.POST, "POST", "/x", { key: t.key, body })).status).toBe(401);
    for (const bad of [
      {},
      { name: "A" },
      { name: "A", owner: { name: "B", email: "not-an-email" } },
      { ...body, slug: "Bad Slug" },
      { ...body, owner: { ...body.owner, phone: "123" } },
    ]) {
      const res = await call(tenantsRoute.POST, "POST", "/x", { key: OPERATOR, body: bad });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
    }
  });
});

describe("API key authentication", () => {
  let t: TestTenant;
  beforeAll(async () => {
    t = await makeTenant();
  });

  it("answers 401 without a key, with an unknown key, or with a malformed header, and sets a request id", async () => {
    for (const res of [await list(null), await list("crm_unknown"), await list(null, { authorization: "Basic abc" })]) {
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe("unauthorized");
      expect(res.headers.get("x-request-id")).toBeTruthy();
    }
    const ok = await list(t.key, { "x-request-id": "trace-123" });
    expect(ok.headers.get("x-request-id")).toBe("trace-123");
  });

  it("stops a revoked key at once and records lastUsedAt", async () => {
    const created = await call(keysRoute.POST, "POST", "/x", { key: t.key, body: { userId: t.ownerId, name: "ERP" } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "ERP", scope: "broad", userId: t.ownerId, revokedAt: null });
    const secret = created.body.key;
    expect(secret.startsWith(created.body.prefix)).toBe(true);
    expect((await list(secret)).status).toBe(200);
    const listed = await call(keysRoute.GET, "GET", "/x", { key: t.key });
    const row = listed.body.items.find((k: any) => k.id === created.body.id);
    expect(row.lastUsedAt).not.toBeNull();
    expect(row).not.toHaveProperty("key");
    expect(JSON.stringify(listed.body)).not.toContain(secret);

    const del = await call(keyRoute.DELETE, "DELETE", "/x", { key: t.key, params: { id: created.body.id } });
    expect(del.status).toBe(200);
    expect(del.body.revokedAt).not.toBeNull();
    expect((await list(secret)).status).toBe(401);
  });

  it("refuses keys for unknown, foreign or inactive members, and bad scopes", async () => {
    const other = await makeTenant();
    const inactive = await makeMember(t, "broker", "broad", { active: false });
    for (const body of [
      { userId: other.ownerId, name: "x" },
      { userId: "00000000-0000-4000-8000-000000000000", name: "x" },
      { userId: inactive.userId, name: "x" },
      { userId: t.ownerId, name: "x", scope: "everything" },
      { userId: t.ownerId },
    ]) {
      const res = await call(keysRoute.POST, "POST", "/x", { key: t.key, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });

  it("stops the keys of a member who is deactivated", async () => {
    const broker = await makeMember(t, "broker");
    expect((await list(broker.key)).status).toBe(200);
    const res = await call(memberRoute.PATCH, "PATCH", "/x", { key: t.key, params: { id: broker.userId }, body: { active: false } });
    expect(res.status).toBe(200);
    expect((await list(broker.key)).status).toBe(401);
  });
});
