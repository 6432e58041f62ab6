import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import {
  CreateMessagingChannelSchema,
  GrantsSchema,
  MessagingChannelSettingsListSchema,
  MessagingChannelSettingsSchema,
  UpdateMessagingChannelSchema,
} from "../../messaging/channels";
import { CreateWebChatChannelSchema } from "../../messaging/web-chat/create-channel";
import { CreateEmailChannelSchema } from "../../messaging/email/settings";
import { ChatPrivacyEntrySchema, ChatPrivacyListSchema, SetChatPrivacySchema } from "../../messaging/chat-privacy";
import { AddOptOutSchema, OptOutListSchema, OptOutSchema } from "../../messaging/opt-outs";
import { CreateTemplateSchema, MessagingTemplateListSchema, MessagingTemplateSchema } from "../../messaging/templates";
import { ADMIN_ONLY, API_KEY_SECURITY, NOT_ADMIN, TOO_LARGE, UNAUTHORIZED_KEY, errors, jsonContent, ok, uuidParam } from "../common";

const TAG = ["Messaging channels"];
const NOT_FOUND = "No messaging channel with this id in the tenant (`not_found`).";
const BAD = "Invalid body (`invalid_request` with `issues`, or `invalid_json`).";
const param = uuidParam("id", "messaging channel");

export const MESSAGING_CHANNELS_TAG =
  "Brokers' messaging accounts connected through provider gateways (owner or admin broad key). Credentials and session " +
  "names are stored encrypted (AES-256-GCM) and never returned. Access to a channel's conversations is its owner plus " +
  "the members in `grants`; tenant role does not widen it.";

