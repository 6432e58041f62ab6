import { chatRoute } from "@/lib/http/chat-route";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { publicPreflight } from "@/lib/http/public-route";
import { visitorChat } from "@/lib/http/web-chat-routes";
import { shareChatPlace } from "@/lib/messaging/web-chat/place";

/** A visitor opens a chat on a share page: the session token and the conversation key. */
export const POST = chatRoute<{ token: string }>("chat_session", async ({ req, db, params }) =>
  visitorChat.openSession(db, await shareChatPlace(db, params.token), req),
);
export const OPTIONS = publicPreflight;
export const { GET, HEAD, PUT, PATCH, DELETE } = otherMethods("POST", "OPTIONS");
