import { otherMethods } from "@/lib/http/method-not-allowed";
import { publicPreflight } from "@/lib/http/public-route";
import { json } from "@/lib/http/run";
import { resolveShare } from "@/lib/share/resolve-share";
import { shareVisitor } from "@/lib/share/share-visitor";
import { optionalJson, shareRoute, visitOf } from "@/lib/http/share-route";

type P = { token: string };

export const GET = shareRoute<P>("content", async ({ req, db, params }) =>
  json(await resolveShare(await shareVisitor(db, params.token), { visit: visitOf(req) })),
);

/** `{password}` opens a protected link (spec 2 §5.2). */
export const POST = shareRoute<P>("content", async ({ req, db, params }) =>
  json(await resolveShare(await shareVisitor(db, params.token), { body: await optionalJson(req), visit: visitOf(req) })),
);

export const OPTIONS = publicPreflight;

/** Other methods answer a JSON 405 with `Allow`. */
export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST", "OPTIONS");
