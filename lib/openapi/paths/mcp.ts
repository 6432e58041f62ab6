import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { ChannelInventoryQuery, ChannelInventorySchema } from "../../messaging/channel-inventory";
import { ListScheduledQuery, ScheduledMessageListSchema } from "../../messaging/scheduled/list";
import { McpAnswerSchema } from "../../mcp/json-rpc-answer";
import { API_KEY_SECURITY, errors, ok, UNAUTHORIZED_KEY } from "../common";
import { MESSAGING_SECURITY, rateLimited, X_API_KEY_HEADER } from "./messaging";

export const MCP_DESCRIPTION =
  "The tool-calling interface (Model Context Protocol, Streamable HTTP transport, protocol versions 2025-06-18 and 2025-11-25) " +
  "for AI agents: scheduling and cancelling outbound messages, chat labels, channel name and privacy mode, chat privacy, plus " +
  "reads of channels, conversations and schedules. Not part of REST: connect an MCP client to this URL. Authenticate with the same " +
  "API key (`Authorization: Bearer` or `x-api-key`); tools act as the key's member, with its grants and role. Stateless: every " +
  "POST carries JSON-RPC and is answered as `application/json` (send `Accept: application/json, text/event-stream`); no " +
  "`Mcp-Session-Id`; GET and DELETE are 405 (no server stream, no session). A `Host` or `Origin` that is not this service " +
  "(loopback or `MCP_ALLOWED_HOSTS`) is refused with 403 `forbidden_origin` before anything else (DNS-rebinding guard). Tool " +
  "refusals are tool results with `isError: true` whose structured content is the REST ack (`status`, `reason`) or the REST error body.";

export function registerMcpPaths(r: OpenAPIRegistry): void {
  r.registerPath({
    method: "post",
    path: "/api/mcp",
    tags: ["Tool interface (MCP)"],
    operationId: "mcp",
    summary: "MCP endpoint (JSON-RPC)",
    description: MCP_DESCRIPTION,
    security: API_KEY_SECURITY,
    request: {
      headers: X_API_KEY_HEADER,
      body: {
        content: {
          "application/json": {
            schema: z
              .object({
                jsonrpc: z.literal("2.0"),
                id: z.union([z.string(), z.number()]).optional(),
                method: z.string(),
                params: z.record(z.string(), z.unknown()).optional(),
              })
              .meta({ description: "A JSON-RPC message of MCP (`initialize`, `tools/list`, `tools/call`, ...) or a batch." }),
          },
        },
      },
    },
    responses: {
      200: ok("The JSON-RPC answer.", McpAnswerSchema),
      202: { description: "A notification or response was accepted (no body)." },
      ...errors({ 401: UNAUTHORIZED_KEY, 403: "`Host` or `Origin` is not this service (`forbidden_origin`)." }),
      429: rateLimited(),
    },
  });
  r.registerPath({
    method: "get",
    path: "/api/v1/messaging/scheduled",
    tags: ["Messaging"],
    operationId: "listScheduledMessages",
    summary: "Scheduled messages (read-only)",
    description:
      "Messages scheduled through the tool interface (`schedule_message` at `/api/mcp`; scheduling and cancelling are not part of REST), on " +
      "the channels the key's member may use, earliest `sendAt` first. Chats hidden by privacy are left out; a pending chat's text is null. " +
      "`status`: `scheduled`, `sent` (`messageId` is the one of `channel.message.sent`), `blocked` (a gate refused when it fired: `reason` " +
      "is the send ack's, or `api_key_revoked`), `cancelled`, `failed` (the channel did not take it: `channel_unreachable`, " +
      "`channel_timeout`, `channel_not_connected`...). Strict query; repeat `status` for several. Page with `cursor` = `page.nextCursor`.",
    security: MESSAGING_SECURITY,
    request: { query: ListScheduledQuery, headers: X_API_KEY_HEADER },
    responses: {
      200: ok("The page.", ScheduledMessageListSchema),
      ...errors({ 400: "Unknown parameter, bad value, or a cursor of another query (`invalid_request`).", 401: UNAUTHORIZED_KEY }),
      429: rateLimited(),
    },
  });
  r.registerPath({
    method: "get",
    path: "/api/v1/messaging/channels",
    tags: ["Messaging"],
    operationId: "listMessagingChannels",
    summary: "Channel inventory",
    description:
      "The channels the key's member may use (it owns them or holds a grant; tenant role does not widen it). Mock channels are excluded. " +
      "Session names, tokens, QR data, gateway URLs and sharing rules never appear. A member with no accessible channel gets an empty " +
      'list with `policy.disabledReasons: ["no_accessible_channels"]`. Strict query; repeat keys for arrays.',
    security: MESSAGING_SECURITY,
    request: { query: ChannelInventoryQuery, headers: X_API_KEY_HEADER },
    responses: {
      200: ok("The inventory.", ChannelInventorySchema),
      ...errors({ 400: "Unknown parameter, comma-separated array or bad value (`invalid_request`).", 401: UNAUTHORIZED_KEY }),
      429: rateLimited(),
    },
  });
}
