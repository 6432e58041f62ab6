import { z } from "zod";
import { invalid } from "../errors/domain-errors";
import { UrlOrPathSchema } from "../schemas/url";
import { defaultDealWorkflow } from "./default-deal-workflow";
import { SharingConfigSchema } from "./sharing-config";
import { TimeZoneSchema } from "../schemas/time-zone";

/** Ids in tenant settings (stages, property types, features) are short slugs. */
const OptionId = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,47}$/, "must be a lowercase slug (a-z, 0-9, '_' or '-', at most 48 characters)");

export const OptionSchema = z.strictObject({ id: OptionId, label: z.string().trim().min(1).max(80) });

export const LanguageSchema = z.enum(["pt-BR", "en", "es"]);
export type Language = z.infer<typeof LanguageSchema>;

export const WorkflowStageSchema = z.strictObject({
  id: OptionId,
  label: z.string().trim().min(1).max(80),
  /** Allowed sub-statuses of the stage; empty means the stage takes no status. */
  statuses: z.array(z.string().trim().min(1).max(40)).max(30).default([]),
});

export const ListingWorkflowSchema = z
  .strictObject({
    stages: z.array(WorkflowStageSchema).min(1).max(30),
    /** The stage in which a listing is on air (sites, portals). */
    activeStageId: OptionId,
    terminalStageIds: z.array(OptionId).max(30).default([]),
    /** Stage given to a listing created without one. */
    defaultStageId: OptionId,
  })
  .superRefine((w, ctx) => {
    const ids = new Set(w.stages.map((s) => s.id));
    if (ids.size !== w.stages.length) ctx.addIssue({ code: "custom", path: ["stages"], message: "stage ids must be unique" });
    for (const key of ["activeStageId", "defaultStageId"] as const) {
      if (!ids.has(w[key])) ctx.addIssue({ code: "custom", path: [key], message: `'${w[key]}' is not one of the stages` });
    }
    w.terminalStageIds.forEach((id, i) => {
      if (!ids.has(id)) ctx.addIssue({ code: "custom", path: ["terminalStageIds", i], message: `'${id}' is not one of the stages` });
    });
  });

export const DealStageSchema = z.strictObject({
  id: OptionId,
  label: z.string().trim().min(1).max(80),
  /** Terminal stages carry the outcome a deal reaching them gets when no status is sent. */
  outcome: z.enum(["won", "lost"]).nullable().default(null),
});

export const DealWorkflowSchema = z
  .strictObject({
    stages: z.array(DealStageSchema).min(1).max(30),
    terminalStageIds: z.array(OptionId).max(30).default([]),
    /** Stage of a deal created without one. */
    defaultStageId: OptionId,
  })
  .superRefine((w, ctx) => {
    const ids = new Set(w.stages.map((s) => s.id));
    if (ids.size !== w.stages.length) ctx.addIssue({ code: "custom", path: ["stages"], message: "stage ids must be unique" });
    if (!ids.has(w.defaultStageId)) ctx.addIssue({ code: "custom", path: ["defaultStageId"], message: `'${w.defaultStageId}' is not one of the stages` });
    w.terminalStageIds.forEach((id, i) => {
      if (!ids.has(id)) ctx.addIssue({ code: "custom", path: ["terminalStageIds", i], message: `'${id}' is not one of the stages` });
    });
  });

/** Keys that `custom` reserves for search preferences; custom fields cannot take them. */
export const RESERVED_CUSTOM_KEYS = [
  "maxPrice",
  "minPrice",
  "budget",
  "locations",
  "propertyTypes",
  "bedrooms",
  "bathrooms",
  "minArea",
  "maxArea",
  "additionalNotes",
  "leadListings",
] as const;

export const CustomFieldSchema = z
  .strictObject({
    key: z
      .string()
      .regex(/^[A-Za-z][A-Za-z0-9_]{0,47}$/, "must start with a letter and use letters, digits or '_' (at most 48)")
      .refine((k) => !(RESERVED_CUSTOM_KEYS as readonly string[]).includes(k), "is reserved for search preferences"),
    label: z.string().trim().min(1).max(80),
    type: z.enum(["text", "number", "boolean", "date", "select"]),
    options: z.array(z.string().trim().min(1).max(80)).max(100).optional(),
  })
  .superRefine((f, ctx) => {
    if (f.type === "select" && !f.options?.length) ctx.addIssue({ code: "custom", path: ["options"], message: "a select field needs options" });
    if (f.type !== "select" && f.options) ctx.addIssue({ code: "custom", path: ["options"], message: "only select fields take options" });
    if (f.options && new Set(f.options).size !== f.options.length) ctx.addIssue({ code: "custom", path: ["options"], message: "must not repeat an option" });
  });

export type CustomField = z.infer<typeof CustomFieldSchema>;

