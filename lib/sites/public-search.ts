import { z } from "zod";
import type { DbOrTx } from "../../db/client";
import type { SiteRow } from "../../db/schema";
import { searchEngine } from "../search/search-engine";
import { toSearchRequest } from "../search/params";
import { PublicListingDocumentSchema, toPublicDocument } from "./public-document";
import { PUBLIC_FILTER_SCHEMA, PUBLIC_SEARCH_FIELDS, SITE_DEFAULT_QUERY_BY } from "./public-fields";
import { siteCatalogue } from "./site-catalogue";

export const MAX_PUBLIC_PER_PAGE = 250;

/** The search body of spec 2 §4 (Typesense's parameters); unknown keys are a 400. */
export const PublicSearchBody = z
  .strictObject({
    q: z.string().max(500).default("*").meta({ description: "Words to find, `*` for everything." }),
    query_by: z.string().max(500).optional().meta({ description: "Comma-separated public text fields; default the Portuguese copy and the address." }),
    filter_by: z.string().max(4000).optional().meta({ example: "bedrooms:>=2 && price:<1000000" }),
    sort_by: z.string().max(300).optional().meta({ example: "price:asc" }),
    facet_by: z.string().max(500).optional().meta({ example: "propertyType,location_neighborhood" }),
    max_facet_values: z.int().min(1).max(100).optional(),
    per_page: z.int().min(0).max(MAX_PUBLIC_PER_PAGE, `must be at most ${MAX_PUBLIC_PER_PAGE}`).default(10),
    page: z.int().min(1).max(10_000).default(1),
  })
  .meta({ id: "PublicSearchBody" });

/** The answer of `searchSite`, Typesense's result shape. */
export const PublicSearchResultSchema = z
  .object({
    found: z.number(),
    hits: z.array(z.object({ document: PublicListingDocumentSchema, highlights: z.array(z.object({ field: z.string(), snippet: z.string() })) })),
    facet_counts: z.array(z.object({ field_name: z.string(), counts: z.array(z.object({ value: z.string(), count: z.number() })) })),
    page: z.number(),
    search_time_ms: z.number(),
  })
  .meta({ id: "PublicSearchResult" });

export type PublicSearchResult = z.infer<typeof PublicSearchResultSchema>;

/** `POST /api/sites/{siteId}/search`: the site's catalogue, through the same engine as the CRM. */
export async function searchSite(db: DbOrTx, site: SiteRow, input: unknown): Promise<PublicSearchResult> {
  const body = PublicSearchBody.parse(input);
  const { scope, criteria } = await siteCatalogue(db, site);
  const req = toSearchRequest(body, {
    maxPerPage: MAX_PUBLIC_PER_PAGE,
    defaultQueryBy: SITE_DEFAULT_QUERY_BY,
    extraFilters: criteria,
    fields: { allowed: PUBLIC_SEARCH_FIELDS, filterSchema: PUBLIC_FILTER_SCHEMA },
  });
  const result = await (await searchEngine()).search(scope, req);
  return {
    found: result.found,
    hits: result.hits.map((h) => ({
      document: toPublicDocument(h.document, { detail: false }),
      // Highlights only on fields the public document has (query_by is already limited to them).
      highlights: h.highlights.filter((x) => PUBLIC_SEARCH_FIELDS.has(x.field)).map((x) => ({ field: x.field, snippet: x.snippet })),
    })),
    facet_counts: result.facet_counts.map((f) => ({ field_name: f.field_name, counts: f.counts.map((c) => ({ value: c.value, count: c.count })) })),
    page: result.page,
    search_time_ms: result.search_time_ms,
  };
}
