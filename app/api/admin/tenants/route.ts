import { json, operatorRoute } from "@/lib/http/route";
import { readJson } from "@/lib/http/read-json";
import { createTenant } from "@/lib/admin/create-tenant";
import { otherMethods } from "@/lib/http/method-not-allowed";

export const POST = operatorRoute(async ({ req, db, log }) => {
  const created = await createTenant({ db }, await readJson(req));
  log.info({ tenantId: created.tenantId, slug: created.slug }, "tenant created");
  return json(created, 201);
});

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { GET, HEAD, OPTIONS, PUT, PATCH, DELETE } = otherMethods("POST");
