import { describe, expect, it } from "vitest";
import { handOver, takeOver } from "../../../lib/sites/render/lookup-handoff";

describe("lookup handoff between the proxy and the page", () => {
  it("gives the value once, to the same key only", async () => {
    const token = handOver("listing:s1:AP1", Promise.resolve({ id: "x" }));
    expect(takeOver(token, "listing:s1:AP2")).toBeNull();
    await expect(takeOver(token, "listing:s1:AP1")).resolves.toEqual({ id: "x" });
    expect(takeOver(token, "listing:s1:AP1")).toBeNull();
  });
  it("knows nothing of a missing or forged token", () => {
    expect(takeOver(null, "k")).toBeNull();
    expect(takeOver("", "k")).toBeNull();
    expect(takeOver("00000000-0000-0000-0000-000000000000", "k")).toBeNull();
  });
  it("drops what no page took once it is 30 seconds old", () => {
    const t0 = Date.now();
    const old = handOver("k-old", Promise.resolve(1), t0 - 31_000);
    const young = handOver("k-young", Promise.resolve(2), t0 - 1_000);
    handOver("k-new", Promise.resolve(3), t0);
    expect(takeOver(old, "k-old")).toBeNull();
    expect(takeOver(young, "k-young")).not.toBeNull();
  });
});
