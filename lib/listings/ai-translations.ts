import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { listings, type TranslationEntry, type Translations } from "../../db/schema";
import { inTenantTransaction } from "../../db/transaction";
import { systemActor } from "../context/actor";
import { recordEvent } from "../outbox/record-event";
import { reindexListings } from "../search/index-listings";
import { loadTenant } from "../tenants/load-tenant";
import { serializeListing } from "./serialize";
import { translationTargets } from "./translation-queue";
import { listingEvent } from "./write-listing";

export type PortugueseText = { title: string; description: string | null };
export type MachineTranslation = { title: string; description: string | null };

/**
 * Writes machine translations of `source` (the Portuguese text they were made from) into a
 * listing, as `source: "ai"`. Under the listing's lock it checks again what may have moved during
 * the model call: Portuguese text that changed since (`stale`: the newer change queued its own
 * translation), a language that got a manual translation or left the targets (kept as it is).
 * A write emits `listing.updated` and refreshes the search document like any other change; the
 * same text again writes nothing.
 */
export async function applyAiTranslations(
  db: DbOrTx,
  tenantId: string,
  listingId: string,
  source: PortugueseText,
  results: Partial<Record<"en" | "es", MachineTranslation>>,
): Promise<"applied" | "unchanged" | "stale" | "gone"> {
  return inTenantTransaction(db, tenantId, async (tx) => {
    const [current] = await tx
      .select()
      .from(listings)
      .where(and(eq(listings.id, listingId), eq(listings.tenantId, tenantId)))
      .for("update");
    if (!current) return "gone";
    if (current.title !== source.title || current.description !== source.description) return "stale";
    const tenant = await loadTenant(tx, tenantId);
    const targets = translationTargets(tenant.settings);
    const now = new Date().toISOString();
    const next: Translations = { ...current.translations };
    let changed = false;
    for (const [lang, r] of Object.entries(results) as ["en" | "es", MachineTranslation][]) {
      const existing = next[lang];
      if (!targets.includes(lang) || existing?.source === "manual") continue;
      const entry: TranslationEntry = { title: r.title, ...(r.description !== null ? { description: r.description } : {}), source: "ai", translatedAt: now };
      if (existing && existing.source === "ai" && existing.title === entry.title && existing.description === entry.description) continue;
      next[lang] = entry;
      changed = true;
    }
    if (!changed) return "unchanged";
    const [row] = await tx
      .update(listings)
      .set({ translations: next, updatedAt: new Date() })
      .where(and(eq(listings.id, listingId), eq(listings.tenantId, tenantId)))
      .returning();
    const c = { tx, actor: systemActor(tenantId, "listing-translation"), tenant };
    await recordEvent(tx, listingEvent(c, "listing.updated", row, { listing: serializeListing(row) }, serializeListing(current)));
    await reindexListings(tx, tenantId, [row.id], tenant.settings);
    return "applied";
  });
}
