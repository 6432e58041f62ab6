import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as aiRoute from "../../../app/api/v1/settings/ai/route";
import { getDb } from "../../../db/client";
import { aiSettings } from "../../../db/schema";
import { recordTokenUsage } from "../../../lib/ai/token-budget";
import { resetConfigForTests } from "../../../lib/config";
import { systemActor } from "../../../lib/context/actor";
import { makeMember, makeTenant, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";

let t: TestTenant;
let other: TestTenant;
const get = (key = t.key) => call(aiRoute.GET, "GET", "/api/v1/settings/ai", { key });
const put = (body: unknown, key = t.key) => call(aiRoute.PUT, "PUT", "/api/v1/settings/ai", { key, body });
const base = { baseUrl: "https://models.example.com/v1", apiKey: "sk-secret-key-123", defaultModel: "gpt-4o-mini", monthlyTokenBudget: 50000 };

beforeAll(async () => {
  t = await makeTenant();
  other = await makeTenant();
});

afterAll(() => {
  delete process.env.AI_BASE_URL;
  delete process.env.AI_MODEL;
  resetConfigForTests();
});

describe("AI settings", () => {
  it("start empty, keep what was put, and never return the key", async () => {
    expect((await get()).body).toEqual({
      baseUrlHost: null,
      defaultModel: null,
      hasApiKey: false,
      monthlyTokenBudget: null,
      tokensUsedThisMonth: 0,
      provider: "none",
      updatedAt: null,
    });
    const res = await put(base);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      baseUrlHost: "models.example.com",
      defaultModel: "gpt-4o-mini",
      hasApiKey: true,
      monthlyTokenBudget: 50000,
      provider: "tenant",
    });
    const read = await get();
    expect(read.body).toEqual(res.body);
    expect(JSON.stringify(read.body)).not.toContain("sk-secret");
    // Sealed at rest, not the plain key.
    const db = await getDb();
    const [row] = await db.select().from(aiSettings).where(eq(aiSettings.tenantId, t.tenantId));
    expect(row.apiKey).toMatch(/^v1\./);
    expect(row.apiKey).not.toContain("sk-secret");
  });

  it("keeps the key while the origin stays, refuses to move it to another host, erases it on null", async () => {
    await put(base);
    const samePath = await put({ ...base, apiKey: undefined, baseUrl: "https://models.example.com/v2", defaultModel: "other-model" });
    expect(samePath.status).toBe(200);
    expect(samePath.body).toMatchObject({ hasApiKey: true, defaultModel: "other-model" });
    const moved = await put({ ...base, apiKey: undefined, baseUrl: "https://evil.example.net/v1" });
    expect(moved.status).toBe(400);
    expect(moved.body.error.message).toMatch(/apiKey/);
    expect((await get()).body.baseUrlHost).toBe("models.example.com");
    const erased = await put({ ...base, apiKey: null });
    expect(erased.body.hasApiKey).toBe(false);
  });

  it("answers 400 naming the field, and changes nothing", async () => {
    await put(base);
    const before = (await get()).body;
    const cases: [unknown, RegExp][] = [
      [{ ...base, baseUrl: "ftp://models.example.com/v1" }, /baseUrl.*http/],
      [{ ...base, baseUrl: "not a url" }, /baseUrl/],
      [{ ...base, baseUrl: "https://user:pw@models.example.com/v1" }, /credentials/],
      [{ ...base, baseUrl: "https://models.example.com/v1/chat/completions" }, /chat\/completions/],
      [{ ...base, baseUrl: "https://models.example.com/v1?x=1" }, /query/],
      [{ ...base, defaultModel: null }, /defaultModel/],
      [{ ...base, defaultModel: "gpt 4" }, /defaultModel/],
      [{ ...base, baseUrl: null }, /apiKey/],
      [{ ...base, monthlyTokenBudget: -1 }, /monthlyTokenBudget/],
      [{ ...base, monthlyTokenBudget: 1.5 }, /monthlyTokenBudget/],
      [{ ...base, extra: true }, /extra/],
      [{ apiKey: "x" }, /baseUrl/],
      [{ ...base, baseUrl: "http://169.254.169.254/v1" }, /cloud metadata/],
    ];
    for (const [body, msg] of cases) {
      const res = await put(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message, JSON.stringify(body)).toMatch(msg);
    }
    expect((await get()).body).toEqual(before);
    // Plain http to loopback is fine outside production (a local model server in tests and development).
    expect((await put({ ...base, baseUrl: "http://127.0.0.1:11434/v1" })).status).toBe(200);
  });

  it("is for owner and admin broad keys only", async () => {
    const broker = await makeMember(t, "broker");
    const manager = await makeMember(t, "manager");
    for (const key of [broker.key, manager.key]) {
      expect((await get(key)).status).toBe(403);
      expect((await put(base, key)).status).toBe(403);
    }
    const admin = await makeMember(t, "admin");
    expect((await get(admin.key)).status).toBe(200);
  });

  it("belong to their tenant: another tenant sees its own, and its own usage", async () => {
    await put(base);
    const db = await getDb();
    await recordTokenUsage({ db, tenantId: t.tenantId, actor: systemActor(t.tenantId, "test") }, { inputTokens: 100, outputTokens: 20, purpose: "agent" });
    expect((await get()).body.tokensUsedThisMonth).toBeGreaterThanOrEqual(120);
    const theirs = await get(other.key);
    expect(theirs.body).toMatchObject({ baseUrlHost: null, hasApiKey: false, tokensUsedThisMonth: 0, monthlyTokenBudget: null });
    await put({ ...base, baseUrl: "https://theirs.example.org/v1", apiKey: "sk-theirs" }, other.key);
    expect((await get()).body.baseUrlHost).toBe("models.example.com");
    expect((await get(other.key)).body.baseUrlHost).toBe("theirs.example.org");
  });

  it("shows the service default when the tenant names no endpoint", async () => {
    const fresh = await makeTenant();
    process.env.AI_BASE_URL = "https://default-models.example.com/v1";
    process.env.AI_MODEL = "default-model";
    resetConfigForTests();
    expect((await get(fresh.key)).body).toMatchObject({ provider: "service_default", baseUrlHost: null });
    const res = await put({ baseUrl: null, defaultModel: "bigger-model", monthlyTokenBudget: 1000 }, fresh.key);
    expect(res.body).toMatchObject({ provider: "service_default", defaultModel: "bigger-model", hasApiKey: false });
    delete process.env.AI_BASE_URL;
    delete process.env.AI_MODEL;
    resetConfigForTests();
    expect((await get(fresh.key)).body.provider).toBe("none");
  });
});
