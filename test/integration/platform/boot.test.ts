import { spawnSync } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../../..");

async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((ok) => s.listen(0, "127.0.0.1", ok));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((ok) => s.close(() => ok()));
  return port;
}

describe("start-up with an unreachable database", () => {
  it("stops at once with one line naming host, user and database, never the password", async () => {
    const port = await closedPort();
    const run = spawnSync(process.execPath, ["--import", "tsx", "test/fixtures/boot-probe.mts"], {
      cwd: root,
      encoding: "utf8",
      timeout: 30_000,
      env: {
        ...process.env,
        NEXT_RUNTIME: "nodejs",
        DATABASE_URL: `postgres://crm:s3cret-pw@127.0.0.1:${port}/crm_prod`,
        LOG_LEVEL: "silent",
        MIGRATE_ON_START: "true",
      },
    });
    expect(run.status).toBe(1);
    expect(run.stdout).not.toContain("started");
    const lines = run.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(`^Server not started: Cannot connect to PostgreSQL at 127\\.0\\.0\\.1:${port} as user "crm", database "crm_prod": .*ECONNREFUSED`),
    );
    expect(run.stderr + run.stdout).not.toContain("s3cret-pw");
  });
});
