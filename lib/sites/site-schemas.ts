import { z } from "zod";
import { HttpUrlSchema, UrlOrPathSchema } from "../schemas/url";
import { parseDomain } from "./domain/domain-name";
import { SiteChatSchema } from "./site-chat";

/** Largest `puck_data` accepted, as JSON text: a page tree, not a media store. */
export const MAX_PUCK_DATA_BYTES = 512 * 1024;

/**
 * A host name: `www.imobiliaria.com.br`, an international name, `agencia.localhost`. Stored
 * normalized (lower case, ASCII, no port or trailing dot: lib/sites/domain/domain-name.ts), so
 * every spelling of one host is one name.
 */
export const DomainSchema = z
  .string()
  .max(300)
  .superRefine((v, ctx) => {
    const p = parseDomain(v);
    if (!p.ok) ctx.addIssue({ code: "custom", message: p.reason });
  })
  .meta({ example: "www.imobiliaria-exemplo.com.br" });

const PuckComponentSchema = z.looseObject({ type: z.string().min(1).max(100), props: z.record(z.string(), z.unknown()) });

/** Puck's data shape (`root`, `content[]` of `{type, props}`, optional legacy `zones`), stored as sent. */
export const PuckDataSchema = z
  .looseObject({
    root: z.looseObject({ props: z.record(z.string(), z.unknown()).optional() }),
    content: z.array(PuckComponentSchema).max(500),
    zones: z.record(z.string(), z.array(PuckComponentSchema)).optional(),
  })
  .refine((d) => Buffer.byteLength(JSON.stringify(d)) <= MAX_PUCK_DATA_BYTES, `must be at most ${MAX_PUCK_DATA_BYTES / 1024} KB as JSON`)
  .meta({ description: "Puck editor data: `root`, `content` (array of `{type, props}`), optional `zones`. At most 512 KB." });

const HexColor = z.string().regex(/^#[0-9a-fA-F]{6}$/, "must be a hex colour such as #0f766e");

export const SiteConfigurationSchema = z.strictObject({
  puck_data: PuckDataSchema.default({ root: { props: {} }, content: [] }),
  siteConfiguration: z
    .strictObject({
      brand: z
        .strictObject({
          logoUrl: UrlOrPathSchema.nullable().default(null),
          name: z.string().trim().max(120).nullable().default(null),
          primaryColor: HexColor.nullable().default(null),
        })
        .default({ logoUrl: null, name: null, primaryColor: null }),
      menu: z
        .array(
          z.strictObject({
            label: z.string().trim().min(1).max(80),
            // The label on the English and Spanish pages (`/en`, `/es`); blank or absent: `label`.
            label_en: z.string().trim().max(80).optional(),
            label_es: z.string().trim().max(80).optional(),
            href: z.string().max(2000),
          }),
        )
        .max(50)
        .default([]),
      footer: z.record(z.string(), z.unknown()).default({}),
    })
    .default({ brand: { logoUrl: null, name: null, primaryColor: null }, menu: [], footer: {} }),
  otherConfigs: z.record(z.string(), z.unknown()).nullable().default(null),
});

export const ListingCriteriaSchema = z.strictObject({
  propertyTypes: z.array(z.string().trim().min(1).max(60)).max(100).default([]).meta({ description: "Property type ids; empty: all." }),
  locations: z
    .array(z.string().trim().min(1).max(200))
    .max(200)
    .default([])
    .meta({ description: "Cities, states (UF) or neighborhoods the catalogue is limited to (any of them matches); empty: everywhere." }),
  marketType: z.enum(["primary", "secondary"]).optional(),
});

export const MetaPixelSchema = z.strictObject({
  pixelId: z.string().regex(/^\d{5,20}$/, "must be the numeric Meta pixel id"),
  events: z.strictObject({ viewContent: z.boolean().default(true), search: z.boolean().default(true), lead: z.boolean().default(true) }),
});

export const CreateSiteSchema = z
  .strictObject({
    name: z.string().trim().min(1).max(120),
    domain: DomainSchema,
    active: z.boolean().default(true),
    published: z.boolean().default(false),
    configuration: SiteConfigurationSchema.default({
      puck_data: { root: { props: {} }, content: [] },
      siteConfiguration: { brand: { logoUrl: null, name: null, primaryColor: null }, menu: [], footer: {} },
      otherConfigs: null,
    }),
    listingCriteria: ListingCriteriaSchema.default({ propertyTypes: [], locations: [] }),
    includeNetworkListings: z.boolean().default(false),
    metaPixel: MetaPixelSchema.nullable().default(null),
    chat: SiteChatSchema.nullable().default(null).meta({ description: "The site's web chat; null: no chat widget." }),
  })
  .meta({ id: "CreateSite" });

export const UpdateSiteSchema = z
  .strictObject({
    name: z.string().trim().min(1).max(120).optional(),
    domain: DomainSchema.optional(),
    active: z.boolean().optional(),
    published: z.boolean().optional(),
    configuration: SiteConfigurationSchema.optional(),
    listingCriteria: ListingCriteriaSchema.optional(),
    includeNetworkListings: z.boolean().optional(),
    metaPixel: MetaPixelSchema.nullable().optional(),
    chat: SiteChatSchema.nullable().optional(),
  })
  .meta({ id: "UpdateSite" });

export { HttpUrlSchema };
