import { importBuildings } from "../developments/import-buildings";
import { DomainError, invalid } from "../errors/domain-errors";
import { readCappedBody } from "../http/read-json";
import { json, noStore, run, type Segment } from "../http/run";
import { verifyChannelSystem } from "../leads/channel-auth";
import { channelCaller } from "../leads/inbound/channel-caller";

const MAX_IMPORT_BYTES = 10 * 1024 * 1024;

/**
 * `POST /api/webhooks/channels/{pathToken}/buildings/import`, authenticated as a write of the
 * channel's system (feed token, or the channel's secret: `verifyChannelSystem`). Without a secret
 * only the feed token can pass, so it is checked before up to 10 MB of body is read.
 */
export function postBuildingsImport(req: Request, segment: Segment<{ pathToken: string }>): Promise<Response> {
  return run(req, segment, noStore, async ({ db, params }) => {
    const ctx = await channelCaller(db, params.pathToken, { fresh: true });
    const { channel } = ctx.actor;
    if (!channel.secret) verifyChannelSystem(channel, req.headers, null);
    const raw = await readCappedBody(
      req,
      MAX_IMPORT_BYTES,
      () => new DomainError("too_large", "payload_too_large", "The import is larger than 10 MB: send fewer buildings per request."),
    );
    if (channel.secret) verifyChannelSystem(channel, req.headers, raw);
    let body: unknown;
    try {
      body = JSON.parse(raw.toString("utf8"));
    } catch {
      throw invalid('The body is not valid JSON: send {"buildings": [...]}.', "invalid_json");
    }
    return json(await importBuildings(ctx, body));
  });
}
