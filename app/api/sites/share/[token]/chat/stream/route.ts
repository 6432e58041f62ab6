import { chatRoute } from "@/lib/http/chat-route";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { publicPreflight } from "@/lib/http/public-route";
import { visitorChat } from "@/lib/http/web-chat-routes";
import { shareChatPlace } from "@/lib/messaging/web-chat/place";

/** Server-Sent Events of the conversation (the agency's replies as they are sent). */
export const GET = chatRoute<{ token: string }>("chat_read", async ({ req, db, params }) =>
  visitorChat.stream(db, await shareChatPlace(db, params.token), req),
);
export const OPTIONS = publicPreflight;
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET", "OPTIONS");
