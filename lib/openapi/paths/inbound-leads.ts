import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { FeedQuery, ListingsFeedPageSchema } from "../../leads/feeds/listings-feed";
import { SetSlotsSchema, SlotsSetSchema } from "../../leads/feeds/slots";
import { LeadLogItemSchema, LeadLogPageSchema, LeadLogQuery } from "../../leads/inbound/lead-log";
import { BuildingsFeedSchema } from "../../developments/buildings-feed";
import { ImportResultsSchema } from "../../developments/import-schemas";
import { LeadAcceptedSchema, LeadProcessedSchema } from "../../inbound/lead-webhook";
import { ChannelSchema, ChannelSecretSchema, SetSecretSchema } from "../../leads/marketing-channels";
import { ADMIN_ONLY, API_KEY_SECURITY, ErrorSchema, NOT_ADMIN, TOO_LARGE, UNAUTHORIZED_KEY, errors, jsonContent, ok, uuidParam } from "../common";

const channelParam = uuidParam("id", "marketing channel");
const LeadBody = z.record(z.string(), z.unknown()).meta({
  id: "InboundLead",
  description:
    "Spec 2 §2.9, every field optional: contact (`contactName`/`name`/`ownerName`, `contactEmail`/`email`/`ownerEmail`, `contactPhone`/`phone`/`ownerPhone`, `cpf`/`ownerCpf`), " +
    "property reference (`listingId` UUID or code, `listingCode`/`clientListingId`, `propertyId`), `businessType` (`sale`, `rent`/`rental`, `both`: a sale and a rental deal), " +
    "property data, `address`, `message`, `source`, `campaign`, `leadType`, visit, attribution (`utm*`, `gclid`, `referrer`, `landingPage` with `siteDomain`), " +
    "`destination`, `originLeadId`, `externalId`. A value of the wrong type is kept as text on the lead and never blocks it.",
});
const err = (description: string) => ({ description, content: jsonContent(ErrorSchema) });

const pathTokenParam = z.object({ pathToken: z.string().meta({ description: "`chnl_…`, shown in the channel's settings." }) });

