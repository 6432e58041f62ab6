import { z } from "zod";
import { DomainError } from "../errors/domain-errors";
import { readCappedBody } from "../http/read-json";
import { json, noStore, run } from "../http/run";
import { verifySignature } from "../leads/channel-auth";
import { channelCaller, rememberChannel, type ChannelCtx } from "../leads/inbound/channel-caller";
import { MAX_LEAD_BYTES, receiveLead, type LeadOutcome, type LeadPost, type SyncMode } from "../leads/inbound/receive-lead";

/** Headers kept with the raw body: enough to trace and re-verify a lead, never credentials. */
const KEPT_HEADERS = ["content-type", "user-agent", "x-forwarded-for", "x-request-id", "x-inbound-destination", "x-signature", "x-hmac-sha256"];

/**
 * `POST /api/webhooks/channels/{pathToken}` as one function of a `Request`: what the route
 * (`app/api/webhooks/channels/[pathToken]/route.ts`) and our server's lead lane
 * (`./lead-intake-lane.ts`) both answer with, so the two cannot differ. The HTTP half: the channel
 * from the path (404), the capped body (413), its signature (401), then the verb, whose outcome
 * becomes the answer.
 */
export function postLead(req: Request, pathToken: string): Promise<Response> {
  return run(req, { params: Promise.resolve({ pathToken }) }, noStore, async ({ db }) => {
    let ctx = await channelCaller(db, pathToken);
    const post: LeadPost = {
      rawBody: await readCappedBody(
        req,
        MAX_LEAD_BYTES,
        () => new DomainError("too_large", "payload_too_large", `The lead is larger than ${MAX_LEAD_BYTES / 1024} KB.`),
      ),
      destination: req.headers.get("x-inbound-destination"),
      sync: syncParam(new URL(req.url).searchParams.get("sync")),
      trace: Object.fromEntries(KEPT_HEADERS.flatMap((h) => (req.headers.get(h) ? [[h, req.headers.get(h)!.slice(0, 500)]] : []))),
    };
    let outcome: LeadOutcome;
    try {
      outcome = await authenticatedReceive(ctx, req.headers, post);
    } catch (err) {
      // Refused by what the hint said (its secret or destinations may have changed): decide again
      // on the channel as it is. A body that is not JSON is refused whatever the channel.
      if (!ctx.actor.hinted || !(err instanceof DomainError) || (err.kind !== "unauthorized" && err.kind !== "forbidden")) throw err;
      outcome = { kind: "channel_changed" };
    }
    if (outcome.kind === "channel_changed") {
      ctx = await channelCaller(db, pathToken, { fresh: true });
      outcome = await authenticatedReceive(ctx, req.headers, post);
    }
    rememberChannel(ctx);
    const [body, status] = answerOf(outcome);
    return json(body, status);
  });
}

/** A channel with a secret signs its leads (spec 2 §5.3). */
function authenticatedReceive(ctx: ChannelCtx, headers: Headers, post: LeadPost): Promise<LeadOutcome> {
  if (ctx.actor.channel.secret) verifySignature(ctx.actor.channel.secret, headers, post.rawBody);
  return receiveLead(ctx, post);
}

function syncParam(v: string | null): SyncMode | null {
  if (v === "assignment") return "assignment";
  if (v === "true" || v === "deal") return "deal";
  if (v === "false") return "none";
  return null;
}

/** Spec 2 §4: the 200 of a lead processed in this call (`sync`), or of a repeat of a processed one. */
export const LeadProcessedSchema = z.object({
  ok: z.boolean(),
  status: z.string(),
  duplicate: z.literal(true).optional().meta({ description: "Only on a repeat (`status` `duplicate`)." }),
  dealId: z.uuid().nullable(),
  listingId: z.uuid().nullable(),
  assignedToId: z.uuid().nullable(),
  idempotent: z.boolean(),
});

/** Spec 2 §4: the 202 of a stored lead (`{ok, accepted}`), one still in flight (`processing`), or one whose processing failed. */
export const LeadAcceptedSchema = z.object({
  ok: z.boolean(),
  accepted: z.boolean().optional(),
  status: z.string().optional(),
  dealId: z.uuid().nullable().optional(),
  error: z.string().optional().meta({ description: "With `status` `failed_processing`: the lead is stored and can be replayed from the channel's lead log." }),
});

/** Spec 2 §4's answers. */
function answerOf(o: LeadOutcome): [z.infer<typeof LeadProcessedSchema>, 200] | [z.infer<typeof LeadAcceptedSchema>, 202] {
  switch (o.kind) {
    case "accepted":
      return [{ ok: true, accepted: true }, 202];
    case "created":
      return [{ ok: true, status: "created", ...o.ids, idempotent: o.idempotent }, 200];
    case "duplicate":
      return [{ ok: true, status: "duplicate", duplicate: true, idempotent: true, ...o.ids }, 200];
    case "processing":
      return [{ ok: true, status: "processing", dealId: o.dealId }, 202];
    case "failed_processing":
      return [
        { ok: true, status: "failed_processing", accepted: true, error: "Stored; processing failed and can be replayed from the channel's lead log." },
        202,
      ];
    case "channel_changed":
      throw new Error("a lead post was answered on a channel that changed twice in one call");
  }
}
