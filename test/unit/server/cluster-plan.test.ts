import { describe, expect, it } from "vitest";
import { clusterPlan, DEFAULT_MAX_WEB, shouldRestart, webPoolSize, type PlanInput } from "../../../lib/server/cluster-plan";

const base: PlanInput = { postgres: true, requested: undefined, cores: 4, jobs: "embedded", jobsExplicit: false };

describe("npm start's process layout", () => {
  it("on PostgreSQL: one web process per core, and one jobs worker instead of a runner in each", () => {
    expect(clusterPlan(base)).toEqual({ web: 4, jobsWorker: true, webJobsRunner: "worker" });
  });

  it("at most four by default (a container may see its host's cores), any number when asked", () => {
    expect(clusterPlan({ ...base, cores: 64 })).toMatchObject({ web: DEFAULT_MAX_WEB });
    expect(clusterPlan({ ...base, cores: 64, requested: 12 })).toMatchObject({ web: 12 });
  });

  it("shares the default pool of 20 connections among the web processes, at least 5 each", () => {
    expect([1, 2, 3, 4, 8].map(webPoolSize)).toEqual([20, 10, 6, 5, 5]);
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