export function registerInboundLeadPaths(r: OpenAPIRegistry): void {
  r.registerPath({
    method: "post",
    path: "/api/webhooks/channels/{pathToken}/buildings/import",
    tags: ["Marketing channels"],
    operationId: "importChannelBuildings",
    summary: "Import developments",
    description:
      "The path token alone (the lead URL every portal holds) is not enough: send the channel's feed token as `Authorization: Bearer <feedToken>` " +
      "(as the feeds do; rotate it with `POST /api/v1/settings/marketing-channels/{id}/feed-token`), or, when the channel has a secret, " +
      "`Authorization: Bearer <secret>` or the hex HMAC-SHA256 of the exact body with the secret in `X-Hmac-Sha256` (optional `sha256=` prefix). " +
      "Body `{buildings: [...]}`, 1 to 500, each with the building fields of spec 2 §2.4, its address " +
      "and `externalId`, holding `typologies` (decimal strings for areas and prices, `active`, `showOnSite`, `externalId`) holding `units` (`unitNumber`, `blockTower`, " +
      "`floor`, `status`, `price`, `showOnSite`, `externalId`). Upserted by `externalId` within the tenant; one result per building, typology and unit; a bad item is " +
      "reported with its path and never blocks the others. Emits `building.updated`; development listings of changed typologies are reindexed.",
    security: [],
    request: { params: pathTokenParam, body: { content: jsonContent(z.object({ buildings: z.array(z.record(z.string(), z.unknown())) })) } },
    responses: {
      200: ok("One result per item.", ImportResultsSchema),
      400: err("Not JSON, no buildings, or more than 500."),
      401: err("Neither the channel's feed token nor (when it has one) its secret or a valid signature of the body; the message says what to send."),
      404: err("Unknown or inactive channel."),
      413: err("Body larger than 10 MB."),
      ...errors({}),
    },
  });
  r.registerPath({
    method: "get",
    path: "/api/webhooks/channels/{pathToken}/listings",
    tags: ["Marketing channels"],
    operationId: "channelListingsFeed",
    summary: "Listings feed",
    description:
      "The tenant's public listings in its active stage matching the channel's `feedCriteria`, each as the public detail document of the sites interface plus its " +
      "portal `slot` (`standard`, `featured`, `super_featured`). `Authorization: Bearer <feedToken>`. JSON pages by `cursor` (`nextCursor`, null on the last page; " +
      '`limit` at most 1000); `format=vrsync` answers the same page as Grupo ZAP\'s VRSync XML (a `Link: rel="next"` header points to the next page).',
    security: [],
    request: { params: pathTokenParam, query: FeedQuery },
    responses: {
      200: {
        ...ok("A page of the feed.", ListingsFeedPageSchema),
        content: {
          ...jsonContent(ListingsFeedPageSchema),
          "application/xml": { schema: z.string().meta({ description: "With `format=vrsync`: the same page as Grupo ZAP's VRSync XML." }) },
        },
      },
      400: err("A malformed cursor or limit."),
      401: err("Missing or wrong feed token."),
      404: err("Unknown or inactive channel."),
      ...errors({}),
    },
  });
  r.registerPath({
    method: "put",
    path: "/api/v1/settings/marketing-channels/{id}/slots",
    tags: ["Marketing channels"],
    operationId: "setChannelSlots",
    summary: "Set listings' portal slots",
    description: `Up to 1,000 \`{listingId, slot}\` per request; \`slot\` \`null\` or \`standard\` returns a listing to the default.\n\n${ADMIN_ONLY}`,
    security: API_KEY_SECURITY,
    request: { params: channelParam, body: { required: true, content: jsonContent(SetSlotsSchema) } },
    responses: {
      200: ok("How many were set.", SlotsSetSchema),
      ...errors({ 400: "Invalid body or a listing of another tenant.", 401: UNAUTHORIZED_KEY, 403: NOT_ADMIN, 404: "No such channel in this tenant." }),
    },
  });
  r.registerPath({
    method: "get",
    path: "/api/webhooks/channels/{pathToken}/buildings",
    tags: ["Marketing channels"],
    operationId: "channelBuildingsFeed",
    summary: "Developments feed",
    description:
      "The tenant's buildings with their active typologies shown on the site and unit counts, for the channel's system. `Authorization: Bearer <feedToken>`. No street address, no reservation data.",
    security: [],
    request: { params: pathTokenParam },
    responses: {
      200: ok("The buildings.", BuildingsFeedSchema),
      401: err("Missing or wrong feed token."),
      404: err("Unknown or inactive channel."),
      ...errors({}),
    },
  });
  r.registerPath({
    method: "post",
    path: "/api/webhooks/channels/{pathToken}",
    tags: ["Marketing channels"],
    operationId: "postChannelLead",
    summary: "A channel posts a lead",
    description:
      "No API key: the channel's `pathToken` names it, and when the channel has a secret the request carries `Authorization: Bearer <secret>` or the hex " +
      "HMAC-SHA256 of the exact body in `X-Hmac-Sha256` or `X-Signature` (optional `sha256=` prefix). The lead is stored before any 2xx. Without `sync` " +
      "(and `leadIntakeConfig.syncResponse` off): 202 `{ok, accepted}`, processed in the background. `sync=true`/`sync=deal` waits for the deal " +
      "(`assignedToId` null), `sync=assignment` also returns the broker; a lead another worker is processing is waited for up to 5 s, then 202 `processing`. " +
      "A repeated `originLeadId` of the channel: 202 `processing` while in flight, 200 `duplicate` with the original ids once processed.",
    security: [],
    request: {
      params: z.object({ pathToken: z.string().meta({ description: "`chnl_…`, shown in the channel's settings." }) }),
      query: z.object({ sync: z.enum(["true", "false", "deal", "assignment"]).optional() }),
      body: { content: jsonContent(LeadBody) },
    },
    responses: {
      200: ok("Processed (`status` `created`) or a processed duplicate (`status` `duplicate`).", LeadProcessedSchema),
      202: ok("Accepted (`{ok, accepted}`), still `processing`, or stored with `failed_processing`.", LeadAcceptedSchema),
      400: err("The body is not a JSON object."),
      401: err("The channel has a secret and the request carries neither it nor a valid signature."),
      403: err("The requested destination (`listing`) is not enabled on the channel (`destination_disabled`)."),
      404: err("Unknown or inactive channel."),
      413: err("Body larger than 256 KB."),
      ...errors({}),
    },
  });
  const admin = (
    method: "post" | "delete" | "get",
    path: string,
    operationId: string,
    summary: string,
    description: string,
    response: ReturnType<typeof ok>,
    extra: object = {},
    invalid?: string,
  ) =>
    r.registerPath({
      method,
      path,
      tags: ["Marketing channels"],
      operationId,
      summary,
      description: `${description}\n\n${ADMIN_ONLY}`,
      security: API_KEY_SECURITY,
      request: { params: channelParam, ...extra },
      responses: {
        [method === "post" && path.endsWith("replay") ? 202 : 200]: response,
        ...errors({
          ...(invalid && { 400: invalid }),
          // A body is read under the size cap: only operations that take one can answer 413.
          ...("body" in extra && { 413: TOO_LARGE }),
          401: UNAUTHORIZED_KEY,
          403: NOT_ADMIN,
          404: "No such channel (or lead) in this tenant.",
        }),
      },
    });
  admin(
    "post",
    "/api/v1/settings/marketing-channels/{id}/path-token",
    "rotateChannelPathToken",
    "Rotate the inbound path",
    "A new `pathToken`; the old path answers 404 at once.",
    ok("The channel.", ChannelSchema),
  );
  admin(
    "post",
    "/api/v1/settings/marketing-channels/{id}/feed-token",
    "rotateChannelFeedToken",
    "Rotate the feeds token",
    "A new `feedToken`, returned only in this answer.",
    ok("The channel with `feedToken`.", ChannelSchema),
  );
  admin(
    "post",
    "/api/v1/settings/marketing-channels/{id}/secret",
    "setChannelSecret",
    "Set the receiving secret",
    "Generated with an empty body, or taken from `{secret}` (16 to 200 printable characters); returned only in this answer.",
    ok("The secret.", ChannelSecretSchema),
    { body: { required: false, content: jsonContent(SetSecretSchema) } },
    "Invalid body: not JSON (`invalid_json`), or a `secret` that is not 16 to 200 printable characters, or an unknown field (`invalid_request`).",
  );
  admin(
    "delete",
    "/api/v1/settings/marketing-channels/{id}/secret",
    "clearChannelSecret",
    "Clear the receiving secret",
    "Inbound leads are accepted unsigned again.",
    ok("The channel.", ChannelSchema),
  );
  admin(
    "get",
    "/api/v1/settings/marketing-channels/{id}/leads",
    "listChannelLeads",
    "The channel's lead log",
    "Inbound leads newest first: status, the deals they became, the decision log (why this broker), errors and the fields kept as text.",
    ok("A page of leads.", LeadLogPageSchema),
    { query: LeadLogQuery },
    "Invalid query: a bad `status`, `page` or `pageSize`, or an unknown parameter (`invalid_request`).",
  );
  r.registerPath({
    method: "post",
    path: "/api/v1/settings/marketing-channels/{id}/leads/{leadId}/replay",
    tags: ["Marketing channels"],
    operationId: "replayChannelLead",
    summary: "Replay a failed lead",
    description: `A failed lead goes back to \`received\` with its dedupe key and is processed again.\n\n${ADMIN_ONLY}`,
    security: API_KEY_SECURITY,
    request: { params: channelParam.extend({ leadId: z.uuid() }) },
    responses: {
      202: ok("The lead, `received`.", LeadLogItemSchema),
      ...errors({ 401: UNAUTHORIZED_KEY, 403: NOT_ADMIN, 404: "No such channel or lead in this tenant.", 409: "The lead has not failed." }),
    },
  });
}
