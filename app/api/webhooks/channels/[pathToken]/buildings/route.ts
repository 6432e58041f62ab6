import { buildingsFeed } from "@/lib/developments/buildings-feed";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { json, noStore, run, type Segment } from "@/lib/http/run";
import { verifyFeedToken } from "@/lib/leads/channel-auth";
import { channelByToken } from "@/lib/leads/inbound/channel-caller";

/** The tenant's developments for the channel's system (feed token as Bearer). */
export function GET(req: Request, segment: Segment<{ pathToken: string }>): Promise<Response> {
  return run(req, segment, noStore, async ({ db, params }) => {
    const channel = await channelByToken(db, params.pathToken);
    verifyFeedToken(channel, req.headers);
    return json(await buildingsFeed(db, channel.tenantId));
  });
}

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods("GET");
