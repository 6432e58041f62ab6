import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { CreateTenantSchema, CreatedTenantSchema } from "../../admin/create-tenant";
import { OPERATOR_SECURITY, TOO_LARGE, errors, jsonContent, ok } from "../common";

/** The operator API: run by whoever hosts the installation, not by tenants. */
export function registerAdminPaths(r: OpenAPIRegistry): void {
  r.registerPath({
    method: "post",
    path: "/api/admin/tenants",
    tags: ["Operator"],
    operationId: "createTenant",
    summary: "Create a tenant with its owner and first API key",
    description:
      "Creates a tenant with the default settings (Portuguese only, the default listing workflow, property types and " +
      "features), its first member with role `owner`, and a broad API key for that owner. The key is returned only in " +
      "this response: store it, it cannot be read again (issue another under `/api/v1/settings/api-keys`).\n\n" +
      "`slug` is optional: when omitted it is derived from `name` (accents removed, lowercase, `-` separated) and " +
      "suffixed `-2`, `-3`... when taken. An explicit `slug` that is taken is a 409.\n\n" +
      "Authentication: `Authorization: Bearer <OPERATOR_TOKEN>` (the `OPERATOR_TOKEN` environment variable, or the token " +
      "generated into `<DATA_DIR>/operator-token` and printed on the first start). Tenant API keys are not accepted here.",
    security: OPERATOR_SECURITY,
    request: { body: { required: true, content: jsonContent(CreateTenantSchema) } },
    responses: {
      201: ok("Tenant created. `apiKey` is the owner's broad key, shown once.", CreatedTenantSchema),
      ...errors({
        400: "Invalid body (`invalid_request` with `issues`, or `invalid_json`); also a `name` from which no slug can be derived.",
        401: "Missing or wrong operator token (`unauthorized`).",
        409: "The requested `slug` is already taken (`conflict`).",
        413: TOO_LARGE,
      }),
    },
  });
}
