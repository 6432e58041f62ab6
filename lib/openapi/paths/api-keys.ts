import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { ApiKeyListSchema, ApiKeySchema, CreateApiKeySchema, CreatedApiKeySchema } from "../../auth/api-keys";
import { ADMIN_ONLY, API_KEY_SECURITY, NOT_ADMIN, TOO_LARGE, UNAUTHORIZED_KEY, errors, jsonContent, ok, uuidParam } from "../common";

export function registerApiKeyPaths(r: OpenAPIRegistry): void {
  r.registerPath({
    method: "get",
    path: "/api/v1/settings/api-keys",
    tags: ["API keys"],
    operationId: "listApiKeys",
    summary: "List the tenant's API keys",
    description: `Every key of the tenant, revoked ones included (\`revokedAt\` set), newest first. Secrets are never returned: \`prefix\` tells keys apart.\n\n${ADMIN_ONLY}`,
    security: API_KEY_SECURITY,
    responses: {
      200: ok("The tenant's keys, without secrets.", ApiKeyListSchema),
      ...errors({ 401: UNAUTHORIZED_KEY, 403: NOT_ADMIN }),
    },
  });

  r.registerPath({
    method: "post",
    path: "/api/v1/settings/api-keys",
    tags: ["API keys"],
    operationId: "createApiKey",
    summary: "Issue an API key for a member",
    description:
      "Issues a permanent key that acts as member `userId` (which must be active). The secret `key` is returned only in " +
      "this response; only its hash is stored. Send it as `Authorization: Bearer <key>`.\n\n" +
      "`scope` (default `broad`): a `broad` key sees what its member's role sees (owner, admin and manager: every " +
      "listing of the tenant, private ones included); a `restricted` key, like any key of a `broker` member, sees only " +
      `what a broker sees in the UI: public listings plus the properties and listings assigned to or created by its member.\n\n${ADMIN_ONLY}`,
    security: API_KEY_SECURITY,
    request: { body: { required: true, content: jsonContent(CreateApiKeySchema) } },
    responses: {
      201: ok("The new key, with its secret shown once.", CreatedApiKeySchema),
      ...errors({
        400: "Invalid body, or `userId` names no member of the tenant or an inactive one (`invalid_request`).",
        401: UNAUTHORIZED_KEY,
        403: NOT_ADMIN,
        413: TOO_LARGE,
      }),
    },
  });

  r.registerPath({
    method: "delete",
    path: "/api/v1/settings/api-keys/{id}",
    tags: ["API keys"],
    operationId: "revokeApiKey",
    summary: "Revoke an API key",
    description:
      "Revokes the key: requests with it fail with 401 from the next request on. The key row stays listed with " +
      `\`revokedAt\`. Revoking an already revoked key changes nothing and returns it again.\n\n${ADMIN_ONLY}`,
    security: API_KEY_SECURITY,
    request: { params: uuidParam("id", "API key") },
    responses: {
      200: ok("The revoked key.", ApiKeySchema),
      ...errors({
        401: UNAUTHORIZED_KEY,
        403: NOT_ADMIN,
        404: "No API key with this id in the tenant (`not_found`).",
      }),
    },
  });
}
