import { afterEach, describe, expect, it } from "vitest";
import { resetConfigForTests } from "../../../lib/config";
import { jobsMode, jobsModeProblem } from "../../../lib/jobs/mode";

const saved = process.env.JOBS_RUNNER;
afterEach(() => {
  if (saved === undefined) delete process.env.JOBS_RUNNER;
  else process.env.JOBS_RUNNER = saved;
  resetConfigForTests();
});

describe("jobs mode", () => {
  it("JOBS_RUNNER=worker leaves the jobs to the worker process", () => {
    process.env.JOBS_RUNNER = "worker";
    resetConfigForTests();
    expect(jobsMode()).toBe("worker");
  });

  it("refuses the worker mode on the embedded database, saying what to do", () => {
    expect(jobsModeProblem("worker", "pglite")).toMatch(/JOBS_RUNNER=worker needs PostgreSQL \(DATABASE_URL\).*Unset JOBS_RUNNER/);
    expect(jobsModeProblem("worker", "postgres")).toBeUndefined();
    expect(jobsModeProblem("embedded", "pglite")).toBeUndefined();
  });
});
