import { describe, expect, it } from "vitest";
import { clusterPlan, shouldRestart, type PlanInput } from "../../../lib/server/cluster-plan";

const base: PlanInput = { postgres: true, requested: undefined, cores: 4, jobs: "embedded", jobsExplicit: false };

describe("npm start's process layout", () => {
  it("on PostgreSQL: one web process per core, and one jobs worker instead of a runner in each", () => {
    expect(clusterPlan(base)).toEqual({ web: 4, jobsWorker: true, webJobsRunner: "worker" });
  });

  it("WEB_CONCURRENCY overrides the core count; one web process keeps its own runner", () => {
    expect(clusterPlan({ ...base, requested: 3 })).toMatchObject({ web: 3, jobsWorker: true });
    expect(clusterPlan({ ...base, requested: 1 })).toEqual({ web: 1, jobsWorker: false, webJobsRunner: undefined });
    expect(clusterPlan({ ...base, cores: 1 })).toMatchObject({ web: 1, jobsWorker: false });
  });

  it("an explicit JOBS_RUNNER, Inngest or off is kept as given: no jobs worker is started", () => {
    for (const jobs of ["embedded", "worker", "off"] as const) {
      expect(clusterPlan({ ...base, jobs, jobsExplicit: true })).toMatchObject({ web: 4, jobsWorker: false, webJobsRunner: undefined });
    }
    expect(clusterPlan({ ...base, jobs: "inngest" })).toMatchObject({ jobsWorker: false, webJobsRunner: undefined });
  });

  it("the embedded database admits one process: one web process, and more is refused with what to change", () => {
    expect(clusterPlan({ ...base, postgres: false })).toEqual({ web: 1, jobsWorker: false });
    expect(clusterPlan({ ...base, postgres: false, requested: 1 })).toMatchObject({ web: 1 });
    const refused = clusterPlan({ ...base, postgres: false, requested: 2 });
    expect(refused).toMatch(/WEB_CONCURRENCY=2 needs PostgreSQL \(DATABASE_URL\)/);
  });

  it("restarts a process that died after it started, unless stopping or dying again and again", () => {
    expect(shouldRestart({ shuttingDown: false, wasReady: true, recentRestarts: 0 })).toBe(true);
    expect(shouldRestart({ shuttingDown: true, wasReady: true, recentRestarts: 0 })).toBe(false);
    expect(shouldRestart({ shuttingDown: false, wasReady: false, recentRestarts: 0 })).toBe(false);
    expect(shouldRestart({ shuttingDown: false, wasReady: true, recentRestarts: 5 })).toBe(false);
  });
});
