import { otherMethods } from "@/lib/http/method-not-allowed";
import { publicPreflight } from "@/lib/http/public-route";
import { parseQuery } from "@/lib/http/query";
import { json } from "@/lib/http/run";
import { NeighborhoodsQuery, pricingNeighborhoods } from "@/lib/share/pricing-neighborhoods";
import { shareRoute } from "@/lib/http/share-route";
import { pricingVisitor } from "@/lib/share/share-visitor";

type P = { token: string };

/** Canonical neighbourhood names of a city for the pricing tool's autocomplete. */
export const GET = shareRoute<P>("pricing_autocomplete", async ({ req, db, params }) =>
  json(await pricingNeighborhoods(await pricingVisitor(db, params.token), parseQuery(req.url, NeighborhoodsQuery))),
);

export const OPTIONS = publicPreflight;

/** Other methods answer a JSON 405 with `Allow`. */
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET", "OPTIONS");
