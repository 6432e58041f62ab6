import { InngestTestEngine } from "@inngest/test";
import { afterAll, describe, expect, it } from "vitest";
import * as dealsRoute from "../../../app/api/v1/crm/deals/route";
import * as webhooksRoute from "../../../app/api/v1/settings/webhooks/route";
import { deliverEventsCron, deliverEventsOnQueue } from "../../../inngest/functions/deliver-events";
import { functions } from "../../../inngest/functions";
import { makeTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { startReceiver } from "../../helpers/receiver";

const r = await startReceiver();
afterAll(() => r.close());

async function queueOne(title: string) {
  const t = await makeTenant();
  await call(webhooksRoute.PUT, "PUT", "/x", { key: t.key, body: { url: r.url, events: ["deal.created"], hmac: false, bearer: false } });
  const res = await call(dealsRoute.POST, "POST", "/x", {
    key: t.key,
    body: { title, dealType: "sale", contacts: [{ name: "A", email: "a@example.com", role: "buyer" }] },
  });
  expect(res.status).toBe(201);
}

describe("Inngest functions (in-process)", () => {
  it("the cron function runs a delivery cycle in a step", async () => {
    await queueOne("From cron");
    const t = new InngestTestEngine({ function: deliverEventsCron });
    const { result, error, ctx } = await t.execute();
    expect(error).toBeUndefined();
    expect(result).toMatchObject({ delivered: 1, failed: 0 });
    expect(ctx.step.run).toHaveBeenCalledWith("deliver-due-events", expect.any(Function));
    expect(r.received.at(-1)!.json.data.data.entity.title).toBe("From cron");
  });

  it("the queued-event function delivers what a write queued", async () => {
    await queueOne("From event");
    const t = new InngestTestEngine({ function: deliverEventsOnQueue, events: [{ name: "crm/events.queued", data: {} }] });
    const { result } = await t.execute();
    expect(result).toMatchObject({ delivered: 1 });
    expect(r.received.at(-1)!.json.data.data.entity.title).toBe("From event");
  });

  it("serves every function from /api/inngest", () => {
    expect(functions.map((f) => f.id())).toEqual(expect.arrayContaining(["deliver-events-cron", "deliver-events-on-queue"]));
  });

  it("runs a coalescing job's event function one at a time (its runs take whatever is pending), a debounced one with its debounce", () => {
    const opts = (id: string) => (functions.find((f) => f.id() === id) as unknown as { opts: Record<string, unknown> }).opts;
    expect(opts("process-lead")).toMatchObject({ concurrency: { limit: 1 } });
    expect(opts("process-lead").debounce).toBeUndefined();
    expect(opts("deliver-events-on-queue")).toMatchObject({ debounce: { period: "1s" } });
    expect(opts("deliver-events-on-queue").concurrency).toBeUndefined();
  });
});
