import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { CreateMemberSchema, MemberListSchema, MemberSchema, UpdateMemberSchema } from "../../tenants/member-schemas";
import { ADMIN_ONLY, API_KEY_SECURITY, NOT_ADMIN, TOO_LARGE, UNAUTHORIZED_KEY, errors, jsonContent, ok, uuidParam } from "../common";

export function registerMemberPaths(r: OpenAPIRegistry): void {
  r.registerPath({
    method: "get",
    path: "/api/v1/settings/members",
    tags: ["Members"],
    operationId: "listMembers",
    summary: "List the tenant's members",
    description: `All members (brokers, managers, admins, owners), active and inactive, oldest first. Not paginated.\n\n${ADMIN_ONLY}`,
    security: API_KEY_SECURITY,
    responses: {
      200: ok("Every member of the tenant.", MemberListSchema),
      ...errors({ 401: UNAUTHORIZED_KEY, 403: NOT_ADMIN }),
    },
  });

  r.registerPath({
    method: "post",
    path: "/api/v1/settings/members",
    tags: ["Members"],
    operationId: "createMember",
    summary: "Add a member",
    description:
      "Adds a member (default role `broker`). `email` is unique per tenant, compared case-insensitively; `phone` is " +
      "accepted in any format and stored as E.164 (Brazil assumed without a country code). Only an `owner` may add " +
      `another owner. A member acts through API keys issued under \`/api/v1/settings/api-keys\`.\n\n${ADMIN_ONLY}`,
    security: API_KEY_SECURITY,
    request: { body: { required: true, content: jsonContent(CreateMemberSchema) } },
    responses: {
      201: ok("The new member.", MemberSchema),
      ...errors({
        400: "Invalid body (`invalid_request` with `issues`, or `invalid_json`).",
        401: UNAUTHORIZED_KEY,
        403: `${NOT_ADMIN} Also an admin trying to add an owner.`,
        409: "A member with this e-mail already exists in the tenant (`conflict`).",
        413: TOO_LARGE,
      }),
    },
  });

  r.registerPath({
    method: "patch",
    path: "/api/v1/settings/members/{id}",
    tags: ["Members"],
    operationId: "updateMember",
    summary: "Change a member",
    description:
      "Partial update; send at least one field. `active: false` deactivates the member: its API keys stop working at " +
      "once, and its open deals are handed over in the same transaction to `transferDealsTo` (an active member; default " +
      "the member of the key making the change), each with one `distribution.transferred` (`transferReason` " +
      "`member_deactivated`) and a `deal.updated`; won and lost deals keep their owner. Only an `owner` may change an owner's role or status, or make someone an owner. The tenant always keeps " +
      `one active owner: demoting or deactivating the last one is a 409.\n\n${ADMIN_ONLY}`,
    security: API_KEY_SECURITY,
    request: { params: uuidParam("id", "member"), body: { required: true, content: jsonContent(UpdateMemberSchema) } },
    responses: {
      200: ok("The member after the change.", MemberSchema),
      ...errors({
        400: "Invalid or empty body (`invalid_request`, with `issues` for schema errors); `transferDealsTo` without `active: false`, or not another active member.",
        401: UNAUTHORIZED_KEY,
        403: `${NOT_ADMIN} Also a non-owner changing an owner's role or status.`,
        404: "No member with this id in the tenant (`not_found`).",
        409: "E-mail already used by another member, or the change would leave no active owner (`conflict`).",
        413: TOO_LARGE,
      }),
    },
  });
}
