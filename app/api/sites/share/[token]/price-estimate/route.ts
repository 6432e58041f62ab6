import { otherMethods } from "@/lib/http/method-not-allowed";
import { publicPreflight } from "@/lib/http/public-route";
import { readJson } from "@/lib/http/read-json";
import { json } from "@/lib/http/run";
import { priceEstimate } from "@/lib/share/price-estimate";
import { shareRoute } from "@/lib/http/share-route";
import { pricingVisitor } from "@/lib/share/share-visitor";

type P = { token: string };

/** The pricing tool's valuation of a flat property profile (point, range, confidence, explanation). */
export const POST = shareRoute<P>("pricing_estimate", async ({ req, db, params }) =>
  json(await priceEstimate(await pricingVisitor(db, params.token), await readJson(req))),
);

export const OPTIONS = publicPreflight;

/** Other methods answer a JSON 405 with `Allow`. */
export const { GET, HEAD, PUT, PATCH, DELETE } = otherMethods("POST", "OPTIONS");
