/** Rules shared by the listing and property operations, written once for every description. */

export const ACCESS =
  "**Access.** A broad key of an `owner`, `admin` or `manager` member sees every listing of the tenant, private ones " +
  "included. A `restricted` key, and any key of a `broker` member, sees only what a broker sees in the UI: public " +
  "listings, plus the listings of properties assigned to or created by its member and listings it created, and it " +
  "may change or delete only the latter. A listing outside the key's view answers 404, exactly like one that does " +
  "not exist (and so does any id of another tenant).";

export const LISTING_FIELDS =
  '**Fields.** `price` is a decimal string with up to two places on input (`"450000"`, `"450000.5"`) and is always ' +
  "returned with two places (`\"450000.00\"`); `null` means no price. `isPrimaryMarket` is the text `'true'` or " +
  "`'false'` (not a boolean), default `'false'`; a listing with a `typologyId` is a development listing and gets " +
  "`'true'` (sending `'false'` with a `typologyId` is a 400). `listingCode` is generated when empty or omitted (a prefix " +
  "from the property type and a tenant counter, e.g. `AP0042`) and is unique per tenant: a code already used is a 409. " +
  "`stage` must be one of the tenant's workflow stages (default: the tenant's default stage) and `status` one of that " +
  "stage's statuses or `null`; moving to another stage without a `status` resets it to `null`. `typeSpecificData` " +
  "takes the keys of the listing `type` only (rental: `deposit`, `iptu`, `condominiumFee`, `rentalPeriod`, " +
  "`furnished`; sale: `downPayment`, `financingAllowed`, `iptu`, `condominiumFee`); when `type` changes, keys of the " +
  "other type are dropped. `publishedAt` is set the first time the listing reaches the tenant's active stage.";

export const TRANSLATIONS =
  "**Translations.** Portuguese always stays in `title` and `description`; `translations` holds only `en` and `es` " +
  "and never `pt-BR`. They are written only through the property endpoints, in a nested `listings[]` item (with the " +
  "listing's `id` to update an existing listing). A language must be enabled in the tenant's " +
  "`settings.listingLanguages`, else 400. `source` must be `manual` (the default; `ai` is set only by the CRM). " +
  "`translatedAt` defaults to the time of the write; `null` for a language removes it. `PATCH /listings/{id}` with " +
  "`translations` is a 400. No endpoint translates automatically.";

export const LISTING_EVENTS =
  "**Events.** Each change writes its outbound event in the same transaction: `listing.created`, `listing.updated` " +
  "(plus `listing.workflow.transitioned` when `stage` or `status` changes) and `listing.deleted`. An update that " +
  "changes nothing writes no event.";

export const PROPERTY_EVENTS =
  "**Events.** Written in the same transaction as the change: `property.created` / `property.updated` for the " +
  "property (only when a property field, the location or the photos are sent) and `listing.created` / " +
  "`listing.updated` / `listing.workflow.transitioned` for each nested listing that changes.";

export const TOO_MANY_PAGES = "`pageSize` above 100 is a 400, never clamped.";
