import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import {
  CreateOfferSchema,
  ListOffersQuery,
  OfferPageSchema,
  OfferSchema,
  OfferSyncResultSchema,
  OfferTransitionBodyDoc,
  SyncOfferSchema,
} from "../../offers/schemas";
import { OFFER_VERBS } from "../../offers/state-machine";
import { ADMIN_ONLY, API_KEY_SECURITY, NOT_ADMIN, TOO_LARGE, UNAUTHORIZED_KEY, errors, ok, uuidParam } from "../common";

const ListOffersQueryDoc = ListOffersQuery.extend({
  page: ListOffersQuery.shape.page.meta({ type: "integer", minimum: 1, default: 1, description: "Page number, from 1." }),
  pageSize: ListOffersQuery.shape.pageSize.meta({
    type: "integer",
    minimum: 1,
    maximum: 100,
    default: 50,
    description: "Items per page, 1 to 100 (default 50).",
  }),
});

export const OFFER_STATE_MACHINE =
  "**State machine.** A new offer is `draft`. Each action moves it and writes exactly one event:\n\n" +
  "| action | from | to | event | extra field in `data.data` |\n|---|---|---|---|---|\n" +
  "| (create) | | `draft` | `offer.created` | |\n" +
  "| `send` | `draft` | `sent_to_client` | `offer.sent_to_client` | `documentId` |\n" +
  "| `client-confirm` | `sent_to_client` | `client_confirmed` | `offer.client_confirmed` | `documentId` |\n" +
  "| `client-sign` | `client_confirmed` | `client_signed` | `offer.client_signed` | `documentId` |\n" +
  "| `counter` | `sent_to_client`, `client_confirmed`, `client_signed` | `countered` | `offer.countered` | `counterOfferId` |\n" +
  "| `accept` | `sent_to_client`, `client_confirmed`, `client_signed` | `accepted` | `offer.accepted` | `transactionId` when a transaction was opened |\n" +
  "| `reject` | `sent_to_client`, `client_confirmed`, `client_signed` | `rejected` | `offer.rejected` | `declineCode` |\n" +
  "| `withdraw` | `draft`, `sent_to_client`, `client_confirmed`, `client_signed` | `withdrawn` | `offer.withdrawn` | `declineCode` |\n" +
  "| `expire` | `draft`, `sent_to_client`, `client_confirmed`, `client_signed` | `expired` | `offer.expired` | |\n\n" +
  "`countered`, `accepted`, `rejected`, `withdrawn` and `expired` are final. Any other action from a state is a 409 " +
  "`invalid_transition` whose message names the current state; nothing changes. `counter` creates the counter-offer " +
  "(a new `draft` with `counteredOfferId`, same deal, listing and broker) and writes only `offer.countered` " +
  "(its `counterOfferId` names the new offer). `documentId` is the offer PDF in the deal's documents: the one sent " +
  "with the action (`document: {name, url}`), else the offer's latest, else null.\n\n" +
  "**Events.** `data.entityType` `offer`, `data.entityId` the offer id; `data.data` has `offerId`, `dealId`, " +
  "`listingId` (only when the offer has one), `brokerId`, `amount` (a number: sale value or monthly rent), `currency` " +
  "(`BRL`), `dealType` (`sale`/`rental`, the deal's), `source` (`crm`, `portal`, `public_link`, `site`, `agent`, " +
  "`system`, `provider_sync`), `occurredAt` (ISO 8601), plus the extra field of the table and no other.";

const ACCESS =
  "**Access.** A broad key sees every offer of the tenant; a restricted key (and any broker's key) sees the offers of " +
  "deals assigned to or created by its member, and offers whose broker it is; others answer 404 like another tenant's.";
const NOT_FOUND = "No such offer in the tenant, or one the key cannot see (`not_found`).";

