import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { config } from "../config";
import type { ToolDefinition, ToolEnv } from "./define-tool";
import { errorResult, toToolResult } from "./result";
import { TOOLS } from "./tools";

const INSTRUCTIONS =
  "Tools of a real-estate CRM's messaging, acting as the member who owns the API key: the same channels, chats and " +
  "rules as the REST API. Find chats with list_conversations (use key.channelId and key.chatId), schedule outbound " +
  "messages with schedule_message (always send a fresh idempotencyKey per message; retry with the same key), and " +
  "label chats. A refusal is a tool error whose structured content says `status` and `reason` (for example " +
  "channel_forbidden, privacy_pending_approval, privacy_denied, opt_out): do not retry it unchanged.";

/**
 * A server for one request, bound to the key's member: every tool's `run` gets the member's verb
 * context. Thrown errors become tool errors with the REST error body (see `errorResult`).
 */
export function createMcpServer(env: ToolEnv, tools: readonly ToolDefinition[] = TOOLS): McpServer {
  const server = new McpServer({ name: `${config().SERVICE_NAME} CRM`, version: "1.0.0" }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  for (const tool of tools) {
    server.registerTool(
      tool.name,
      { title: tool.title, description: tool.description, inputSchema: tool.input, annotations: { title: tool.title, ...tool.annotations } },
      async (args: unknown) => {
        try {
          return toToolResult(await tool.run(env, args as never));
        } catch (err) {
          return errorResult(err, env.log.child({ tool: tool.name }), env.requestId);
        }
      },
    );
  }
  return server;
}
