import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { ListDealsQuery } from "../../deals/list-query";
import { CreateDealSchema, UpdateDealSchema } from "../../deals/schemas";
import { CreatedDealSchema, DealDetailSchema, DealPageSchema, DealSchema, DeletedDealSchema } from "../../deals/serialize";
import { API_KEY_SECURITY, TOO_LARGE, UNAUTHORIZED_KEY, errors, ok, uuidParam } from "../common";
import { TOO_MANY_PAGES } from "./listing-texts";

/**
 * `page` and `pageSize` are parsed as text then piped into a number range, and only the text side
 * renders (a string with a digits pattern, no bounds): give the documented integer bounds here.
 * `customFilters` is text parsed as JSON by a transform, which renders as a bare string.
 */
const ListDealsQueryDoc = ListDealsQuery.extend({
  page: ListDealsQuery.shape.page.meta({ type: "integer", minimum: 1, default: 1, description: "Page number, from 1." }),
  pageSize: ListDealsQuery.shape.pageSize.meta({
    type: "integer",
    minimum: 1,
    maximum: 100,
    default: 50,
    description: "Items per page, 1 to 100 (default 50). Above 100 is a 400, never clamped.",
  }),
  stage: ListDealsQuery.shape.stage.meta({
    description: "Only deals in this stage of the tenant's deal workflow (an unknown stage matches none).",
  }),
  assignedToId: ListDealsQuery.shape.assignedToId.meta({ description: "Only deals whose responsible member is this one." }),
  marketingChannelInstanceId: ListDealsQuery.shape.marketingChannelInstanceId.meta({
    description: "Only deals attributed to this marketing channel.",
  }),
  customFilters: ListDealsQuery.shape.customFilters.meta({
    description:
      "URL-encoded JSON object of `custom` keys to scalar values (string, number or boolean): only deals whose " +
      '`custom` has each key equal to its value match, with JSON types compared as well (`2` does not match `"2"`). ' +
      "Keys whose stored value is an array (such as `locations`) never match. Malformed JSON, anything but an object, " +
      "or a `null`, array or object value is a 400.",
    example: '{"origem":"portal"}',
  }),
});

const ACCESS =
  "**Access.** A broad key of an `owner`, `admin` or `manager` member sees and changes every deal of the tenant. A " +
  "`restricted` key, and any key of a `broker` member, sees and changes only deals assigned to or created by its " +
  "member: any other deal answers 404, exactly like one that does not exist (and so does any id of another tenant), " +
  "and lists leave it out. A `restricted` key assigns deals only to its own member: another assignee is a 403.";

const FIELDS =
  "**Fields.** `stage` must be one of the tenant's deal stages (`settings.dealWorkflow.stages`; by default `draft`, " +
  "`lead`, `qualificacao`, `visita`, `proposta`, `negociacao`, `fechamento`, `ganho`, `perdido`), else 400. `status` is " +
  "`open`, `won` or `lost`. A stage with an `outcome` in the workflow (`ganho` → `won`, `perdido` → `lost` by default) " +
  "sets the status to that outcome when the deal reaches it, unless `status` is sent in the same request. `currency` " +
  'is an ISO 4217 code. `amount` is a decimal string with up to two places on input (`"450000"`), returned with two ' +
  '(`"450000.00"`); `null` means none. The attribution fields `utmSource`, `utmMedium`, `utmCampaign`, `source`, ' +
  "`campaign` and `marketingChannelInstanceId` go at the top level, never inside `custom`; " +
  "`marketingChannelInstanceId` must be a marketing channel of the tenant (`/api/v1/settings/marketing-channels`), " +
  "else 400.";

const CONTACTS =
  "**Contacts.** `contacts` holds 1 to 20 people, each with `name`, `role` (`buyer`, `seller`, `tenant`, `landlord`, " +
  "`guarantor`, `spouse`, `attorney`, `investor`, `other`) and an `email` or a `phone` (at least one of the two). " +
  "`phone` takes any format and is stored as E.164, Brazil assumed without a country code (an invalid number is a " +
  "400); `email` is lower-cased; `cpf` is optional, accepted with or without punctuation, must have valid check " +
  "digits, and is stored as its 11 digits. Contacts are records of the tenant shared between deals: a contact with " +
  "the same phone (looked up first), else the same e-mail, is reused rather than duplicated and gains the e-mail, " +
  "phone or CPF it lacked (its stored name is kept). A person listed twice in one deal keeps the first role. Reads " +
  "return each contact with its `id`.";

const ASSIGNMENT =
  "**Assignment.** The responsible member is taken from `assignedToId`, else `assignedToEmail` (compared " +
  "case-insensitively), else `assignedToPhone` (any format, compared as E.164): only the first of these that is sent " +
  "counts, and it is matched against the tenant's active members only. No match is a 400 and nothing is created or " +
  "changed. `assignedToEmail` and `assignedToPhone` are input only: they are resolved to `assignedToId` and never " +
  "stored or returned. `assignedToId: null` leaves the deal unassigned. Reads return `assignedToId` only, with no " +
  "broker name, photo or phone.";

