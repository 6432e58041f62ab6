/**
 * Every line written while answering a request carries its request id, and every line written
 * inside a tenant's transaction (a request's verb, a job's work, its after-commit hooks) carries
 * the tenant id, however deep the code that writes it and whichever logger it calls.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../../..");
const script = `
const { logger } = await import("./lib/log/logger.ts");
const { withLogContext, noteLogContext } = await import("./lib/log/log-context.ts");
logger().info("outside");
await withLogContext({ reqId: "r-1" }, async () => {
  logger().info("request");
  noteLogContext({ tenantId: "t-1" });
  await new Promise((r) => setTimeout(r, 5));
  logger().child({ job: "x" }).info("after auth");
  await withLogContext({ tenantId: "t-2" }, async () => logger().info("other tenant's work"));
  logger().info("back");
});
logger().info("after");`;

describe("log lines carry the request and the tenant of their context", () => {
  it("adds reqId and tenantId from the async context, nested contexts overriding and ending", () => {
    const run = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      cwd: root,
      encoding: "utf8",
      timeout: 30_000,
      env: { ...process.env, LOG_LEVEL: "info" },
    });
    expect(run.status, run.stderr).toBe(0);
    const out = run.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(out.map((l) => [l.msg, l.reqId, l.tenantId])).toEqual([
      ["outside", undefined, undefined],
      ["request", "r-1", undefined],
      ["after auth", "r-1", "t-1"],
      ["other tenant's work", "r-1", "t-2"],
      ["back", "r-1", "t-1"],
      ["after", undefined, undefined],
    ]);
  });
});
