import { and, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { channelListingSlots, listings, marketingChannelInstances } from "../../../db/schema";
import { inTenantTransaction } from "../../../db/transaction";
import type { MemberCtx } from "../../context/verb-context";
import { invalid, notFound } from "../../errors/domain-errors";

export const SLOTS = ["standard", "featured", "super_featured"] as const;

export const SetSlotsSchema = z
  .strictObject({
    slots: z
      .array(
        z.strictObject({
          listingId: z.uuid().transform((v) => v.toLowerCase()),
          slot: z.enum(SLOTS).nullable().meta({ description: "null: back to `standard` (the default)." }),
        }),
      )
      .min(1)
      .max(1000)
      .refine((l) => new Set(l.map((x) => x.listingId)).size === l.length, "must not repeat a listing"),
  })
  .meta({ id: "SetChannelSlots" });

/** `PUT .../marketing-channels/{id}/slots`: each listing's placement on this portal. */
/** The answer of `setChannelSlots`: how many were set. */
export const SlotsSetSchema = z.object({ updated: z.number() });

export async function setChannelSlots(ctx: MemberCtx, { id, body }: { id: string; body: unknown }): Promise<z.infer<typeof SlotsSetSchema>> {
  const { slots } = SetSlotsSchema.parse(body);
  return inTenantTransaction(ctx.db, ctx.tenantId, async (tx) => {
    const [channel] = await tx
      .select({ id: marketingChannelInstances.id })
      .from(marketingChannelInstances)
      .where(and(eq(marketingChannelInstances.id, id), eq(marketingChannelInstances.tenantId, ctx.tenantId)))
      .limit(1);
    if (!channel) throw notFound(`Marketing channel ${id} not found.`);
    const ids = slots.map((s) => s.listingId);
    const known = new Set(
      (
        await tx
          .select({ id: listings.id })
          .from(listings)
          .where(and(eq(listings.tenantId, ctx.tenantId), inArray(listings.id, ids)))
      ).map((r) => r.id),
    );
    const missing = ids.find((l) => !known.has(l));
    if (missing) throw invalid(`body field \`slots\`: no listing ${missing} in this tenant.`);
    const clear = slots.filter((s) => s.slot === null || s.slot === "standard").map((s) => s.listingId);
    if (clear.length)
      await tx.delete(channelListingSlots).where(and(eq(channelListingSlots.channelInstanceId, id), inArray(channelListingSlots.listingId, clear)));
    const set = slots.filter((s) => s.slot && s.slot !== "standard");
    if (set.length) {
      await tx
        .insert(channelListingSlots)
        .values(set.map((s) => ({ tenantId: ctx.tenantId, channelInstanceId: id, listingId: s.listingId, slot: s.slot! })))
        .onConflictDoUpdate({
          target: [channelListingSlots.channelInstanceId, channelListingSlots.listingId],
          set: { slot: sql`excluded.slot`, updatedAt: new Date() },
        });
    }
    return { updated: slots.length };
  });
}
