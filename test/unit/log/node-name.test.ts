/** Every log line names the node (`NODE_NAME`, default the host name), child loggers' lines too. */
import { spawnSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../../..");
const script = `const { logger } = await import("./lib/log/logger.ts");
logger().info("one");
logger().child({ tenantId: "t-1" }).warn("two");`;

function lines(env: Record<string, string | undefined>): Record<string, unknown>[] {
  const run = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    cwd: root,
    encoding: "utf8",
    timeout: 30_000,
    env: { ...process.env, LOG_LEVEL: "info", ...env },
  });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe("log lines carry the node's name", () => {
  it("uses NODE_NAME on every line, the tenant where the context has it", () => {
    const out = lines({ NODE_NAME: "node-b" });
    expect(out.map((l) => [l.msg, l.node, l.tenantId])).toEqual([
      ["one", "node-b", undefined],
      ["two", "node-b", "t-1"],
    ]);
  });

  it("defaults to the host name", () => {
    const out = lines({ NODE_NAME: undefined });
    expect(out.every((l) => l.node === os.hostname())).toBe(true);
  });
});
