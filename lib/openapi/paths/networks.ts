import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import {
  CreateNetworkSchema,
  JoinedNetworkSchema,
  JoinNetworkSchema,
  NetworkListSchema,
  NetworkSchema,
  SharedListingsSchema,
  ShareListingsSchema,
} from "../../networks/networks";
import { ADMIN_ONLY, API_KEY_SECURITY, NOT_ADMIN, TOO_LARGE, UNAUTHORIZED_KEY, errors, jsonContent, ok, uuidParam } from "../common";

/** The Networks tag description. */
export const NETWORKS_TAG = "Partner networks: agencies that share listings with each other in their searches (owner or admin broad key).";

const SHARING =
  "**Sharing.** The listings a member shares to a network appear, public ones only, in the listing searches " +
  "(`GET /api/v1/real-estate/listings/search`, with `includeNetworks`, the default) of the network's other members, " +
  "marked `isNetworkListing: true`. They carry only the search summary, never the owner agency's contacts or " +
  "internal data, and they are never returned by the other endpoints of the members who see them. A shared private " +
  "listing stays out of their searches until it is made public.";

const networkId = uuidParam("id", "network");

export function registerNetworkPaths(r: OpenAPIRegistry): void {
  r.registerPath({
    method: "get",
    path: "/api/v1/settings/networks",
    tags: ["Networks"],
    operationId: "listNetworks",
    summary: "List the tenant's partner networks",
    description:
      "The partner networks the tenant belongs to, each with `members` (the agencies in it, this one included) and " +
      "`sharedListings` (how many of this tenant's listings it shares there). The invite code is never returned here: " +
      `only its hash is stored. Not paginated.\n\n${SHARING}\n\n${ADMIN_ONLY}`,
    security: API_KEY_SECURITY,
    responses: {
      200: ok("Every network the tenant belongs to.", NetworkListSchema),
      ...errors({ 401: UNAUTHORIZED_KEY, 403: NOT_ADMIN }),
    },
  });

  r.registerPath({
    method: "post",
    path: "/api/v1/settings/networks",
    tags: ["Networks"],
    operationId: "createNetwork",
    summary: "Create a partner network",
    description:
      "Creates a network (`name`, 1 to 120 characters, trimmed) with this tenant as its first member. The answer's " +
      "`inviteCode` (`net_...`) is shown only in this response: only its hash is stored, so it cannot be read again. " +
      "Give it to the partner agencies, which join with `POST /api/v1/settings/networks/join`.\n\n" +
      `${SHARING}\n\n${ADMIN_ONLY}`,
    security: API_KEY_SECURITY,
    request: { body: { required: true, content: { "application/json": { schema: CreateNetworkSchema, example: { name: "Parceiros Zona Oeste" } } } } },
    responses: {
      201: ok("The new network, with its `inviteCode` shown once.", NetworkSchema),
      ...errors({
        400: "Invalid body (`invalid_request` with `issues`, or `invalid_json`): `name` missing, empty or longer than 120 characters, or an unknown field.",
        401: UNAUTHORIZED_KEY,
        403: NOT_ADMIN,
        413: TOO_LARGE,
      }),
    },
  });

  r.registerPath({
    method: "post",
    path: "/api/v1/settings/networks/join",
    tags: ["Networks"],
    operationId: "joinNetwork",
    summary: "Join a partner network",
    description:
      "Makes this tenant a member of the network whose invite code is sent. From then on the public listings the " +
      "other members share there appear in this tenant's searches, and this tenant can share its own with " +
      `\`PUT /api/v1/settings/networks/{id}/listings\`.\n\n${SHARING}\n\n${ADMIN_ONLY}`,
    security: API_KEY_SECURITY,
    request: { body: { required: true, content: jsonContent(JoinNetworkSchema) } },
    responses: {
      200: ok("The network joined.", JoinedNetworkSchema),
      ...errors({
        400: "Invalid body (`invalid_request` with `issues`, or `invalid_json`), or an `inviteCode` that belongs to no network (`invalid_request`).",
        401: UNAUTHORIZED_KEY,
        403: NOT_ADMIN,
        409: "The tenant is already a member of this network (`conflict`).",
        413: TOO_LARGE,
      }),
    },
  });

  r.registerPath({
    method: "put",
    path: "/api/v1/settings/networks/{id}/listings",
    tags: ["Networks"],
    operationId: "shareNetworkListings",
    summary: "Share or stop sharing listings with a network",
    description:
      "`shared: true` shares the listed listings of this tenant to the network (ones already shared stay so); " +
      "`shared: false` stops sharing them (ones not shared are ignored), so repeating a request changes nothing. 1 to " +
      "500 listing ids, each a listing of this tenant: one that is not is a 400 and nothing changes. Searches reflect " +
      "the change as soon as it commits (PostgreSQL engine) or within seconds (Typesense engine).\n\n" +
      `${SHARING}\n\n${ADMIN_ONLY}`,
    security: API_KEY_SECURITY,
    request: {
      params: networkId,
      body: {
        required: true,
        content: {
          "application/json": {
            schema: ShareListingsSchema,
            example: { listingIds: ["3fa85f64-5717-4562-b3fc-2c963f66afa6"], shared: true },
          },
        },
      },
    },
    responses: {
      200: ok("The change applied: the network id, `shared` and the listing ids.", SharedListingsSchema),
      ...errors({
        400: "Invalid body (`invalid_request` with `issues`, or `invalid_json`): `listingIds` empty, longer than 500 or with a non-UUID, `shared` missing, an unknown field; or a listing id that is not a listing of this tenant (`invalid_request`).",
        401: UNAUTHORIZED_KEY,
        403: NOT_ADMIN,
        404: "No network with this id among the networks this tenant belongs to (`not_found`).",
        413: TOO_LARGE,
      }),
    },
  });
}
