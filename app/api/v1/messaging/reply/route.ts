import { otherMethods } from "@/lib/http/method-not-allowed";
import { postReply } from "@/lib/http/messaging-reply";

/** A reply in an open conversation: the outbound gates, then the channel's gateway; answers the ack (200 for every status). */
export const POST = postReply;

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, GET, HEAD, PUT, PATCH, DELETE } = otherMethods("POST");
