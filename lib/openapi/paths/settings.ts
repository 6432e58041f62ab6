import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { SettingsSchema, UpdateSettingsSchema } from "../../tenants/settings";
import { ADMIN_ONLY, API_KEY_SECURITY, NOT_ADMIN, TOO_LARGE, UNAUTHORIZED_KEY, errors, jsonContent, ok } from "../common";

export function registerSettingsPaths(r: OpenAPIRegistry): void {
  r.registerPath({
    method: "get",
    path: "/api/v1/settings",
    tags: ["Settings"],
    operationId: "getSettings",
    summary: "Read the tenant settings",
    description:
      "The tenant (`id`, `name`, `slug`) and its settings: enabled listing languages (`pt-BR` always, `en`/`es` opt-in), " +
      "the listing workflow (stages with their allowed statuses, active, terminal and default stage), branding, " +
      `property types, property and building features, and whether primary-market listings are enabled.\n\n${ADMIN_ONLY}`,
    security: API_KEY_SECURITY,
    responses: {
      200: ok("The tenant settings.", SettingsSchema),
      ...errors({ 401: UNAUTHORIZED_KEY, 403: NOT_ADMIN }),
    },
  });

  r.registerPath({
    method: "patch",
    path: "/api/v1/settings",
    tags: ["Settings"],
    operationId: "updateSettings",
    summary: "Change the tenant settings",
    description:
      "Each top-level key sent replaces that whole setting (arrays and objects are not merged); keys not sent are kept. " +
      "`name` renames the tenant. The merged result must be valid as a whole: `listingLanguages` must include `pt-BR` " +
      "and may add `en` and `es`; workflow stage ids must be unique and `activeStageId`, `defaultStageId` and " +
      "`terminalStageIds` must name existing stages; option ids are lowercase slugs, unique per list.\n\n" +
      "Removing a listing stage or a property type that existing rows still use is refused with a 409: move those " +
      `rows first. Send at least one key.\n\n${ADMIN_ONLY}`,
    security: API_KEY_SECURITY,
    request: { body: { required: true, content: jsonContent(UpdateSettingsSchema) } },
    responses: {
      200: ok("The settings after the change.", SettingsSchema),
      ...errors({
        400: "Invalid body, an invalid merged result, or an empty body (`invalid_request`, with `issues` for schema errors).",
        401: UNAUTHORIZED_KEY,
        403: NOT_ADMIN,
        409: "The change removes a stage or property type still used by listings or properties (`conflict`).",
        413: TOO_LARGE,
      }),
    },
  });
}
