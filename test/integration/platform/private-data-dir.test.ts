/**
 * The embedded database and the files beside it hold webhook secrets, key hashes and personal data:
 * the data folder must be private (folders 0700, files 0600) whatever the umask, and a folder an
 * older version left readable is repaired at start, before PGlite opens it. Runs a real file
 * database in a temporary folder (not memory://).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "../../../db/client";
import { ensureOperatorToken } from "../../../lib/auth/operator-token";
import { resetConfigForTests } from "../../../lib/config";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "crm-private-"));
const dataDir = path.join(root, "data");
const pgDir = path.join(dataDir, "pglite");
const saved = { env: { ...process.env }, umask: process.umask() };

const modeOf = (p: string) => fs.lstatSync(p).mode & 0o777;

/** Every path under `dir` whose mode lets anyone but the owner in, as `path mode`. */
function openToOthers(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      const want = e.isDirectory() ? 0o700 : 0o600;
      if (modeOf(p) !== want) out.push(`${path.relative(root, p)} ${modeOf(p).toString(8)}`);
      if (e.isDirectory()) walk(p);
    }
  };
  if (modeOf(dir) !== 0o700) out.push(`${path.relative(root, dir)} ${modeOf(dir).toString(8)}`);
  walk(dir);
  return out;
}

/** Opens the file database the way the server does, writes to it, and closes it. */
async function openTestDatabase(): Promise<string[]> {
  await closeDb();
  const db = await getDb();
  await db.execute(sql`create table if not exists private_probe (id serial primary key, secret text)`);
  await db.execute(sql`insert into private_probe (secret) values ('whsec_probe')`);
  const whileOpen = openToOthers(dataDir);
  await closeDb();
  return whileOpen;
}

beforeAll(async () => {
  await closeDb(); // the in-memory database the test setup opened
  process.env.DATA_DIR = dataDir;
  delete process.env.PGLITE_DIR;
  delete process.env.DATABASE_URL;
  delete process.env.OPERATOR_TOKEN;
  resetConfigForTests();
});

afterAll(async () => {
  await closeDb();
  process.env = saved.env;
  process.umask(saved.umask);
  resetConfigForTests();
  fs.rmSync(root, { recursive: true, force: true });
});

describe("the embedded data folder is private", () => {
  it("creates the folders 0700 and the files 0600 even under umask 000", async () => {
    process.umask(0);
    const token = ensureOperatorToken();
    expect(token.created).toBe(true);
    expect(await openTestDatabase()).toEqual([]);
    expect(fs.readdirSync(pgDir).length).toBeGreaterThan(5);
    expect(openToOthers(dataDir)).toEqual([]);
  }, 60_000);

  it("repairs a folder an older version left world-readable before opening it", async () => {
    const widen = (d: string) => {
      fs.chmodSync(d, 0o777);
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        const p = path.join(d, e.name);
        if (e.isDirectory()) widen(p);
        else fs.chmodSync(p, 0o666);
      }
    };
    widen(dataDir);
    expect(openToOthers(dataDir).length).toBeGreaterThan(100);

    // Start-up order of the server: the operator token first, then the database.
    expect(ensureOperatorToken().created).toBe(false);
    expect(modeOf(dataDir)).toBe(0o700);
    expect(modeOf(path.join(dataDir, "operator-token"))).toBe(0o600);
    expect(await openTestDatabase()).toEqual([]);
    expect(openToOthers(dataDir)).toEqual([]);
  }, 60_000);

  it("leaves symbolic links and what they point to alone", async () => {
    const outside = path.join(root, "outside.txt");
    fs.writeFileSync(outside, "not ours to change");
    fs.chmodSync(outside, 0o644);
    fs.symlinkSync(outside, path.join(pgDir, "link-to-outside"));
    try {
      await openTestDatabase();
      expect(modeOf(outside)).toBe(0o644);
    } finally {
      fs.rmSync(path.join(pgDir, "link-to-outside"));
    }
  }, 60_000);
});
