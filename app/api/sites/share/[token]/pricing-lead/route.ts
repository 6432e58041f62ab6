import { otherMethods } from "@/lib/http/method-not-allowed";
import { publicPreflight } from "@/lib/http/public-route";
import { readJson } from "@/lib/http/read-json";
import { json } from "@/lib/http/run";
import { capturePricingLead } from "@/lib/share/pricing-lead";
import { shareRoute, traceOf } from "@/lib/http/share-route";
import { pricingVisitor } from "@/lib/share/share-visitor";

type P = { token: string };

/** A homeowner's contact, profile and the estimate they saw: stored, then processed into a deal. */
export const POST = shareRoute<P>("pricing_lead", async ({ req, db, params }) =>
  json(await capturePricingLead(await pricingVisitor(db, params.token), { body: await readJson(req), trace: traceOf(req) }), 202),
);

export const OPTIONS = publicPreflight;

/** Other methods answer a JSON 405 with `Allow`. */
export const { GET, HEAD, PUT, PATCH, DELETE } = otherMethods("POST", "OPTIONS");
