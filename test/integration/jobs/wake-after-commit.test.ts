import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../../db/client";
import { settleAfterCommit } from "../../../db/transaction";
import { authenticateApiKey } from "../../../lib/auth/authenticate-key";
import { resetConfigForTests } from "../../../lib/config";
import { memberCtx } from "../../../lib/context/verb-context";
import { createDeal } from "../../../lib/deals/deals";
import { onJobEvent, setJobTransport } from "../../../lib/jobs/dispatch";
import { startEmbeddedRunner } from "../../../lib/jobs/embedded-runner";
import { putWebhookSettings } from "../../../lib/event-delivery/webhook-settings";
import { makeTenant } from "../../helpers/factories";
import { startReceiver } from "../../helpers/receiver";

const saved = { ...process.env };
const r = await startReceiver();
afterAll(async () => {
  process.env = saved;
  resetConfigForTests();
  await r.close();
});

const deal = (title: string) => ({ title, dealType: "sale", contacts: [{ name: "Ana", email: "ana@example.com", role: "buyer" }] });

async function subscribedTenant() {
  const t = await makeTenant();
  const ctx = memberCtx(await getDb(), await authenticateApiKey(await getDb(), t.key));
  await putWebhookSettings(ctx, { url: r.url, events: ["deal.created"], hmac: false, bearer: false });
  return ctx;
}

describe("a write through a domain verb, without HTTP, wakes event delivery after commit", () => {
  beforeAll(() => {
    // A poll far away: only the wake-up can deliver within the test's few seconds.
    Object.assign(process.env, { JOBS_RUNNER: "embedded", EVENTS_POLL_INTERVAL_MS: "60000" });
    resetConfigForTests();
  });

  it("embedded runner: the event is delivered at once, and the trigger was sent once for the write", async () => {
    const ctx = await subscribedTenant();
    const sent: string[] = [];
    const unsubscribe = onJobEvent((name) => sent.push(name));
    const runner = startEmbeddedRunner();
    try {
      await new Promise((ok) => setTimeout(ok, 300)); // the runner's first scheduled cycle runs on an empty queue
      const before = r.received.length;
      const created = await createDeal(ctx, deal("Wake me"));
      const deadline = Date.now() + 5000;
      while (r.received.length === before && Date.now() < deadline) await new Promise((ok) => setTimeout(ok, 25));
      expect(r.received.at(-1)?.json?.data?.entityId).toBe(created.id);
      expect(sent.filter((n) => n === "crm/events.queued")).toHaveLength(1);
    } finally {
      unsubscribe();
      await runner.stop();
    }
  });

  it("Inngest mode: the trigger event goes through the installed transport, only after commit", async () => {
    process.env.JOBS_RUNNER = "inngest";
    resetConfigForTests();
    const ctx = await subscribedTenant();
    const sent: { name: string; data: unknown }[] = [];
    setJobTransport(async (name, data) => void sent.push({ name, data }));
    try {
      await expect(createDeal(ctx, { ...deal("Rolled back"), stage: "no-such-stage" })).rejects.toThrow();
      await settleAfterCommit();
      expect(sent).toEqual([]);
      await createDeal(ctx, deal("Committed"));
      await settleAfterCommit();
      expect(sent).toEqual([{ name: "crm/events.queued", data: {} }]);
    } finally {
      setJobTransport(undefined);
    }
  });
});
