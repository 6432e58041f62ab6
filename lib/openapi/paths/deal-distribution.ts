import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { RejectDistributionSchema, TransferDealSchema } from "../../deals/transfer";
import { DealSchema } from "../../deals/serialize";
import { API_KEY_SECURITY, TOO_LARGE, UNAUTHORIZED_KEY, errors, ok, uuidParam } from "../common";

const dealId = uuidParam("id", "deal");
const NOT_FOUND = "No such deal in the tenant, or (restricted keys) one not assigned to or created by the key's member (`not_found`).";

export function registerDealDistributionPaths(r: OpenAPIRegistry): void {
  r.registerPath({
    method: "post",
    path: "/api/v1/crm/deals/{id}/transfer",
    tags: ["Deals"],
    operationId: "transferDeal",
    summary: "Hand a deal to another member",
    description:
      "Makes `newOwnerId` (an active member of the tenant) the deal's responsible member and writes, in the same " +
      "transaction, one `distribution.transferred` (`data.data`: `dealId`, `previousOwnerId`, `newOwnerId`, " +
      "`transferReason`, default `manual`) and a `deal.updated` with the previous row in `old`. A transfer to the " +
      "current owner changes nothing and writes no event. A restricted key can only assign to its own member (403). " +
      "Deactivating a member (`PATCH /api/v1/settings/members/{id}` with `active: false`) hands that member's open " +
      "deals over the same way with `transferReason` `member_deactivated` (to `transferDealsTo`, default the member " +
      "of the key that deactivates), one event per deal.",
    security: API_KEY_SECURITY,
    request: {
      params: dealId,
      body: {
        required: true,
        content: {
          "application/json": { schema: TransferDealSchema, example: { newOwnerId: "3fa85f64-5717-4562-b3fc-2c963f66afa6", transferReason: "vacation" } },
        },
      },
    },
    responses: {
      200: ok("The deal after the transfer.", DealSchema),
      ...errors({
        400: "Invalid body, or `newOwnerId` not an active member of the tenant, or the reserved reason `member_deactivated`.",
        401: UNAUTHORIZED_KEY,
        403: "A restricted key handing the deal to another member.",
        404: NOT_FOUND,
        413: TOO_LARGE,
      }),
    },
  });
  r.registerPath({
    method: "post",
    path: "/api/v1/crm/deals/{id}/distribution/accept",
    tags: ["Deals"],
    operationId: "acceptDistributedDeal",
    summary: "Accept a distributed lead",
    description:
      "The broker a marketing channel's queue distributed the deal to takes it. No body. Writes " +
      "`distribution.accepted` (`data.data`: `dealId`, `memberId`, `marketingChannelInstanceId`, `acceptedAt`) once; " +
      "accepting again answers the deal and writes nothing.",
    security: API_KEY_SECURITY,
    request: { params: dealId },
    responses: {
      200: ok("The deal.", DealSchema),
      ...errors({
        401: UNAUTHORIZED_KEY,
        403: "The deal is assigned to another member: only that broker can accept it.",
        404: NOT_FOUND,
        409: "The deal has no marketing channel, so it was not distributed (`not_distributed`).",
      }),
    },
  });
  r.registerPath({
    method: "post",
    path: "/api/v1/crm/deals/{id}/distribution/reject",
    tags: ["Deals"],
    operationId: "rejectDistributedDeal",
    summary: "Decline a distributed lead",
    description:
      "The broker the deal was distributed to declines it (optional body `{reason}`). Writes `distribution.rejected` " +
      "(`data.data`: `dealId`, `memberId`, `reason`, `marketingChannelInstanceId`, `nextAssignedToId`), then the deal " +
      "goes to the next active member of the channel's queue after the one who declined (`distribution.assigned` with " +
      "`method` `round_robin`), or stays unassigned when there is nobody else; plus `deal.updated`. After the broker " +
      "accepted, declining is a 409 (`already_accepted`): transfer the deal instead.",
    security: API_KEY_SECURITY,
    request: {
      params: dealId,
      body: { required: false, content: { "application/json": { schema: RejectDistributionSchema, example: { reason: "Fora da minha região" } } } },
    },
    responses: {
      200: ok("The deal after the hand-over.", DealSchema),
      ...errors({
        400: "Invalid body.",
        401: UNAUTHORIZED_KEY,
        403: "The deal is assigned to another member: only that broker can decline it.",
        404: NOT_FOUND,
        409: "Not distributed by a channel (`not_distributed`), or already accepted (`already_accepted`).",
        413: TOO_LARGE,
      }),
    },
  });
}
