import type { ToolDefinition } from "../define-tool";
import { listChannelsTool, setChatPrivacyTool, updateChannelTool } from "./channels";
import { getConversationTool, listConversationsTool } from "./conversations";
import { addChatLabelTool, createLabelTool, deleteLabelTool, removeChatLabelTool } from "./labels";
import { scheduleMessageTool } from "./schedule-message";
import { cancelScheduledMessageTool, listScheduledMessagesTool } from "./scheduled";

/** Every tool of `/api/mcp`, in the order `tools/list` gives them. */
export const TOOLS = [
  listChannelsTool,
  listConversationsTool,
  getConversationTool,
  scheduleMessageTool,
  cancelScheduledMessageTool,
  listScheduledMessagesTool,
  addChatLabelTool,
  removeChatLabelTool,
  createLabelTool,
  deleteLabelTool,
  updateChannelTool,
  setChatPrivacyTool,
] as unknown as readonly ToolDefinition[];