const CUSTOM =
  "**Custom data.** `custom` is stored as the deal's `customData` and returned as `custom`. Search preferences are " +
  "typed: `maxPrice`, `minPrice`, `budget`, `minArea`, `maxArea` (numbers, 0 or more; areas in m²), `bedrooms`, " +
  "`bathrooms` (whole-number minimums, 0 to 99), `locations` and `propertyTypes` (arrays of up to 50 names; cities and " +
  "neighbourhoods go in `locations`), `additionalNotes` (text up to 5,000 characters, the search narrative). " +
  "`leadListings` is an array of `{listingId}` objects: only listing UUIDs are kept (a listing code or any other " +
  "value there is dropped, as are other properties of an item, and repeats are merged), and each UUID must be a " +
  "listing of the tenant that the key can read, else 400 (a restricted key's answer for a colleague's private listing is the same as for an unknown id). Any other key must be a custom field configured in `settings.customFields` and " +
  "match its type (`text`: a string; `number`; `boolean`; `date`: `YYYY-MM-DD`; `select`: one of its `options`); an " +
  "unconfigured key is a 400. There is no native consent or deadline field: use a custom field or `additionalNotes`.";

const EVENTS =
  "**Events.** Written in the same transaction as the change: `deal.created`, `deal.updated` (with the previous state " +
  "as `old`) and `deal.deleted`, each carrying the deal row (`customData`, `contacts` and `assignedToId` included).";

const RESTRICTED_ASSIGN = "A `restricted` key assigning the deal to a member other than its own (`forbidden`).";
const NOT_FOUND = "No such deal in the tenant, or (restricted keys) one not assigned to or created by the key's member (`not_found`).";

/** Contacts are unique per tenant by phone and by e-mail; only a race between two writes can collide. */
const CONTACT_RACE = "Another request created a contact with the same phone or e-mail at the same moment (`conflict`); retrying reuses that contact.";

const dealId = uuidParam("id", "deal");

const CREATE_EXAMPLE = {
  title: "Compra apartamento Pinheiros",
  dealType: "sale",
  amount: "850000",
  contacts: [{ name: "Paula Lima", phone: "(11) 91234-5678", email: "paula@example.com", role: "buyer" }],
  assignedToEmail: "corretor@example.com",
  custom: {
    maxPrice: 900000,
    bedrooms: 2,
    locations: ["Pinheiros", "São Paulo"],
    leadListings: [{ listingId: "3fa85f64-5717-4562-b3fc-2c963f66afa6" }],
  },
  utmSource: "google",
  utmCampaign: "lancamentos-sp",
};

const UPDATE_EXAMPLE = {
  id: "3fa85f64-5717-4562-b3fc-2c963f66afa6",
  data: { stage: "proposta", custom: { bedrooms: 3, additionalNotes: null } },
};