export function registerMessagingSettingsPaths(r: OpenAPIRegistry): void {
  const base = "/api/v1/settings/messaging-channels";
  r.registerPath({
    method: "get",
    path: base,
    tags: TAG,
    operationId: "listMessagingChannelSettings",
    summary: "List the tenant's messaging channels",
    description: `Every messaging channel of the tenant, mock ones included, oldest first.\n\n${ADMIN_ONLY}`,
    security: API_KEY_SECURITY,
    responses: { 200: ok("The channels.", MessagingChannelSettingsListSchema), ...errors({ 401: UNAUTHORIZED_KEY, 403: NOT_ADMIN }) },
  });
  r.registerPath({
    method: "post",
    path: base,
    tags: TAG,
    operationId: "createMessagingChannel",
    summary: "Connect a messaging channel",
    description:
      "Flat body `{name, transport, provider, baseUrl, apiKey, sessionName, ownerId, privacyMode, mock}`. `provider` `waha` carries " +
      "`transport` `whatsapp`; `whatsapp_cloud` carries `whatsapp_cloud` (`apiKey` = access token, `sessionName` = phone number id); " +
      "`meta` carries `instagram` and `facebook_messenger` (`baseUrl` = the Graph API base such as `https://graph.facebook.com/v21.0`, " +
      "`apiKey` = the Page access token, `sessionName` = the Page id or the Instagram professional account id). " +
      "The gateway's session status is read once (2 s) to set `connectionState`. In production a `baseUrl` whose host is, or " +
      "resolves to, a loopback, private, link-local, carrier-grade NAT or other non-public address is refused (400, here and on " +
      "update) unless `WEBHOOKS_ALLOW_PRIVATE_URLS=true`, and plain http is refused; a host that does not resolve yet is " +
      "accepted, and every call to the gateway is checked again.\n\n" +
      "`baseUrl` is write-only: answers carry only its host as `gatewayHost`.\n\n" +
      "The answer carries, **this once**, `webhook.url` (`/api/webhooks/messaging/{channelToken}`) and `webhook.hmacSecret` to " +
      "configure on the gateway.\n\n" +
      "A **web chat** channel (`transport` `web_chat`) has no gateway: send `{name, transport: 'web_chat', ownerId?, privacyMode?, mock?}`. " +
      "The service is its provider (`provider` `web_chat`, `connectionState` `connected`, no `webhook` in the answer); attach it to a " +
      "site (`chat.channelId`) or to share pages (`sharingConfig.chatChannelId`).\n\n" +
      '**E-mail** (`transport: "email"`, `provider: "smtp"`): `{name, transport, address, smtp: {host, port, tls, user, ' +
      "password}, ownerId, privacyMode, mock}` (CreateEmailChannel). `smtp.host` follows the same address rules as `baseUrl`; " +
      "the password is stored encrypted and never returned (answers carry `email: {address, smtp: {host, port, tls, user}}`). " +
      "The SMTP login is checked once (2 s) to set `connectionState`. Point the inbound-parse service (or a mail server's " +
      "pipe) at `webhook.url` with `webhook.hmacSecret` as its secret.\n\n" +
      "`tiktok` and `voip` are listed transports without an adapter yet: refused (400 `transport_unsupported`).\n\n" +
      ADMIN_ONLY,
    security: API_KEY_SECURITY,
    request: { body: { required: true, content: jsonContent(z.union([CreateMessagingChannelSchema, CreateWebChatChannelSchema, CreateEmailChannelSchema])) } },
    responses: {
      201: ok("The channel, with its webhook URL and HMAC secret.", MessagingChannelSettingsSchema),
      ...errors({
        400: `${BAD} A bad or private \`baseUrl\`, a transport the provider does not carry, an \`ownerId\` of no member.`,
        401: UNAUTHORIZED_KEY,
        403: NOT_ADMIN,
        413: TOO_LARGE,
      }),
    },
  });
  r.registerPath({
    method: "get",
    path: `${base}/{id}`,
    tags: TAG,
    operationId: "getMessagingChannelSettings",
    summary: "Read a messaging channel",
    description: ADMIN_ONLY,
    security: API_KEY_SECURITY,
    request: { params: param },
    responses: { 200: ok("The channel.", MessagingChannelSettingsSchema), ...errors({ 401: UNAUTHORIZED_KEY, 403: NOT_ADMIN, 404: NOT_FOUND }) },
  });
  r.registerPath({
    method: "patch",
    path: `${base}/{id}`,
    tags: TAG,
    operationId: "updateMessagingChannel",
    summary: "Change a messaging channel",
    description: `Partial update; \`transport\` and \`provider\` cannot change (connect a new channel).\n\n${ADMIN_ONLY}`,
    security: API_KEY_SECURITY,
    request: { params: param, body: { required: true, content: jsonContent(UpdateMessagingChannelSchema) } },
    responses: {
      200: ok("The channel after the change.", MessagingChannelSettingsSchema),
      ...errors({ 400: `${BAD} A bad or private \`baseUrl\` (as on create).`, 401: UNAUTHORIZED_KEY, 403: NOT_ADMIN, 404: NOT_FOUND, 413: TOO_LARGE }),
    },
  });
  r.registerPath({
    method: "delete",
    path: `${base}/{id}`,
    tags: TAG,
    operationId: "deleteMessagingChannel",
    summary: "Disconnect a messaging channel",
    description: `Deletes the channel with its conversations, grants and privacy list; its webhook URL answers 404 from now on.\n\n${ADMIN_ONLY}`,
    security: API_KEY_SECURITY,
    request: { params: param },
    responses: { 204: { description: "Deleted." }, ...errors({ 401: UNAUTHORIZED_KEY, 403: NOT_ADMIN, 404: NOT_FOUND }) },
  });
  r.registerPath({
    method: "put",
    path: `${base}/{id}/grants`,
    tags: TAG,
    operationId: "setMessagingChannelGrants",
    summary: "Set who may use a channel",
    description: `\`{memberIds}\` replaces the members granted access; the channel's owner always has access.\n\n${ADMIN_ONLY}`,
    security: API_KEY_SECURITY,
    request: { params: param, body: { required: true, content: jsonContent(GrantsSchema) } },
    responses: {
      200: ok("The channel with its grants.", MessagingChannelSettingsSchema),
      ...errors({ 400: `${BAD} A member id of no member of the tenant.`, 401: UNAUTHORIZED_KEY, 403: NOT_ADMIN, 404: NOT_FOUND, 413: TOO_LARGE }),
    },
  });
  r.registerPath({
    method: "get",
    path: `${base}/{id}/chat-privacy`,
    tags: TAG,
    operationId: "listChatPrivacy",
    summary: "Read a channel's chat privacy list",
    description: ADMIN_ONLY,
    security: API_KEY_SECURITY,
    request: { params: param },
    responses: { 200: ok("The entries, by chat id.", ChatPrivacyListSchema), ...errors({ 401: UNAUTHORIZED_KEY, 403: NOT_ADMIN, 404: NOT_FOUND }) },
  });
  r.registerPath({
    method: "put",
    path: `${base}/{id}/chat-privacy`,
    tags: TAG,
    operationId: "setChatPrivacy",
    summary: "Set one chat's privacy state",
    description:
      "`{chatId, state}` with `state` `whitelisted`, `pending` or `hidden` (chat ids go in bodies, never in paths). On a channel with " +
      "`privacyMode` `whitelist` only whitelisted chats are listed in full and accept sends; pending chats are listed redacted; " +
      `hidden and unknown chats are absent. On a channel without privacy, \`hidden\` blacklists a chat.\n\n${ADMIN_ONLY}`,
    security: API_KEY_SECURITY,
    request: { params: param, body: { required: true, content: jsonContent(SetChatPrivacySchema) } },
    responses: {
      200: ok("The entry.", ChatPrivacyEntrySchema),
      ...errors({ 400: BAD, 401: UNAUTHORIZED_KEY, 403: NOT_ADMIN, 404: NOT_FOUND, 413: TOO_LARGE }),
    },
  });
  r.registerPath({
    method: "get",
    path: `${base}/{id}/templates`,
    tags: TAG,
    operationId: "listMessagingTemplates",
    summary: "List a channel's message templates",
    description: `Templates registered on the channel, by name and language; only \`approved\` ones can be sent with \`POST /api/v1/messaging/send\` \`templateId\`.\n\n${ADMIN_ONLY}`,
    security: API_KEY_SECURITY,
    request: { params: param },
    responses: { 200: ok("The templates.", MessagingTemplateListSchema), ...errors({ 401: UNAUTHORIZED_KEY, 403: NOT_ADMIN, 404: NOT_FOUND }) },
  });
  r.registerPath({
    method: "post",
    path: `${base}/{id}/templates`,
    tags: TAG,
    operationId: "createMessagingTemplate",
    summary: "Register an approved template (WhatsApp Cloud)",
    description:
      "`{name, language, status?}`: a message template approved on the provider (WhatsApp Cloud), named as there. Registering a name and " +
      "language already on the channel updates its status. Channels that send free text only (WAHA) refuse with `channel_send_unsupported`." +
      `\n\n${ADMIN_ONLY}`,
    security: API_KEY_SECURITY,
    request: { params: param, body: { required: true, content: jsonContent(CreateTemplateSchema) } },
    responses: {
      201: ok("The template.", MessagingTemplateSchema),
      ...errors({
        400: `${BAD} \`channel_send_unsupported\` on a free-text-only channel.`,
        401: UNAUTHORIZED_KEY,
        403: NOT_ADMIN,
        404: NOT_FOUND,
        413: TOO_LARGE,
      }),
    },
  });
  r.registerPath({
    method: "delete",
    path: `${base}/{id}/templates/{templateId}`,
    tags: TAG,
    operationId: "deleteMessagingTemplate",
    summary: "Remove a template",
    description: ADMIN_ONLY,
    security: API_KEY_SECURITY,
    request: { params: param.extend(uuidParam("templateId", "template").shape) },
    responses: { 204: { description: "Removed." }, ...errors({ 401: UNAUTHORIZED_KEY, 403: NOT_ADMIN, 404: "No such channel or template (`not_found`)." }) },
  });

  const opt = "/api/v1/settings/messaging/opt-outs";
  const optTag = ["Messaging channels"];
  r.registerPath({
    method: "get",
    path: opt,
    tags: optTag,
    operationId: "listOptOuts",
    summary: "List the tenant's messaging opt-outs",
    description: `Phones (E.164), e-mail addresses and Instagram/Messenger chats that must not be contacted: replies and sends to them are \`blocked\` with reason \`opt_out\` by the \`outreach_safety\` gate (an Instagram/Messenger chat linked to a deal is also blocked when a contact of the deal is on the list by phone or e-mail).\n\n${ADMIN_ONLY}`,
    security: API_KEY_SECURITY,
    responses: { 200: ok("The opt-outs, oldest first.", OptOutListSchema), ...errors({ 401: UNAUTHORIZED_KEY, 403: NOT_ADMIN }) },
  });
  r.registerPath({
    method: "post",
    path: opt,
    tags: optTag,
    operationId: "addOptOut",
    summary: "Add a phone, e-mail address or Instagram/Messenger chat to the opt-out list",
    description: `Exactly one of \`{phone}\` (any format, normalised to E.164, Brazil assumed), \`{email}\`, or \`{channelId, chatId}\` (a page-scoped id on an Instagram or Messenger channel of the tenant), with \`reason?\`. Adding one twice keeps the first entry.\n\n${ADMIN_ONLY}`,
    security: API_KEY_SECURITY,
    request: { body: { required: true, content: jsonContent(AddOptOutSchema) } },
    responses: {
      201: ok("The entry.", OptOutSchema),
      ...errors({
        400: `${BAD} A phone that is not a valid number, or a \`channelId\` that is not an Instagram or Messenger channel of the tenant.`,
        401: UNAUTHORIZED_KEY,
        403: NOT_ADMIN,
        413: TOO_LARGE,
      }),
    },
  });
  r.registerPath({
    method: "delete",
    path: opt,
    tags: optTag,
    operationId: "removeOptOut",
    summary: "Remove a phone, e-mail address or Instagram/Messenger chat from the opt-out list",
    description: `\`?phone=\` (any format, normalised to E.164), \`?email=\` or \`?channelId=&chatId=\`.\n\n${ADMIN_ONLY}`,
    security: API_KEY_SECURITY,
    request: {
      query: z.object({
        phone: z.string().optional().meta({ example: "+5511987654321" }),
        email: z.string().optional(),
        channelId: z.string().optional(),
        chatId: z.string().optional(),
      }),
    },
    responses: {
      204: { description: "Removed." },
      ...errors({
        400: "Missing or invalid `phone`/`email`/`channelId` with `chatId`, or more than one (`invalid_request`).",
        401: UNAUTHORIZED_KEY,
        403: NOT_ADMIN,
        404: "The entry is not on the list (`not_found`).",
      }),
    },
  });
}
