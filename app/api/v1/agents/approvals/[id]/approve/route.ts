import { approveMessage } from "@/lib/agents/approvals";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { pathId } from "@/lib/http/path-id";
import { apiRoute, json } from "@/lib/http/route";

type P = { id: string };

export const POST = apiRoute<P>(async ({ params, ctx }) => json(await approveMessage(ctx, pathId(params.id, "approval"))));

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, GET, HEAD, PUT, PATCH, DELETE } = otherMethods("POST");
