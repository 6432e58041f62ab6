import { describe, expect, it } from "vitest";
import { getDb } from "../../../db/client";
import { WAKE_CHANNEL, wakeWorker } from "../../../lib/jobs/worker-wake";

type Listening = { listen: (channel: string, cb: (payload: string) => void) => Promise<unknown> };

/** Notifications on the wake channel of this file's database (PGlite or PostgreSQL). */
async function listenToWakes(): Promise<string[]> {
  const got: string[] = [];
  const client = (await getDb()) as unknown as { $client: Listening };
  await client.$client.listen(WAKE_CHANNEL, (payload) => got.push(payload));
  return got;
}

const quiet = () => new Promise((r) => setTimeout(r, 300));
const id = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`;

describe("waking the jobs worker", () => {
  it("sends one NOTIFY per event at a time: a burst makes the first (with its data) and one sweep after it", async () => {
    const got = await listenToWakes();
    for (let i = 0; i < 50; i++) wakeWorker("crm/lead.received", { leadId: id(i) });
    await quiet();
    const wakes = got.map((p) => JSON.parse(p));
    expect(wakes).toEqual([
      { name: "crm/lead.received", data: { leadId: id(0) } },
      { name: "crm/lead.received" }, // no data: the worker sweeps what is pending
    ]);
    // Once it has gone out, the next event is sent at once, with its data; other events are apart.
    wakeWorker("crm/lead.received", { leadId: id(99) });
    wakeWorker("crm/messaging.event", { id: 1 });
    await quiet();
    expect(got.slice(2).map((p) => JSON.parse(p))).toEqual([
      { name: "crm/lead.received", data: { leadId: id(99) } },
      { name: "crm/messaging.event", data: { id: 1 } },
    ]);
  });
});
