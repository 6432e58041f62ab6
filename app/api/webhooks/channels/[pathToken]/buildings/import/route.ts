import { importBuildings } from "@/lib/developments/import-buildings";
import { DomainError, invalid } from "@/lib/errors/domain-errors";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { readCappedBody } from "@/lib/http/read-json";
import { json, noStore, run, type Segment } from "@/lib/http/run";
import { channelByToken, verifySignature } from "@/lib/leads/inbound/receive-lead";

const MAX_IMPORT_BYTES = 10 * 1024 * 1024;

/** A channel's system upserts developments (buildings, typologies, units) by `externalId`; authenticated like its leads. */
export function POST(req: Request, segment: Segment<{ pathToken: string }>): Promise<Response> {
  return run(req, segment, noStore, async ({ db, params }) => {
    const channel = await channelByToken(db, params.pathToken);
    const raw = await readCappedBody(req, MAX_IMPORT_BYTES, () => new DomainError("too_large", "payload_too_large", "The import is larger than 10 MB: send fewer buildings per request."));
    if (channel.secret) verifySignature(channel.secret, req.headers, raw);
    let body: unknown;
    try {
      body = JSON.parse(raw.toString("utf8"));
    } catch {
      throw invalid("The body is not valid JSON: send {\"buildings\": [...]}.", "invalid_json");
    }
    return json(await importBuildings(db, channel.tenantId, body));
  });
}

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, GET, HEAD, PUT, PATCH, DELETE } = otherMethods("POST");
