import fs from "node:fs";
import path from "node:path";
import { and, asc, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import { apiKeys, members } from "../schema";
import type { TenantRow } from "../../lib/tenants/tenant-row";
import type { Db } from "../client";
import { issueApiKey } from "../../lib/auth/api-keys";
import { hashApiKey } from "../../lib/auth/api-key-secret";
import { config } from "../../lib/config";
import { ensurePrivateDir } from "../private-dir";
import { TEAM, TEAM_DOMAIN } from "./people";

const teamOrder = (email: string) => {
  const i = TEAM.findIndex((m) => `${m.email}@${TEAM_DOMAIN}` === email);
  return i < 0 ? TEAM.length : i;
};

const StoredSchema = z.object({
  tenantId: z.uuid(),
  slug: z.string(),
  apiKey: z.string(),
  ownerId: z.uuid(),
  brokers: z.array(z.object({ id: z.uuid(), name: z.string(), email: z.string() })),
  /** A broker's restricted key, so the access rules can be tried beside the owner's broad key. */
  broker: z.object({ id: z.uuid(), name: z.string(), email: z.string(), apiKey: z.string() }),
  createdAt: z.string(),
});

export type StoredDemo = z.infer<typeof StoredSchema>;

export const DEMO_BROKER_KEY_NAME = "Demo broker key (restricted)";

export const demoFile = () => path.resolve(config().DATA_DIR, "demo.json");

/** The key is a secret: the file is readable by its owner only. */
export function writeDemoFile(data: StoredDemo): void {
  ensurePrivateDir(path.dirname(demoFile()));
  fs.writeFileSync(demoFile(), `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
}

function readDemoFile(): StoredDemo | null {
  try {
    return StoredSchema.parse(JSON.parse(fs.readFileSync(demoFile(), "utf8")));
  } catch {
    return null;
  }
}

async function keyStillWorks(db: Db, tenantId: string, key: string): Promise<boolean> {
  const [row] = await db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(and(eq(apiKeys.hash, hashApiKey(key)), eq(apiKeys.tenantId, tenantId), isNull(apiKeys.revokedAt)))
    .limit(1);
  return Boolean(row);
}

/**
 * Credentials of a demo tenant that already exists. The file is trusted only if it names this
 * tenant and its key still authenticates (the database may have been reset, or the key revoked);
 * otherwise a new broad key is issued for the owner and the file rewritten.
 */
export async function existingCredentials(db: Db, tenant: TenantRow, log: (m: string) => void): Promise<StoredDemo> {
  const stored = readDemoFile();
  if (
    stored &&
    stored.tenantId === tenant.id &&
    (await keyStillWorks(db, tenant.id, stored.apiKey)) &&
    (await keyStillWorks(db, tenant.id, stored.broker.apiKey))
  ) {
    return stored;
  }

  const team = await db.select().from(members).where(eq(members.tenantId, tenant.id)).orderBy(asc(members.createdAt), asc(members.id));
  const owner = team.find((m) => m.role === "owner" && m.active);
  if (!owner) throw new Error(`The demo tenant '${tenant.slug}' has no active owner to issue a key for.`);
  const key = await issueApiKey(db, tenant.id, owner.id, "Demo key", "broad");
  // Rows written in one transaction share created_at: list brokers in the team's order instead.
  const brokers = team
    .filter((m) => m.role === "broker")
    .sort((a, b) => teamOrder(a.email) - teamOrder(b.email))
    .map((m) => ({ id: m.id, name: m.name, email: m.email }));
  if (!brokers.length) throw new Error(`The demo tenant '${tenant.slug}' has no broker to issue a restricted key for.`);
  const brokerKey = await issueApiKey(db, tenant.id, brokers[0].id, DEMO_BROKER_KEY_NAME, "restricted");
  log(`${path.relative(process.cwd(), demoFile())} was missing or stale: issued new API keys for the demo owner and a broker.`);
  const data: StoredDemo = {
    tenantId: tenant.id,
    slug: tenant.slug,
    apiKey: key.key,
    ownerId: owner.id,
    brokers,
    broker: { ...brokers[0], apiKey: brokerKey.key },
    createdAt: tenant.createdAt.toISOString(),
  };
  writeDemoFile(data);
  return data;
}
