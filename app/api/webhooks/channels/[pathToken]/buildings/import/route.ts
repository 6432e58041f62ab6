import { postBuildingsImport } from "@/lib/inbound/buildings-import";
import { otherMethods } from "@/lib/http/method-not-allowed";

/** A channel's system upserts developments (buildings, typologies, units) by `externalId`, with its feed token or secret. */
export const POST = postBuildingsImport;

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, GET, HEAD, PUT, PATCH, DELETE } = otherMethods("POST");
