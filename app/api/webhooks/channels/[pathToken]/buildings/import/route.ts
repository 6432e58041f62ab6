import { importChannelBuildings } from "@/lib/developments/channel-import";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { json, noStore, run, type Segment } from "@/lib/http/run";

/** A channel's system upserts developments (buildings, typologies, units) by `externalId`, with its feed token or secret. */
export function POST(req: Request, segment: Segment<{ pathToken: string }>): Promise<Response> {
  return run(req, segment, noStore, async ({ db, params }) => json(await importChannelBuildings(db, params.pathToken, req)));
}

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, GET, HEAD, PUT, PATCH, DELETE } = otherMethods("POST");