export function registerOfferPaths(r: OpenAPIRegistry): void {
  r.registerPath({
    method: "get",
    path: "/api/v1/crm/offers",
    tags: ["Offers"],
    operationId: "listOffers",
    summary: "List offers",
    description: `Offers newest first, filtered by \`dealId\`, \`listingId\` and \`status\` (AND).\n\n${ACCESS}`,
    security: API_KEY_SECURITY,
    request: { query: ListOffersQueryDoc },
    responses: { 200: ok("One page of offers.", OfferPageSchema), ...errors({ 400: "Invalid query (`invalid_request`).", 401: UNAUTHORIZED_KEY }) },
  });
  r.registerPath({
    method: "post",
    path: "/api/v1/crm/offers",
    tags: ["Offers"],
    operationId: "createOffer",
    summary: "Create an offer",
    description:
      "A `draft` offer on a deal the key can see; `dealType` is the deal's, `currency` is BRL, `amount` a positive " +
      "decimal string (sale value or monthly rent). `brokerId` defaults to the deal's responsible member, else the " +
      "key's. `source` defaults to `crm` (`provider_sync` is reserved to `POST /api/v1/crm/offers/sync`). Writes " +
      `\`offer.created\`.\n\n${OFFER_STATE_MACHINE}\n\n${ACCESS}`,
    security: API_KEY_SECURITY,
    request: {
      body: {
        required: true,
        content: { "application/json": { schema: CreateOfferSchema, example: { dealId: "3fa85f64-5717-4562-b3fc-2c963f66afa6", amount: "880000.00" } } },
      },
    },
    responses: {
      201: ok("The new offer.", OfferSchema),
      ...errors({
        400: "Invalid body, or a `dealId`, `listingId` or `brokerId` that names nothing usable in the tenant.",
        401: UNAUTHORIZED_KEY,
        413: TOO_LARGE,
      }),
    },
  });
  r.registerPath({
    method: "get",
    path: "/api/v1/crm/offers/{id}",
    tags: ["Offers"],
    operationId: "getOffer",
    summary: "Read one offer",
    description: `The offer.\n\n${ACCESS}`,
    security: API_KEY_SECURITY,
    request: { params: uuidParam("id", "offer") },
    responses: { 200: ok("The offer.", OfferSchema), ...errors({ 401: UNAUTHORIZED_KEY, 404: NOT_FOUND }) },
  });
  r.registerPath({
    method: "post",
    path: "/api/v1/crm/offers/{id}/{verb}",
    tags: ["Offers"],
    operationId: "transitionOffer",
    summary: "Move an offer (send, client-confirm, client-sign, counter, withdraw, accept, reject, expire)",
    description:
      "One action of the state machine. Bodies: `send`, `client-confirm`, `client-sign` take an optional " +
      "`{document: {name, url}}`; `counter` takes `{amount, expiresAt?, notes?}`; `reject` and `withdraw` take " +
      "`{declineCode}` (`cancelled`, `price`, `financing`, `client_gave_up`, `other`); `accept` takes an optional " +
      "`{openTransaction, transactionNotes}`: by default it opens the deal's transaction from the offer in the same change " +
      "(`transaction.created`, then `offer.accepted` with its `transactionId`); `{openTransaction: false}` only accepts. `expire` none. Fields of another action are a 400. The offer row is locked during the change: of two " +
      `concurrent actions one wins and the other sees the new state (409).\n\n${OFFER_STATE_MACHINE}\n\n${ACCESS}`,
    security: API_KEY_SECURITY,
    request: {
      params: uuidParam("id", "offer").extend({ verb: z.enum(OFFER_VERBS).meta({ description: "The action; another value is a 404." }) }),
      body: { required: false, content: { "application/json": { schema: OfferTransitionBodyDoc, example: { declineCode: "price" } } } },
    },
    responses: {
      200: ok("The offer after the action.", OfferSchema),
      ...errors({
        400: "Invalid body for this action (a missing or unknown `declineCode`, a counter without `amount`, fields of another action).",
        401: UNAUTHORIZED_KEY,
        404: `${NOT_FOUND} Also an unknown action.`,
        409: "The offer's current state does not allow this action (`invalid_transition`; the message names the state).",
        413: TOO_LARGE,
      }),
    },
  });
  r.registerPath({
    method: "post",
    path: "/api/v1/crm/offers/sync",
    tags: ["Offers"],
    operationId: "syncOffer",
    summary: "Import an offer from an origin system",
    description:
      "Upserts an offer of another system by `externalId` with `source` `provider_sync`. Origin `status` `open` " +
      "becomes `sent_to_client`, `accepted` `accepted`, `rejected` `rejected` (`declineCode` as sent, default " +
      "`other`), `cancelled` `rejected` with `declineCode` `cancelled`. Events: `offer.created` on arrival, and " +
      "`offer.accepted` / `offer.rejected` when the origin status changes, each with `occurredAt` = `movedAt`, and " +
      "only when `movedAt` is within the last 7 days: a first import or re-sync of old history emits nothing. A report " +
      "with a `movedAt` not newer than the stored one (repeat, or out of order) changes nothing; an offer in a final " +
      `state is never reopened. 201 on first arrival, else 200.\n\n${ADMIN_ONLY}`,
    security: API_KEY_SECURITY,
    request: { body: { required: true, content: { "application/json": { schema: SyncOfferSchema } } } },
    responses: {
      200: ok("The offer was updated (or the report was stale).", OfferSyncResultSchema),
      201: ok("The offer arrived for the first time.", OfferSyncResultSchema),
      ...errors({
        400: "Invalid body, `movedAt` in the future, or a deal, listing or broker not in the tenant.",
        401: UNAUTHORIZED_KEY,
        403: NOT_ADMIN,
        413: TOO_LARGE,
      }),
    },
  });
}
