import { chatRoute } from "@/lib/http/chat-route";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { publicPreflight } from "@/lib/http/public-route";
import { postShareChatMessage, visitorChat } from "@/lib/http/web-chat-routes";
import { shareChatPlace } from "@/lib/messaging/web-chat/place";

/** The visitor's message (Bearer session token), stored before the 201; idempotent on `clientMessageId`. */
export const POST = postShareChatMessage;
/** The conversation's messages after `after`. */
export const GET = chatRoute<{ token: string }>("chat_read", async ({ req, db, params }) =>
  visitorChat.listMessages(db, await shareChatPlace(db, params.token), req),
);
export const OPTIONS = publicPreflight;
export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST", "OPTIONS");
