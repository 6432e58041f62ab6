import { otherMethods } from "@/lib/http/method-not-allowed";
import { publicPreflight } from "@/lib/http/public-route";
import { readJson } from "@/lib/http/read-json";
import { json } from "@/lib/http/run";
import { capturePricingLead } from "@/lib/share/pricing-lead";
import { shareRoute } from "@/lib/share/share-route";

type P = { token: string };

/** A homeowner's contact, profile and the estimate they saw: stored, then processed into a deal. */
export const POST = shareRoute<P>("pricing_lead", async ({ req, db, params }) =>
  json(await capturePricingLead(db, params.token, await readJson(req), req.headers), 202),
);

export const OPTIONS = publicPreflight;

/** Other methods answer a JSON 405 with `Allow`. */
export const { GET, HEAD, PUT, PATCH, DELETE } = otherMethods("POST", "OPTIONS");
