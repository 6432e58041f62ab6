import { generateText, stepCountIs, streamText, tool } from "ai";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import * as aiRoute from "../../../app/api/v1/settings/ai/route";
import { getDb } from "../../../db/client";
import { budgetState, recordTokenUsage, usageMonth } from "../../../lib/ai/token-budget";
import { tenantModel } from "../../../lib/ai/tenant-model";
import { resetConfigForTests } from "../../../lib/config";
import { systemActor } from "../../../lib/context/actor";
import type { Ctx } from "../../../lib/context/verb-context";
import { lastUserText, startFakeModel, type FakeModel } from "../../fakes/model-server";
import { makeTenant, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";

let fake: FakeModel;
let t: TestTenant;
let ctx: Ctx;
const KEY = "sk-tenant-key-42";

async function ctxOf(tt: TestTenant): Promise<Ctx> {
  return { db: await getDb(), tenantId: tt.tenantId, actor: systemActor(tt.tenantId, "test") };
}

const putSettings = (tt: TestTenant, body: unknown) => call(aiRoute.PUT, "PUT", "/api/v1/settings/ai", { key: tt.key, body });

beforeAll(async () => {
  fake = await startFakeModel({ apiKey: KEY });
  t = await makeTenant();
  ctx = await ctxOf(t);
  const res = await putSettings(t, { baseUrl: fake.url, apiKey: KEY, defaultModel: "fake-small", monthlyTokenBudget: 1000 });
  expect(res.status).toBe(200);
});

afterAll(async () => {
  delete process.env.AI_BASE_URL;
  delete process.env.AI_MODEL;
  delete process.env.AI_API_KEY;
  delete process.env.AI_TIMEOUT_MS;
  resetConfigForTests();
  await fake.close();
});

describe("tenantModel", () => {
  it("calls the tenant's endpoint with its key and default model through generateText", async () => {
    fake.setScript((req) => ({ text: `eco: ${lastUserText(req)}`, usage: { inputTokens: 30, outputTokens: 7 } }));
    const m = await tenantModel(ctx);
    expect(m?.modelId).toBe("fake-small");
    const before = fake.requests.length;
    const out = await generateText({ model: m!.model, prompt: "Olá, o apartamento ainda está disponível?", maxRetries: 0 });
    expect(out.text).toBe("eco: Olá, o apartamento ainda está disponível?");
    expect(out.usage.inputTokens).toBe(30);
    expect(out.usage.outputTokens).toBe(7);
    const req = fake.requests[before];
    expect(req.model).toBe("fake-small");
    expect(req.authorization).toBe(`Bearer ${KEY}`);
    expect(req.stream).toBe(false);
  });

  it("runs a tool loop: the model's tool call is executed and its result sent back", async () => {
    fake.setScript((req) => {
      const toolMsg = req.messages.find((x) => x.role === "tool");
      if (!toolMsg) return { toolCalls: [{ name: "searchListings", arguments: { city: "Campinas" } }] };
      return { text: `Encontrei: ${toolMsg.content}` };
    });
    const m = await tenantModel(ctx, { model: "fake-large" });
    expect(m?.modelId).toBe("fake-large");
    const seen: unknown[] = [];
    const out = await generateText({
      model: m!.model,
      prompt: "Tem casa em Campinas?",
      tools: {
        searchListings: tool({
          description: "Search listings",
          inputSchema: z.object({ city: z.string() }),
          execute: async (input) => {
            seen.push(input);
            return { count: 2 };
          },
        }),
      },
      stopWhen: stepCountIs(3),
      maxRetries: 0,
    });
    expect(seen).toEqual([{ city: "Campinas" }]);
    expect(out.text).toBe('Encontrei: {"count":2}');
    expect(out.steps).toHaveLength(2);
    const last = fake.requests.at(-1)!;
    expect(last.model).toBe("fake-large");
    expect(last.toolNames).toEqual(["searchListings"]);
    expect(out.totalUsage.inputTokens).toBe(24);
  });

  it("streams too (the fake answers server-sent events when asked)", async () => {
    fake.setScript(() => ({ text: "em partes", usage: { inputTokens: 5, outputTokens: 2 } }));
    const m = (await tenantModel(ctx))!;
    const out = streamText({ model: m.model, prompt: "x", maxRetries: 0 });
    expect(await out.text).toBe("em partes");
    expect((await out.usage).outputTokens).toBe(2);
    expect(fake.requests.at(-1)?.stream).toBe(true);
  });

  it("fails cleanly on a wrong key, an HTTP error and garbage", async () => {
    const m = (await tenantModel(ctx))!;
    fake.setScript(() => ({ httpError: 503 }));
    await expect(generateText({ model: m.model, prompt: "x", maxRetries: 0 })).rejects.toThrow(/scripted 503/);
    fake.setScript(() => ({ garbage: "<html>not json" }));
    await expect(generateText({ model: m.model, prompt: "x", maxRetries: 0 })).rejects.toThrow();
    const wrong = await makeTenant();
    await putSettings(wrong, { baseUrl: fake.url, apiKey: "sk-wrong", defaultModel: "fake-small", monthlyTokenBudget: null });
    fake.setScript(() => ({ text: "never" }));
    const w = (await tenantModel(await ctxOf(wrong)))!;
    await expect(generateText({ model: w.model, prompt: "x", maxRetries: 0 })).rejects.toThrow(/Incorrect API key/);
  });

  it("ends a hanging call at AI_TIMEOUT_MS", async () => {
    process.env.AI_TIMEOUT_MS = "1000";
    resetConfigForTests();
    fake.setScript(() => ({ hang: true }));
    const m = (await tenantModel(ctx))!;
    const started = Date.now();
    await expect(generateText({ model: m.model, prompt: "x", maxRetries: 0 })).rejects.toThrow(/1000 ms/);
    expect(Date.now() - started).toBeLessThan(5000);
    delete process.env.AI_TIMEOUT_MS;
    resetConfigForTests();
  });

  it("uses the service default from the environment, and null when there is none", async () => {
    const plain = await makeTenant();
    const pctx = await ctxOf(plain);
    expect(await tenantModel(pctx)).toBeNull();
    process.env.AI_BASE_URL = fake.url;
    process.env.AI_MODEL = "service-model";
    process.env.AI_API_KEY = KEY;
    resetConfigForTests();
    fake.setScript(() => ({ text: "do serviço" }));
    const m = await tenantModel(pctx);
    expect(m?.modelId).toBe("service-model");
    const out = await generateText({ model: m!.model, prompt: "oi", maxRetries: 0 });
    expect(out.text).toBe("do serviço");
    expect(fake.requests.at(-1)).toMatchObject({ model: "service-model", authorization: `Bearer ${KEY}` });
    // The tenant's own settings win over the default.
    expect((await tenantModel(ctx))?.modelId).toBe("fake-small");
    delete process.env.AI_BASE_URL;
    delete process.env.AI_MODEL;
    delete process.env.AI_API_KEY;
    resetConfigForTests();
  });
});

describe("the process's model objects", () => {
  it("are reused for ten minutes, then built again (no unsealed key kept longer)", async () => {
    const first = await tenantModel(ctx);
    expect(await tenantModel(ctx)).toBe(first);
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(Date.now() + 9 * 60_000);
      expect(await tenantModel(ctx)).toBe(first);
      vi.setSystemTime(Date.now() + 2 * 60_000);
      const rebuilt = await tenantModel(ctx);
      expect(rebuilt).not.toBe(first);
      expect(rebuilt?.modelId).toBe("fake-small");
      expect(await tenantModel(ctx)).toBe(rebuilt);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("token budget", () => {
  it("adds up usage per UTC month and reports exhaustion", async () => {
    const b = await makeTenant();
    const bctx = await ctxOf(b);
    await putSettings(b, { baseUrl: fake.url, apiKey: KEY, defaultModel: "fake-small", monthlyTokenBudget: 100 });
    expect(await budgetState(bctx)).toEqual({ budget: 100, used: 0, exhausted: false });
    await Promise.all([
      recordTokenUsage(bctx, { inputTokens: 40, outputTokens: 10, purpose: "agent" }),
      recordTokenUsage(bctx, { inputTokens: 20, outputTokens: 5, purpose: "translation" }),
      recordTokenUsage(bctx, { inputTokens: 10, outputTokens: undefined, purpose: "agent" }),
    ]);
    expect(await budgetState(bctx)).toEqual({ budget: 100, used: 85, exhausted: false });
    await recordTokenUsage(bctx, { inputTokens: 15, outputTokens: 0, purpose: "first_contact" });
    expect(await budgetState(bctx)).toEqual({ budget: 100, used: 100, exhausted: true });
    // Last month's usage does not count, and a month boundary is UTC: 23:30 on the 30th in São Paulo is the next month.
    const lastMonth = new Date(Date.UTC(2026, 9, 31, 23, 59));
    await recordTokenUsage(bctx, { inputTokens: 500, outputTokens: 0, purpose: "agent" }, lastMonth);
    expect((await budgetState(bctx)).used).toBe(100);
    expect(usageMonth(new Date("2026-11-30T23:30:00-03:00"))).toBe("2026-12");
    // Another tenant's usage is its own; no budget means never exhausted.
    expect(await budgetState(ctx)).toMatchObject({ budget: 1000 });
    const free = await makeTenant();
    const fctx = await ctxOf(free);
    await recordTokenUsage(fctx, { inputTokens: 10_000_000, outputTokens: 0, purpose: "agent" });
    expect(await budgetState(fctx)).toEqual({ budget: null, used: 10_000_000, exhausted: false });
    expect((await budgetState(bctx)).used).toBe(100);
  });
});
