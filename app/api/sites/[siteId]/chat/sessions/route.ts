import { chatRoute } from "@/lib/http/chat-route";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { publicPreflight } from "@/lib/http/public-route";
import { visitorChat } from "@/lib/http/web-chat-routes";
import { siteChatPlace } from "@/lib/messaging/web-chat/place";

/** A visitor opens a chat on the site: the session token and the conversation key. */
export const POST = chatRoute<{ siteId: string }>("chat_session", async ({ req, db, params }) =>
  visitorChat.openSession(db, await siteChatPlace(db, params.siteId), req),
);
export const OPTIONS = publicPreflight;
export const { GET, HEAD, PUT, PATCH, DELETE } = otherMethods("POST", "OPTIONS");