const uniqueIds = (list: { id: string }[]) => new Set(list.map((o) => o.id)).size === list.length;

const CustomFieldsSchema = z
  .array(CustomFieldSchema)
  .max(200)
  .refine((l) => new Set(l.map((f) => f.key)).size === l.length, "keys must be unique");

/**
 * How channel leads are distributed. `preferListingBroker` is the "captador first" rule of
 * Brazilian agencies: a lead about a listing goes to that listing's responsible broker (when
 * active) instead of the channel's round robin.
 */
const LeadDistributionSchema = z.strictObject({ preferListingBroker: z.boolean() });

/**
 * Automatic translation of listings' Portuguese title and description into `targets` (each must
 * also be enabled in `listingLanguages`), by the tenant's model in the background.
 */
export const ListingTranslationSchema = z.strictObject({
  enabled: z.boolean(),
  targets: z
    .array(z.enum(["en", "es"]))
    .max(2)
    .refine((l) => new Set(l).size === l.length, "must not repeat a language"),
});

export const defaultListingTranslation = () => ({ enabled: false, targets: ["en", "es"] as ("en" | "es")[] });

/**
 * When the daily saved-search digests of the agency's sites go out: at `hour` o'clock in
 * `timeZone` (the agency's morning). Each null keeps the service's `SAVED_SEARCH_DIGEST_HOUR` /
 * `SAVED_SEARCH_TIMEZONE`.
 */
export const SavedSearchDigestSchema = z.strictObject({
  hour: z.number().int().min(0).max(23).nullable().meta({ description: "Local hour (0-23); null: the service's default (8)." }),
  timeZone: TimeZoneSchema.nullable().meta({ description: "IANA time zone, e.g. `America/Manaus`; null: the service's default (`America/Sao_Paulo`)." }),
});

export const defaultSavedSearchDigest = () => ({ hour: null, timeZone: null });

/** Every setting, each required: the shape a PATCH sends parts of (no defaults to sneak in). */
export const SettingsShapeSchema = z.strictObject({
  listingLanguages: z
    .array(LanguageSchema)
    .min(1)
    .refine((l) => l.includes("pt-BR"), "must include 'pt-BR' (Portuguese is always enabled)")
    .refine((l) => new Set(l).size === l.length, "must not repeat a language"),
  listingWorkflow: ListingWorkflowSchema,
  branding: z.strictObject({
    name: z.string().trim().min(1).max(120),
    logo: UrlOrPathSchema.nullable(),
    primaryColor: z.string().regex(/^#[0-9a-fA-F]{6}$/, "must be a hex colour such as #1f6feb"),
  }),
  propertyTypes: z.array(OptionSchema).min(1).max(100).refine(uniqueIds, "ids must be unique"),
  propertyFeatures: z.array(OptionSchema).max(300).refine(uniqueIds, "ids must be unique"),
  buildingFeatures: z.array(OptionSchema).max(300).refine(uniqueIds, "ids must be unique"),
  primaryMarketEnabled: z.boolean(),
  dealWorkflow: DealWorkflowSchema,
  customFields: CustomFieldsSchema,
  leadDistribution: LeadDistributionSchema,
  /** What share links show and when they may be made (spec 2 §2.8). */
  sharingConfig: SharingConfigSchema,
  /** Automatic listing translation (off by default). */
  listingTranslation: ListingTranslationSchema,
  /** The hour of daily saved-search digests (the service's default hour and zone by default). */
  savedSearchDigest: SavedSearchDigestSchema,
});

/** Stored settings: keys added after a tenant was created read as their defaults. */
export const TenantSettingsSchema = SettingsShapeSchema.extend({
  dealWorkflow: DealWorkflowSchema.default(defaultDealWorkflow),
  customFields: CustomFieldsSchema.default([]),
  leadDistribution: LeadDistributionSchema.default({ preferListingBroker: false }),
  sharingConfig: SharingConfigSchema.prefault({}),
  listingTranslation: ListingTranslationSchema.default(defaultListingTranslation),
  savedSearchDigest: SavedSearchDigestSchema.default(defaultSavedSearchDigest),
});

export type TenantSettings = z.infer<typeof TenantSettingsSchema>;
export type DealWorkflow = z.infer<typeof DealWorkflowSchema>;
export type ListingWorkflow = z.infer<typeof ListingWorkflowSchema>;

/** Spec 1 §2.2 rule 1: a language is written only when enabled, automatic translation included. */
export function assertTranslationTargetsEnabled(s: TenantSettings): void {
  if (!s.listingTranslation.enabled) return;
  const off = s.listingTranslation.targets.find((l) => !s.listingLanguages.includes(l));
  if (off) throw invalid(`listingTranslation.targets: '${off}' is not enabled in listingLanguages; enable it there first, or remove it from the targets.`);
}
