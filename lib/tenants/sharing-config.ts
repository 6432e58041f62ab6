import { and, eq } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../db/client";
import { messagingChannels, sites } from "../../db/schema";
import { invalid } from "../errors/domain-errors";

const StageList = z.array(z.string().trim().min(1).max(48)).max(30);

/** A host name (optionally with a port), as a site's domain is written. */
const Host = z
  .string()
  .trim()
  .toLowerCase()
  .regex(
    /^(?=.{1,253}(:|$))([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*(:\d{1,5})?$/,
    "must be a host name such as imoveis.example.com",
  );

const ShareDomainSchema = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("auto") }),
  z.strictObject({ type: z.literal("site"), siteId: z.uuid().meta({ description: "One of the tenant's sites; links use its domain." }) }),
  z.strictObject({
    type: z.literal("custom"),
    custom: z.strictObject({
      mode: z.enum(["proxy", "api"]),
      domain: Host,
      pathTemplate: z
        .string()
        .trim()
        .max(200)
        .regex(/^\/[^\s?#]*(\?[^\s#]*)?$/, "must be a path starting with '/'")
        .refine((p) => p.split("{token}").length === 2, "must contain {token} exactly once"),
    }),
  }),
]);

/**
 * The tenant's share configuration (spec 2 §2.8). Every key has a default, so a PATCH may send
 * only the keys it changes inside `sharingConfig` (the object itself is replaced whole). Defaults
 * lean private where the spec names none: neighbourhood-level address and approximate coordinates.
 */
export const SharingConfigSchema = z
  .strictObject({
    fieldVisibility: z
      .strictObject({
        address: z.enum(["full", "neighborhood_only", "city_only", "hidden"]).default("neighborhood_only"),
        coordinates: z.enum(["exact", "approximate", "hidden"]).default("approximate"),
        financials: z.enum(["visible", "hidden"]).default("visible"),
        price: z.enum(["inherit", "hidden"]).default("inherit"),
        listingCode: z.enum(["visible", "hidden"]).default("visible"),
        agentInfo: z.enum(["visible"]).default("visible"),
      })
      .prefault({}),
    showFinancialSimulator: z.boolean().default(true),
    restrictions: z
      .strictObject({
        hideSharesForStages: StageList.default([]),
        preventCreationForStages: StageList.default([]),
        preventCreationForStatuses: z.array(z.string().trim().min(1).max(40)).max(60).default([]),
        autoHideTerminalStages: z.boolean().default(true),
      })
      .prefault({}),
    defaultShareDomain: ShareDomainSchema.default({ type: "auto" }),
    pricingTool: z
      .strictObject({
        sellerIntentCreates: z.enum(["deal", "deal_and_draft_listing"]).default("deal"),
        includeNetworkListings: z
          .boolean()
          .default(false)
          .meta({ description: "Extension: the valuation also uses partner networks' shared listings on air (default off, like a site's catalogue)." }),
      })
      .prefault({}),
    chatChannelId: z
      .uuid()
      .transform((v) => v.toLowerCase())
      .nullable()
      .default(null)
      .meta({ description: "A `web_chat` messaging channel of the tenant: share pages then carry its chat widget. Null: no chat on share pages." }),
  })
  .meta({ id: "SharingConfig" });

export type SharingConfig = z.infer<typeof SharingConfigSchema>;
export const defaultSharingConfig = (): SharingConfig => SharingConfigSchema.parse({});

/** A `site` share domain must name one of the tenant's own sites; a chat channel, one of its `web_chat` channels. */
export async function assertSharingConfigFits(db: DbOrTx, tenantId: string, cfg: SharingConfig): Promise<void> {
  if (cfg.chatChannelId) {
    const [c] = await db
      .select({ transport: messagingChannels.transport })
      .from(messagingChannels)
      .where(and(eq(messagingChannels.id, cfg.chatChannelId), eq(messagingChannels.tenantId, tenantId)))
      .limit(1);
    if (!c) throw invalid(`sharingConfig.chatChannelId: '${cfg.chatChannelId}' is not one of this tenant's messaging channels.`);
    if (c.transport !== "web_chat") throw invalid(`sharingConfig.chatChannelId: channel '${cfg.chatChannelId}' is a '${c.transport}' channel, not 'web_chat'.`);
  }
  const d = cfg.defaultShareDomain;
  if (d.type !== "site") return;
  const [site] = await db
    .select({ id: sites.id })
    .from(sites)
    .where(and(eq(sites.id, d.siteId), eq(sites.tenantId, tenantId)))
    .limit(1);
  if (!site) throw invalid(`sharingConfig.defaultShareDomain.siteId: '${d.siteId}' is not one of this tenant's sites.`);
}
