import { z } from "zod";
import { addChatLabel, createChannelLabel, deleteChannelLabel, removeChatLabel } from "../../messaging/labels/mutate-labels";
import { defineTool } from "../define-tool";
import { done } from "../result";
import { chatIdArg } from "./conversations";

const ERRORS =
  "Errors: `channel_forbidden` (no grant on the channel), `not_found_or_inaccessible`, `privacy_restricted` (chat hidden by privacy), " +
  "`channel_labels_unsupported` (e.g. WhatsApp Cloud), `label_not_found`, `channel_unreachable` (the gateway did not do it; nothing changed).";
const labelId = z.string().min(1).max(100).describe("A label id of the channel (labels come with the gateway; see the channel's labels).");

export const addChatLabelTool = defineTool({
  name: "add_chat_label",
  title: "Label a chat",
  description: `Adds a label to a chat on the channel's provider (WhatsApp labels through the gateway) and answers the chat's labels. Adding a label the chat already has changes nothing. ${ERRORS}`,
  input: z.strictObject({ channelId: z.uuid(), chatId: chatIdArg, labelId }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  async run({ ctx }, args) {
    const r = await addChatLabel(ctx, args);
    return done({ channelId: args.channelId, ...r }, `Chat labels now: ${r.labels.join(", ") || "none"}.`);
  },
});

export const removeChatLabelTool = defineTool({
  name: "remove_chat_label",
  title: "Remove a chat's label",
  description: `Removes a label from a chat on the channel's provider and answers the chat's labels. Removing a label the chat does not have changes nothing. ${ERRORS}`,
  input: z.strictObject({ channelId: z.uuid(), chatId: chatIdArg, labelId }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  async run({ ctx }, args) {
    const r = await removeChatLabel(ctx, args);
    return done({ channelId: args.channelId, ...r }, `Chat labels now: ${r.labels.join(", ") || "none"}.`);
  },
});

export const createLabelTool = defineTool({
  name: "create_label",
  title: "Create a label",
  description: `Creates a label on the channel's provider and answers it (\`id\`, \`name\`, \`color\`); use its \`id\` with add_chat_label. Each call creates a new label. ${ERRORS}`,
  input: z.strictObject({
    channelId: z.uuid(),
    name: z.string().trim().min(1).max(100),
    colorHex: z
      .string()
      .regex(/^#[0-9a-fA-F]{6}$/)
      .optional()
      .describe("#rrggbb"),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  async run({ ctx }, args) {
    const label = await createChannelLabel(ctx, args);
    return done({ channelId: args.channelId, label }, `Created label ${label.name} (id ${label.id}).`);
  },
});

export const deleteLabelTool = defineTool({
  name: "delete_label",
  title: "Delete a label",
  description: `Deletes a label from the channel's provider; every chat loses it. ${ERRORS}`,
  input: z.strictObject({ channelId: z.uuid(), labelId }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  async run({ ctx }, args) {
    const r = await deleteChannelLabel(ctx, args);
    return done({ channelId: args.channelId, ...r }, `Deleted label ${r.id}.`);
  },
});
