import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { DbOrTx } from "../../../db/client";
import { messagingChannels, type MessagingChannelRow } from "../../../db/schema";
import { inTenantTransaction } from "../../../db/transaction";
import type { MemberCtx } from "../../context/verb-context";
import { seal } from "../secret-box";

/** The provider name of channels the service itself carries (no gateway). */
export const WEB_CHAT_PROVIDER = "web_chat";

/**
 * `POST /settings/messaging-channels` with `transport: "web_chat"`: a channel with no gateway. The
 * service is its provider (it stores the messages and streams them to the visitor), so there is no
 * base URL, key, session or webhook to set.
 */
export const CreateWebChatChannelSchema = z
  .strictObject({
    name: z.string().trim().min(1).max(120),
    transport: z.literal("web_chat"),
    provider: z.literal(WEB_CHAT_PROVIDER).optional().meta({ description: "Optional: a web-chat channel's provider is the service itself." }),
    ownerId: z
      .uuid()
      .transform((v) => v.toLowerCase())
      .optional()
      .meta({ description: "Member who owns the channel (default: the key's member); the owner always has access." }),
    privacyMode: z.enum(["off", "whitelist"]).default("off"),
    mock: z.boolean().default(false),
  })
  .meta({ id: "CreateWebChatChannel" });

/** A create body for a web-chat channel (the other transports keep their own schema). */
export const isWebChatBody = (body: unknown): boolean =>
  typeof body === "object" && body !== null && (body as { transport?: unknown }).transport === "web_chat";

/** Inserts the channel (connected at once: nothing to connect to); `assertOwner` checks the owner in the same transaction. */
export async function insertWebChatChannel(
  ctx: MemberCtx,
  body: unknown,
  assertOwner: (tx: DbOrTx, ownerId: string) => Promise<void>,
): Promise<MessagingChannelRow> {
  const data = CreateWebChatChannelSchema.parse(body);
  const ownerId = data.ownerId ?? ctx.actor.userId;
  return inTenantTransaction(ctx.db, ctx.tenantId, async (tx) => {
    await assertOwner(tx, ownerId);
    const [row] = await tx
      .insert(messagingChannels)
      .values({
        tenantId: ctx.tenantId,
        name: data.name,
        transport: "web_chat",
        provider: WEB_CHAT_PROVIDER,
        // The gateway columns hold nothing usable: no URL, and credentials naming the session as the
        // transport (the `sessionName` of `channel.message.*` events).
        baseUrl: "",
        credentials: seal(JSON.stringify({ apiKey: "", sessionName: "web_chat" })),
        webhookSecret: seal(randomBytes(32).toString("base64url")),
        channelToken: `msg_${randomBytes(24).toString("base64url")}`,
        ownerId,
        privacyMode: data.privacyMode,
        mock: data.mock,
        connectionState: "connected",
      })
      .returning();
    return row;
  });
}
