import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { ChannelListSchema, ChannelSchema, CreateChannelSchema, UpdateChannelSchema } from "../../leads/marketing-channels";
import { ADMIN_ONLY, API_KEY_SECURITY, NOT_ADMIN, TOO_LARGE, UNAUTHORIZED_KEY, errors, jsonContent, ok, uuidParam } from "../common";

const QUEUE =
  "**Distribution queue.** `queue` lists member ids of the tenant in round-robin order, without repeats. A deal " +
  "created through `POST /api/v1/crm/deals` with this channel's `marketingChannelInstanceId` and no assignment field " +
  "goes to the next active member of the queue (inactive members are skipped but stay listed) and writes " +
  "`distribution.assigned`; with no active member in the queue the deal stays unassigned.";

const FIRST_CONTACT =
  "**Automatic first contact.** `firstContact: {enabled, messagingChannelId, text | templateId, delaySeconds, " +
  "destinations}` sends each new lead with a phone a first WhatsApp message `delaySeconds` after its deal is created: " +
  "`text` with `{{name}}` (first name) and `{{listing}}` (the referenced listing's title), or an approved template of " +
  "the channel. It is sent as the member who saved the setting (who must own the messaging channel or hold a grant), " +
  "through the same gates as a member's send (channel access, chat privacy, opt-outs, idempotency keyed by the lead). " +
  "It is not sent when the phone opted out (`opt_out`), the lead owns the listing it asks about (`listing_owner`), the " +
  "person has a won deal (`won_deal`) or another open deal with a broker (`open_deal`), or a check or the send could " +
  "not pass (`guard_error`); each stop emits `first_contact.skipped` about the lead's deal with `reason`, `destination` " +
  "(from `destinations`, per reason: `keep_with_broker`, `other_queue` or `hold`) and `matched` (`dealIds`, " +
  "`listingIds`, `contactIds`; never phones). `null` turns it off.";

export function registerMarketingChannelPaths(r: OpenAPIRegistry): void {
  r.registerPath({
    method: "get",
    path: "/api/v1/settings/marketing-channels",
    tags: ["Marketing channels"],
    operationId: "listMarketingChannels",
    summary: "List the tenant's marketing channels",
    description:
      "Every marketing channel instance of the tenant (its site, a portal, a lead-ads account...), active and inactive, " +
      `oldest first, each with its distribution \`queue\`. Not paginated.\n\n${ADMIN_ONLY}`,
    security: API_KEY_SECURITY,
    responses: {
      200: ok("Every marketing channel of the tenant.", ChannelListSchema),
      ...errors({ 401: UNAUTHORIZED_KEY, 403: NOT_ADMIN }),
    },
  });

  r.registerPath({
    method: "post",
    path: "/api/v1/settings/marketing-channels",
    tags: ["Marketing channels"],
    operationId: "createMarketingChannel",
    summary: "Add a marketing channel",
    description:
      "Adds a channel that deals are attributed to (`marketingChannelInstanceId`). `name` is required; `kind` is a " +
      "lowercase slug such as `website`, `portal` or `lead_ads` (default `api`); `active` defaults to `true` and " +
      `\`queue\` to empty.\n\n${QUEUE}\n\n${FIRST_CONTACT}\n\n${ADMIN_ONLY}`,
    security: API_KEY_SECURITY,
    request: { body: { required: true, content: jsonContent(CreateChannelSchema) } },
    responses: {
      201: ok("The new channel.", ChannelSchema),
      ...errors({
        400: "Invalid body (`invalid_request` with `issues`, or `invalid_json`); a `queue` that repeats a member or names no member of the tenant; a `firstContact` with both or neither of `text` and `templateId`, a messaging channel the member may not send from, or a template not of that channel.",
        401: UNAUTHORIZED_KEY,
        403: NOT_ADMIN,
        413: TOO_LARGE,
      }),
    },
  });

  r.registerPath({
    method: "patch",
    path: "/api/v1/settings/marketing-channels/{id}",
    tags: ["Marketing channels"],
    operationId: "updateMarketingChannel",
    summary: "Change a marketing channel",
    description:
      "Partial update: fields not sent are kept. `queue`, when sent, replaces the whole queue; the round-robin turn " +
      `carries on from where it was.\n\n${QUEUE}\n\n${FIRST_CONTACT}\n\n${ADMIN_ONLY}`,
    security: API_KEY_SECURITY,
    request: { params: uuidParam("id", "marketing channel"), body: { required: true, content: jsonContent(UpdateChannelSchema) } },
    responses: {
      200: ok("The channel after the change.", ChannelSchema),
      ...errors({
        400: "Invalid body (`invalid_request` with `issues`, or `invalid_json`); a `queue` that repeats a member or names no member of the tenant; a `firstContact` with both or neither of `text` and `templateId`, a messaging channel the member may not send from, or a template not of that channel.",
        401: UNAUTHORIZED_KEY,
        403: NOT_ADMIN,
        404: "No marketing channel with this id in the tenant (`not_found`).",
        413: TOO_LARGE,
      }),
    },
  });
}
