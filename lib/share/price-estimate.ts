import { z } from "zod";
import type { Db } from "../../db/client";
import type { TenantRow } from "../tenants/tenant-row";
import { invalid } from "../errors/domain-errors";
import { memberNetworkIds } from "../networks/networks";
import { requireCity } from "./pricing-link";
import type { ShareVisitorCtx } from "./share-visitor";
import { findNeighborhood, loadCandidates, neighborhoodKey } from "./valuation/comparables";
import { band, estimate, K, MIN_COMPARABLES, Z, type Valuation } from "./valuation/estimate";

const Count = z.int().min(0).max(50).nullable().optional();

/** The flat property profile the pricing tool values (also the `property` of a pricing lead). */
export const PricingProfileShape = {
  city: z.string().trim().min(1).max(120).meta({ description: "A city `code` of the tool (`pricingTool.cities[].code`)." }),
  neighborhood: z.string().trim().min(1).max(120).meta({ description: "Best sent as a name from `/neighborhoods`; matched ignoring accents and case." }),
  propertyType: z.string().trim().min(1).max(48).meta({ description: "One of the tenant's property type ids (`tenantConfig.propertyTypes`)." }),
  bedrooms: Count,
  bathrooms: Count,
  parkingSpaces: Count,
  totalArea: z.number().positive().max(1_000_000).meta({ description: "m²" }),
};
export const PriceEstimateBody = z.strictObject(PricingProfileShape).meta({ id: "PricingProfile" });
export type PricingProfile = z.infer<typeof PriceEstimateBody>;

const DISTANCE_BANDS = ["under_1km", "1_to_3km", "3_to_5km", "over_5km"] as const;

export const PriceEstimateSchema = z
  .object({
    estimate: z.object({ value: z.number(), low: z.number(), high: z.number() }).nullable().meta({
      description: "BRL, rounded to three significant figures; null when fewer than 3 comparables exist. Send it back as the pricing lead's `estimate`.",
    }),
    currency: z.literal("BRL"),
    pricePerSqm: z.number().nullable().meta({ description: "The comparables' weighted median price per m², in BRL." }),
    confidence: z.object({
      score: z.number().min(0).max(1).meta({ description: "1 − the forecast standard deviation relative to the value (0 when there is no estimate)." }),
      level: z.enum(["high", "medium", "low"]).meta({ description: "high ≥ 0.85, medium ≥ 0.70, else low; fewer than 6 comparables is at most medium." }),
      comparables: z.int().meta({ description: "How many comparables the estimate used (at most 12)." }),
    }),
    explanation: z.object({
      method: z.string().meta({ description: "One sentence saying how the estimate was made." }),
      neighborhood: z
        .string()
        .nullable()
        .meta({ description: "The neighbourhood as matched (canonical spelling), or null when the tenant has no listing there." }),
      comparables: z
        .array(
          z.object({
            neighborhood: z.string(),
            totalArea: z.number().meta({ description: "m², rounded to 5." }),
            bedrooms: z.int().nullable(),
            pricePerSqm: z.number().meta({ description: "BRL per m², rounded to 100." }),
            distanceBand: z.enum(DISTANCE_BANDS).meta({ description: "Distance from the middle of the subject's neighbourhood." }),
          }),
        )
        .meta({ description: "The comparables used, most similar first, anonymised: no ids, address, exact area or price." }),
    }),
  })
  .meta({ id: "PriceEstimate" });
export type PriceEstimate = z.infer<typeof PriceEstimateSchema>;

/** What the verb needs from the profile; the benchmark passes `excludeListingId` for leave-one-out. */
export type ValuationInput = PricingProfile & { excludeListingId?: string };

function assertType(tenant: TenantRow, type: string): void {
  const ids = tenant.settings.propertyTypes.map((t) => t.id);
  if (!ids.includes(type)) throw invalid(`propertyType: '${type.slice(0, 48)}' is not one of this tenant's property types (${ids.join(", ")}).`);
}

const methodSentence = (v: Valuation | null, n: number) =>
  v
    ? `Median price per m² of the ${v.used.length} most similar listings for sale (nearest by location, then size, bedrooms, bathrooms and parking), times the area; the range is ±${Z} forecast standard deviations of their spread.`
    : `Not enough comparable listings for sale (${n} found, at least ${MIN_COMPARABLES} needed): a broker will value this property personally.`;

/** The valuation of a profile for a tenant (already resolved from its token). */
export async function valueProperty(db: Db, tenant: TenantRow, input: ValuationInput): Promise<PriceEstimate> {
  assertType(tenant, input.propertyType);
  const place = await requireCity(db, tenant.id, input.city);
  const where = {
    tenantId: tenant.id,
    networkIds: tenant.settings.sharingConfig.pricingTool.includeNetworkListings ? await memberNetworkIds(db, tenant.id) : [],
    terminalStages: tenant.settings.listingWorkflow.terminalStageIds,
    place: { city: place.city, state: place.state },
  };
  const nb = await findNeighborhood(db, where, input.neighborhood);
  const candidates = await loadCandidates(db, {
    ...where,
    propertyType: input.propertyType,
    totalArea: input.totalArea,
    neighborhood: nb?.name ?? null,
    center: nb?.center ?? null,
    excludeListingId: input.excludeListingId,
  });
  const subjectKey = nb ? neighborhoodKey(nb.name) : null;
  const v = estimate(
    {
      neighborhoodKey: subjectKey,
      lat: nb?.center?.lat ?? null,
      lng: nb?.center?.lng ?? null,
      totalArea: input.totalArea,
      bedrooms: input.bedrooms ?? null,
      bathrooms: input.bathrooms ?? null,
      parkingSpaces: input.parkingSpaces ?? null,
      propertyType: input.propertyType,
    },
    candidates,
  );
  return {
    estimate: v ? { value: v.value, low: v.low, high: v.high } : null,
    currency: "BRL",
    pricePerSqm: v?.pricePerSqm ?? null,
    confidence: v ? { score: v.score, level: v.level, comparables: v.used.length } : { score: 0, level: "low", comparables: 0 },
    explanation: {
      method: methodSentence(v, Math.min(candidates.length, K)),
      neighborhood: nb?.name ?? null,
      comparables: (v?.used ?? []).map((u) => ({
        neighborhood: u.c.neighborhood,
        totalArea: Math.max(5, Math.round(u.c.totalArea / 5) * 5),
        bedrooms: u.c.bedrooms,
        pricePerSqm: Math.round(u.c.price / u.c.totalArea / 100) * 100,
        distanceBand: band(u.km, subjectKey !== null && u.c.neighborhoodKey === subjectKey),
      })),
    },
  };
}

/** `POST /api/sites/share/{token}/price-estimate`. */
export async function priceEstimate(ctx: ShareVisitorCtx, body: unknown): Promise<PriceEstimate> {
  return valueProperty(ctx.db, ctx.actor.tenant, PriceEstimateBody.parse(body));
}
