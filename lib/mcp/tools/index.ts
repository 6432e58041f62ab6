import type { ToolDefinition } from "../define-tool";
import { listChannelsTool, setChatPrivacyTool, updateChannelTool } from "./channels";
import { getConversationTool, listConversationsTool } from "./conversations";
import { cancelScheduledMessageTool, listScheduledMessagesTool } from "./scheduled";

/** Every tool of `/api/mcp`, in the order `tools/list` gives them. */
export const TOOLS = [
  listChannelsTool,
  listConversationsTool,
  getConversationTool,
  listScheduledMessagesTool,
  cancelScheduledMessageTool,
  updateChannelTool,
  setChatPrivacyTool,
] as unknown as readonly ToolDefinition[];
