/** `npm run db:seed`: migrates, then loads the demo agency once and prints how to use it. */
import path from "node:path";
import { config } from "../../lib/config";
import { closeDb, getDb } from "../client";
import { runMigrations } from "../migrate";
import { fail } from "../seed/cli-support";
import { demoFile } from "../seed/credentials";
import { loadDemoData } from "../seed/demo";
import { ensureDemoPhotos } from "../seed/generate-photos";
import { ensurePricingTool } from "../../lib/share/pricing-tool";
import { ensureDemoShares } from "../seed/shares";

const shortPath = (file: string) => {
  const rel = path.relative(process.cwd(), file);
  return rel.startsWith("..") ? file : rel;
};

try {
  const started = Date.now();
  await runMigrations();
  console.log(`  Migrations applied (${((Date.now() - started) / 1000).toFixed(1)} s).`);
  const demo = await loadDemoData(await getDb(), { log: (m) => console.log(`  ${m}`) });
  // The listings' photographs: drawn once into the data folder (a few minutes the first time), then reused.
  const photos = await ensureDemoPhotos();
  console.log(
    `  Photographs: ${photos.total} of 2,400 × 1,600 (${(photos.bytes / photos.total / 1e6).toFixed(2)} MB each on average; ${photos.drawn} drawn now, in ${photos.seconds.toFixed(1)} s).`,
  );
  // Share links of every kind (issue #16): also added to a demo seeded before they existed.
  const shares = await ensureDemoShares(await getDb(), demo.tenantId);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const base = `http://localhost:${config().PORT}`;
  // The pricing tool's permanent link (issued on first read): on the share domain and on this host.
  const pricing = await ensurePricingTool(await getDb(), demo.tenantId, demo.ownerId);
  console.log(
    [
      "",
      demo.created ? `Demo data created in ${seconds} s (migrations included).` : `Demo data already exists (checked in ${seconds} s); nothing was created.`,
      "",
      `  Tenant slug   ${demo.slug}`,
      `  Owner key     ${demo.apiKey}   (broad: sees and changes everything)`,
      `  Broker key    ${demo.broker.apiKey}   (restricted: ${demo.broker.name} sees public listings and their own)`,
      `  Credentials   ${shortPath(demoFile())}`,
      `  API reference ${base}/api/docs`,
      `  Home page     ${base}/`,
      `  Pricing tool  ${pricing.url}   (also ${base}/c/${pricing.token})`,
      `  Share preview ${base}/preview/share   (sign in with the owner or the broker key)`,
      "",
      "  Share pages (what a client opens from a link; /en/p/... and /es/p/... in English and Spanish):",
      ...shares.map((s) => `  ${s.label.padEnd(30)} ${s.url}`),
      "",
      "  Try it:",
      `  curl -H "Authorization: Bearer ${demo.apiKey}" "${base}/api/v1/real-estate/listings?pageSize=5"`,
      `  curl -H "Authorization: Bearer ${demo.broker.apiKey}" "${base}/api/v1/crm/deals?pageSize=5"`,
      "",
    ].join("\n"),
  );
  await closeDb();
  process.exit(0);
} catch (err) {
  await fail("Seeding the demo data failed", err);
}
