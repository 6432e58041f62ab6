import { otherMethods } from "@/lib/http/method-not-allowed";
import { parseQuery } from "@/lib/http/query";
import { json, noStore, run, type Segment } from "@/lib/http/run";
import { verifyFeedToken } from "@/lib/leads/channel-auth";
import { FeedQuery, listingsFeed } from "@/lib/leads/feeds/listings-feed";
import { toVrsync } from "@/lib/leads/feeds/vrsync";
import { channelByToken } from "@/lib/leads/inbound/channel-caller";

/** The channel's listings feed (feed token as Bearer): JSON pages by cursor, or `?format=vrsync` XML. */
export function GET(req: Request, segment: Segment<{ pathToken: string }>): Promise<Response> {
  return run(req, segment, noStore, async ({ db, params }) => {
    const channel = await channelByToken(db, params.pathToken);
    verifyFeedToken(channel, req.headers);
    const q = parseQuery(req.url, FeedQuery);
    const page = await listingsFeed(db, channel, q);
    if (q.format === "vrsync") {
      return new Response(toVrsync(page.items, { name: channel.name }), {
        headers: {
          "content-type": "application/xml; charset=utf-8",
          ...(page.nextCursor ? { link: `<?format=vrsync&limit=${q.limit}&cursor=${page.nextCursor}>; rel="next"` } : {}),
        },
      });
    }
    return json(page);
  });
}

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods("GET");
