import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { FILTER_SCHEMA } from "../../search/fields";
import { ListingSearchPageSchema, ListingSearchQuery } from "../../search/listing-search";
import { API_KEY_SECURITY, UNAUTHORIZED_KEY, errors, ok } from "../common";

/**
 * The names a `filter` may use, grouped by type, from the parser's allow-list (`SEARCH_FIELDS`
 * plus `id` and `location`), so the description cannot drift from what the parser accepts.
 */
const FILTERABLE_FIELDS = (() => {
  const byType = new Map<string, string[]>();
  for (const [name, field] of Object.entries(FILTER_SCHEMA)) byType.set(field.type, [...(byType.get(field.type) ?? []), name]);
  return [...byType].map(([type, names]) => `*${type}*: ${names.map((n) => `\`${n}\``).join(", ")}`).join("; ");
})();

const FILTER =
  "Raw filter in the Typesense `filter_by` language, ANDed with the typed filters (up to 4,000 characters). A clause " +
  "is `field:value`, read according to the field's type. *Strings:* `field:words` needs every word of the value, in " +
  "any order; `field:=value` is exactly the value (both compare case-, accent- and punctuation-insensitively, so " +
  "`location_city:=sao paulo` matches `São Paulo`); `field:!=value` is not exactly it and `field:!words` lacks the " +
  "words; a value ending in `*` is a prefix (`location_neighborhood:=Jardim*`). " +
  "*Numbers:* `:` and `:=` equal, `:!=` not equal, `:<`, `:<=`, `:>`, `:>=`, and inclusive ranges `price:[300000..500000]`. " +
  "*Booleans:* lowercase `true` or `false`. *Lists* OR their items: `propertyType:=[apartment, house]`, " +
  "`price:[<100000, 800000..900000]`; `:!=[a, b]` matches none of them. *Geo:* `location:(-23.56, -46.69, 2 km)` is " +
  "within 2 km of the point (`mi` also works), `location:(lat1, lng1, lat2, lng2, lat3, lng3, ...)` inside the polygon. " +
  "*Ids:* `id:[<uuid>, <uuid>]`.\n\n" +
  "Join clauses with `&&` and `||`. They have **equal precedence and are evaluated left to right**: `a || b && c` " +
  "means `(a || b) && c`, so use parentheses to group, as in `location_city:=Campinas || (location_city:=Santos && " +
  "bedrooms:>=3)`. Wrap a value holding `(`, `)`, `,`, `[`, `]`, `&&` or `||` in backticks: " +
  "``title:=`Casa (fundos), 2` ``. Negations (`:!=`, `:!`) also match listings where the field is empty; positive " +
  "clauses never do. At most 100 operands and operators and 1,000 values. A malformed filter, an unknown field or a " +
  "value of the wrong type is a 400 `invalid_filter` whose message names the problem and its 0-based position, e.g. " +
  "``filter: Could not find a filter field named `foo` in the schema. (at position 0)``.\n\n" +
  `**Filterable fields**, by type: ${FILTERABLE_FIELDS}. \`createdAt\`, \`updatedAt\` and \`publishedAt\` are Unix ` +
  "epoch seconds; `price` is in BRL and areas in m²; `propertyType` holds the type id; `listingType` is `sale` or " +
  "`rental`; `marketType` is `primary` or `secondary`.";

/**
 * Query numbers are parsed as text then piped into a number range, and only the text side renders
 * (a string with a pattern, no bounds): give the documented types and bounds here. The `true` /
 * `false` texts render as booleans (their query form), and the repeatable lists as arrays.
 */
const Q = ListingSearchQuery.shape;
const ListingSearchQueryDoc = ListingSearchQuery.extend({
  query: Q.query.meta({
    description:
      "Free text over the title, the listing code and the address (street, neighborhood, city), up to 200 characters. " +
      "Portuguese full text, accent- and case-insensitive (`sao paulo` finds `São Paulo`, `apartamentos` finds " +
      "`apartamento`): every word must match, the last one as a prefix (`pinh` finds `Pinheiros`); `-word` excludes " +
      'listings with the word and `"two words"` needs them adjacent. When nothing matches, words of 4 or more letters ' +
      "are retried with typo tolerance (`pinheros` finds `Pinheiros`). Results come by relevance, then newest first; " +
      "omit it (or send `*`) to match everything, newest first.",
    example: "apartamento pinheiros",
  }),
  page: Q.page.meta({ type: "integer", minimum: 1, maximum: 10_000, default: 1, description: "Page number, 1 to 10,000." }),
  pageSize: Q.pageSize.meta({
    type: "integer",
    minimum: 1,
    maximum: 100,
    default: 20,
    description: "Items per page, 1 to 100 (default 20). Above 100 is a 400, never clamped.",
  }),
  type: Q.type.meta({ description: "Only `sale` or only `rental` listings." }),
  visibility: Q.visibility.meta({
    description:
      "Only `public` or only `private` listings; omit it for both. Private listings are only ever the ones the key may " +
      "see (see Access), and partner-network listings are always public.",
  }),
  hasPhotos: Q.hasPhotos.meta({ type: "boolean", description: "`true`: only listings with photos; `false`: only listings without." }),
  minPhotos: Q.minPhotos.meta({ type: "integer", minimum: 0, maximum: 1000, description: "Only listings with at least this many photos." }),
  hasVirtualTour: Q.hasVirtualTour.meta({
    type: "boolean",
    description: "`true`: only listings with a virtual tour; `false`: only listings without.",
  }),
  hasVideo: Q.hasVideo.meta({ type: "boolean", description: "`true`: only listings with a video; `false`: only listings without." }),
  bedrooms: Q.bedrooms.meta({
    type: "integer",
    minimum: 0,
    maximum: 99,
    description: "Minimum number of bedrooms; listings without a bedroom count do not match.",
  }),
  minArea: Q.minArea.meta({ type: "number", description: "Minimum total area in m² (a decimal with `.`); listings without an area do not match." }),
  maxArea: Q.maxArea.meta({ type: "number", description: "Maximum total area in m² (a decimal with `.`); listings without an area do not match." }),
  budget: Q.budget.meta({ type: "number", description: "Maximum price in BRL, inclusive (a decimal with `.`); listings without a price do not match." }),
  propertyTypes: Q.propertyTypes.meta({
    type: "array",
    items: { type: "string" },
    description:
      "Property types, each the id (`apartment`) or the label (`Apartamento`, compared case- and accent-insensitively) " +
      "of one of the tenant's `settings.propertyTypes`; a listing of any of them matches. Repeat the key " +
      "(`propertyTypes=house&propertyTypes=apartment`) or separate with commas (`propertyTypes=house,apartment`). A " +
      "value that is neither an id nor a label is a 400.",
  }),
  locations: Q.locations.meta({
    type: "array",
    items: { type: "string" },
    description:
      "Neighborhoods, cities or streets; repeat the key or separate with commas. A listing matches when any value is " +
      "exactly its neighborhood or its city, or when its street contains every word of the value (`locations=Pinheiros," +
      "Rua Augusta`). Compared case- and accent-insensitively.",
  }),
  neighborhood: Q.neighborhood.meta({
    description: "Only listings in exactly this neighborhood, compared case- and accent-insensitively (`jardim america` matches `Jardim América`).",
  }),
  city: Q.city.meta({
    description: "Only listings in exactly this city, compared case- and accent-insensitively (`sao paulo` matches `São Paulo`, not `São Paulo do Potengi`).",
  }),
  state: Q.state.meta({ description: "Only listings in exactly this state, compared case- and accent-insensitively (`sp` matches `SP`)." }),
  latitude: Q.latitude.meta({
    type: "number",
    minimum: -90,
    maximum: 90,
    description: "Latitude of the centre of a radius search. Send `latitude`, `longitude` and `radiusKm` together: one or two alone is a 400.",
  }),
  longitude: Q.longitude.meta({
    type: "number",
    minimum: -180,
    maximum: 180,
    description: "Longitude of the centre of a radius search (with `latitude` and `radiusKm`).",
  }),
  radiusKm: Q.radiusKm.meta({
    type: "number",
    exclusiveMinimum: 0,
    maximum: 1000,
    description: "Radius in km around `latitude`/`longitude`, above 0 and at most 1,000, measured on the sphere. Listings without coordinates do not match.",
  }),
  filter: Q.filter.meta({ description: FILTER, example: "bedrooms:>=2 && (hasPhotos:true || location_city:=Campinas)" }),
  includeNetworks: Q.includeNetworks.meta({
    type: "boolean",
    default: true,
    description:
      "`true` (the default) adds the public listings that other agencies share to the partner networks the tenant " +
      "belongs to (`/api/v1/settings/networks`), marked `isNetworkListing: true`; `false` searches the tenant's own listings only.",
  }),
});

const ACCESS =
  "**Access.** The tenant filter and the key's access filter are applied outside the caller's filters and combined " +
  "with them by AND, so no `filter` can widen them: it only ever narrows the set. A broad key of an `owner`, `admin` " +
  "or `manager` member searches every listing of the tenant, private ones included. A `restricted` key, and any key of " +
  "a `broker` member, sees the public listings plus its member's own: listings assigned to or created by the member, " +
  "and those of properties it created.";

const NETWORKS =
  "**Partner networks.** With `includeNetworks` (default `true`), the public listings that other agencies shared to a " +
  "network this tenant belongs to are added, with `isNetworkListing: true`; their private listings never are. A " +
  "network item holds only the search summary below, never the owner agency's contacts or internal data. Networks " +
  "are managed under `/api/v1/settings/networks`.";

const CONSISTENCY =
  "**Consistency.** With the PostgreSQL engine (the default) the search index is written in the same transaction as " +
  "the listing, so results reflect a change as soon as it commits; with the Typesense engine (when the installation " +
  "configures `TYPESENSE_URL`) a change shows within seconds. Use `GET /api/v1/real-estate/listings` for the full row.";

export function registerSearchPaths(r: OpenAPIRegistry): void {
  r.registerPath({
    method: "get",
    path: "/api/v1/real-estate/listings/search",
    tags: ["Listings"],
    operationId: "searchListings",
    summary: "Search listings",
    description:
      "Rich search over the listing index: free text (`query`), typed filters, a raw `filter` expression and radius " +
      "search, all combined with AND. Envelope `{items, total, page, pageSize}`; `page` defaults to 1 and `pageSize` " +
      "to 20 with a maximum of 100 (above is a 400, never clamped). A page past the end has empty `items` with the " +
      "full `total`. Each item is a summary: `price` is a number (not a decimal string), `features.area` is the total " +
      "area in m², `features.rooms` the bedrooms, `features.garageSpots` the parking spots, timestamps are ISO 8601 " +
      "UTC. Unknown or misspelled query parameters are a 400 instead of being ignored.\n\n" +
      `${ACCESS}\n\n${NETWORKS}\n\n${CONSISTENCY}`,
    security: API_KEY_SECURITY,
    request: { query: ListingSearchQueryDoc },
    responses: {
      200: ok("One page of matching listings.", ListingSearchPageSchema),
      ...errors({
        400: "Invalid query (`invalid_request`, with `issues` for schema errors): a number that is not one or out of range (`pageSize` > 100, `latitude` beyond ±90...), an invalid enum or boolean, `latitude`, `longitude` and `radiusKm` not sent together, a `propertyTypes` value that is neither an id nor a label of the tenant's property types, or an unknown parameter. A malformed `filter`, an unknown field in it or a value of the wrong type is `invalid_filter`, with the 0-based position in the message.",
        401: UNAUTHORIZED_KEY,
      }),
    },
  });
}