export function registerDealPaths(r: OpenAPIRegistry): void {
  r.registerPath({
    method: "get",
    path: "/api/v1/crm/deals",
    tags: ["Deals"],
    operationId: "listDeals",
    summary: "List deals",
    description:
      "Deals with their contacts, newest first (`createdAt` descending). Envelope `{items, total, page, pageSize}`. " +
      `\`page\` defaults to 1 and \`pageSize\` to 50 with a maximum of 100: ${TOO_MANY_PAGES} A page past the end has ` +
      "empty `items`. Filters combine with AND; `customFilters` filters on `custom` keys by equality, e.g. " +
      '`customFilters=%7B%22origem%22%3A%22portal%22%7D` for `{"origem":"portal"}`. Unknown or misspelled query ' +
      `parameters are a 400 instead of being ignored.\n\n${ACCESS}`,
    security: API_KEY_SECURITY,
    request: { query: ListDealsQueryDoc },
    responses: {
      200: ok("One page of deals.", DealPageSchema),
      ...errors({
        400: "Invalid query: `page` or `pageSize` not a whole number or out of range (`pageSize` > 100), an invalid enum value or UUID, `customFilters` that is not a URL-encoded JSON object of scalar values, or an unknown parameter (`invalid_request` with `issues`).",
        401: UNAUTHORIZED_KEY,
      }),
    },
  });

  r.registerPath({
    method: "post",
    path: "/api/v1/crm/deals",
    tags: ["Deals"],
    operationId: "createDeal",
    summary: "Create a deal",
    description:
      "Creates the deal and its contacts in one transaction: if any part is invalid nothing is written. Required: " +
      "`title`, `dealType` and `contacts`. Defaults: `stage` is the tenant's `settings.dealWorkflow.defaultStageId` " +
      "(`draft` unless the tenant changed it), `status` `open` (or the stage's outcome), `currency` `BRL`. Answers the " +
      "short form (`id`, `title`, `dealType`, `stage`, `status`, `currency`, `createdAt`); read the full deal with " +
      "`GET /api/v1/crm/deals/{id}`. There is no idempotency key: sending the same body twice creates two deals.\n\n" +
      "When no assignment field is sent, the deal belongs to the member of the key that creates it; with a " +
      "`marketingChannelInstanceId` it is instead distributed round robin over that channel's queue (inactive members " +
      "skipped), which also writes `distribution.assigned`, and it stays unassigned when the queue has no active " +
      `member.\n\n${FIELDS}\n\n${CONTACTS}\n\n${ASSIGNMENT}\n\n${CUSTOM}\n\n${ACCESS}\n\n${EVENTS}`,
    security: API_KEY_SECURITY,
    request: { body: { required: true, content: { "application/json": { schema: CreateDealSchema, example: CREATE_EXAMPLE } } } },
    responses: {
      201: ok("The new deal, short form.", CreatedDealSchema),
      ...errors({
        400: "Invalid body (`invalid_request` with `issues` naming fields such as `contacts.0.phone`, or `invalid_json`): a required field missing, no contact, a contact with neither e-mail nor phone, an invalid phone, e-mail or CPF, an unknown field; a stage not in the tenant's deal workflow; an assignment field that matches no active member; a `marketingChannelInstanceId` that is not a channel of the tenant; a `custom` key that is neither a search preference nor a configured custom field, a value of the wrong type, or a `leadListings` UUID that is not a listing of the tenant.",
        401: UNAUTHORIZED_KEY,
        403: RESTRICTED_ASSIGN,
        409: CONTACT_RACE,
        413: TOO_LARGE,
      }),
    },
  });

  r.registerPath({
    method: "get",
    path: "/api/v1/crm/deals/{id}",
    tags: ["Deals"],
    operationId: "getDeal",
    summary: "Read one deal",
    description:
      "The deal with its contacts (each with its `id`), `custom` and attribution fields. The responsible member is " +
      "returned as `assignedToId` only, with no broker name, photo or phone. `interests` lists the listings the deal's " +
      "person favoured, compared or viewed on the agency's site: what a visitor did anonymously is attached when they " +
      "identify (lead form or web chat with the browser's `visitorId`), and later favourites of the same browser are added. " +
      "`savedSearches` lists the site's saved searches that became this deal's lead, with their filters (what the buyer wants)." +
      `\n\n${ACCESS}`,
    security: API_KEY_SECURITY,
    request: { params: dealId },
    responses: {
      200: ok("The deal.", DealDetailSchema),
      ...errors({ 401: UNAUTHORIZED_KEY, 404: NOT_FOUND }),
    },
  });

  r.registerPath({
    method: "patch",
    path: "/api/v1/crm/deals/{id}",
    tags: ["Deals"],
    operationId: "updateDeal",
    summary: "Change a deal",
    description:
      "Body `{id, data}`: `id` must be the deal id of the path (another id is a 400) and `data` holds the fields to " +
      "change, at least one; fields not sent are kept. `data.custom` merges key by key into the stored custom data: a " +
      "key sent replaces that key, `null` removes it, keys not sent stay. `data.contacts`, when sent, replaces the " +
      "deal's whole contact list. Moving to another `stage` without `status` sets the stage's outcome when it has one " +
      "and otherwise keeps the current status. Assignment fields follow the same precedence as on create; sending none " +
      "leaves the responsible member unchanged.\n\n" +
      `${FIELDS}\n\n${CONTACTS}\n\n${ASSIGNMENT}\n\n${CUSTOM}\n\n${ACCESS}\n\n${EVENTS}`,
    security: API_KEY_SECURITY,
    request: {
      params: dealId,
      body: { required: true, content: { "application/json": { schema: UpdateDealSchema, example: UPDATE_EXAMPLE } } },
    },
    responses: {
      200: ok("The deal after the change.", DealSchema),
      ...errors({
        400: "Invalid body (`invalid_request` with `issues`, or `invalid_json`); a body `id` different from the path id; an empty `data`; the same field rules as on create (stage, contacts, assignment, marketing channel, `custom`).",
        401: UNAUTHORIZED_KEY,
        403: RESTRICTED_ASSIGN,
        404: NOT_FOUND,
        409: CONTACT_RACE,
        413: TOO_LARGE,
      }),
    },
  });

  r.registerPath({
    method: "delete",
    path: "/api/v1/crm/deals/{id}",
    tags: ["Deals"],
    operationId: "deleteDeal",
    summary: "Delete a deal",
    description:
      "Deletes the deal and its links to contacts; the contacts themselves stay (other deals may use them). Writes " +
      `\`deal.deleted\` with the last state of the deal in the same transaction.\n\n${ACCESS}`,
    security: API_KEY_SECURITY,
    request: { params: dealId },
    responses: {
      200: ok("The deal was deleted.", DeletedDealSchema),
      ...errors({ 401: UNAUTHORIZED_KEY, 404: NOT_FOUND }),
    },
  });
}
