import { otherMethods } from "@/lib/http/method-not-allowed";
import { pathId } from "@/lib/http/path-id";
import { apiRoute, json } from "@/lib/http/route";
import { replayLead } from "@/lib/leads/inbound/lead-log";

/** A failed lead is processed again, keeping its dedupe key. */
export const POST = apiRoute<{ id: string; leadId: string }>(
  async ({ params, ctx }) => json(await replayLead(ctx, pathId(params.id, "marketing channel"), pathId(params.leadId, "lead")), 202),
  { permission: "tenant.admin" },
);

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { GET, HEAD, OPTIONS, PUT, PATCH, DELETE } = otherMethods("POST");
