import { otherMethods } from "@/lib/http/method-not-allowed";
import { pathId } from "@/lib/http/path-id";
import { apiRoute } from "@/lib/http/route";
import { deleteTemplate } from "@/lib/messaging/templates";

export const DELETE = apiRoute<{ id: string; templateId: string }>(
  async ({ params, ctx }) => {
    await deleteTemplate(ctx, { id: pathId(params.id, "messaging channel"), templateId: pathId(params.templateId, "template") });
    return new Response(null, { status: 204 });
  },
  { permission: "tenant.admin" },
);

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, GET, HEAD, POST, PUT, PATCH } = otherMethods("DELETE");
