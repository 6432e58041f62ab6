import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineJob, jobEvent } from "../../../lib/jobs/define-job";
import { PACED_AFTER_MS, PACED_GRACE_MS, asPacedWork, enterPacedWork, pacedWorkRunning, yieldToPacedWork } from "../../../lib/jobs/paced-work";

const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));

/** A paced run that lasts until `end()` is called. */
function pacedRun(afterMs = 0) {
  let end: () => void = () => {};
  const done = asPacedWork(() => new Promise<void>((r) => (end = r)), afterMs);
  return { end: () => end(), done };
}

describe("the paced-work gate", () => {
  it("lets work through at once when no paced run is under way", async () => {
    expect(pacedWorkRunning()).toBe(false);
    expect(await yieldToPacedWork(10_000)).toBe(0);
  });

  it("holds work back while a paced run is under way and lets it go when the run ends", async () => {
    const run = pacedRun();
    expect(pacedWorkRunning()).toBe(true);
    let passed = false;
    const waited = yieldToPacedWork(10_000).then((ms) => {
      passed = true;
      return ms;
    });
    await tick(60);
    expect(passed).toBe(false);
    run.end();
    await run.done;
    expect(await waited).toBeGreaterThanOrEqual(50 + PACED_GRACE_MS - 10);
    expect(passed).toBe(true);
    expect(pacedWorkRunning()).toBe(false);
  });

  it("a gap between two paced runs shorter than PACED_GRACE_MS lets nothing through (lead runs follow one another)", async () => {
    const first = pacedRun();
    let passed = false;
    const waited = yieldToPacedWork(10_000).then(() => {
      passed = true;
    });
    first.end();
    await first.done;
    await tick(PACED_GRACE_MS / 4);
    expect(pacedWorkRunning()).toBe(true);
    const second = pacedRun();
    await tick(PACED_GRACE_MS * 2);
    expect(passed).toBe(false);
    second.end();
    await second.done;
    await waited;
    expect(passed).toBe(true);
  });

  it("waits for the last of several paced runs", async () => {
    const a = pacedRun();
    const b = pacedRun();
    let passed = false;
    const waited = yieldToPacedWork(10_000).then(() => {
      passed = true;
    });
    a.end();
    await a.done;
    await tick(20);
    expect(passed).toBe(false);
    b.end();
    await b.done;
    await waited;
    expect(passed).toBe(true);
    await tick(PACED_GRACE_MS + 20);
  });

  it("never starves: the wait ends after its bound while paced work goes on", async () => {
    const run = pacedRun();
    const t0 = performance.now();
    const waited = await yieldToPacedWork(80);
    expect(waited).toBeGreaterThanOrEqual(70);
    expect(performance.now() - t0).toBeLessThan(2_000);
    expect(pacedWorkRunning()).toBe(true);
    run.end();
    await run.done;
    await tick(PACED_GRACE_MS + 20);
  });

  it("counts a paced run only once it has lasted PACED_AFTER_MS (a delivery run with nothing due holds nothing back)", async () => {
    const short = pacedRun(PACED_AFTER_MS);
    expect(pacedWorkRunning()).toBe(false);
    short.end();
    await short.done;
    await tick(PACED_AFTER_MS + 20);
    expect(pacedWorkRunning()).toBe(false);
    expect(await yieldToPacedWork(10_000)).toBe(0);
    const long = pacedRun(PACED_AFTER_MS);
    await tick(PACED_AFTER_MS + 20);
    expect(pacedWorkRunning()).toBe(true);
    long.end();
    await long.done;
    await tick(PACED_GRACE_MS + 20);
    expect(pacedWorkRunning()).toBe(false);
  });

  it("enterPacedWork marks work found during a run (delivery: from its first claim with events due); leaving twice counts once", async () => {
    const other = enterPacedWork(0);
    const leave = enterPacedWork(0);
    leave();
    leave();
    expect(pacedWorkRunning()).toBe(true);
    other();
    await tick(PACED_GRACE_MS + 20);
    expect(pacedWorkRunning()).toBe(false);
  });

  it("a paced run that fails still ends its turn", async () => {
    await expect(asPacedWork(() => Promise.reject(new Error("boom")), 0)).rejects.toThrow("boom");
    await tick(PACED_GRACE_MS + 20);
    expect(pacedWorkRunning()).toBe(false);
  });

  it("defineJob's `paced: true` marks the job's runs, both runners calling the same `run`", async () => {
    const seen: boolean[] = [];
    const make = (paced: boolean) =>
      defineJob({
        id: "x",
        step: "x",
        retries: 0,
        ...(paced ? { paced: true as const } : {}),
        trigger: { functionId: "x", event: jobEvent("test/x", z.object({})) },
        run: async () => {
          await tick(PACED_AFTER_MS + 30);
          seen.push(pacedWorkRunning());
        },
      });
    const deps = {} as Parameters<ReturnType<typeof make>["run"]>[1];
    await make(false).run(undefined, deps);
    await make(true).run(undefined, deps);
    expect(seen).toEqual([false, true]);
    await tick(PACED_GRACE_MS + 20);
  });
});
