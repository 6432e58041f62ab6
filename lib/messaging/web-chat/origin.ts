import { z } from "zod";

/** Where a web chat started, as the member's conversation detail shows it. */
export const WebChatOriginSchema = z
  .object({
    pageUrl: z.string().nullable().meta({ description: "The page the visitor opened the chat on." }),
    listingId: z.uuid().nullable().meta({ description: "The listing that page showed." }),
    siteId: z.uuid().nullable(),
    shareLinkId: z.uuid().nullable(),
  })
  .meta({ id: "WebChatOrigin" });
