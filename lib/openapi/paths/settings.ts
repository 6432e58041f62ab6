import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { SettingsResponseSchema, UpdateSettingsSchema } from "../../tenants/settings";
import { ADMIN_ONLY, API_KEY_SECURITY, NOT_ADMIN, TOO_LARGE, UNAUTHORIZED_KEY, errors, jsonContent, ok } from "../common";

const DEAL_SETTINGS =
  "**Deal settings.** `dealWorkflow` is the deal funnel: `stages` (each `{id, label, outcome}`, where `outcome` is " +
  "`won`, `lost` or `null`), `terminalStageIds` and `defaultStageId`, the stage of a deal created without one. A deal " +
  "reaching a stage with an outcome gets that status unless the request sends a `status`. The default workflow is " +
  "`draft` (default stage), `lead`, `qualificacao`, `visita`, `proposta`, `negociacao`, `fechamento`, `ganho` " +
  "(terminal, `won`) and `perdido` (terminal, `lost`). `customFields` lists the keys a deal's `custom` may hold besides " +
  "the search preferences: each `{key, label, type, options}` with `type` one of `text`, `number`, `boolean`, `date` " +
  "(`YYYY-MM-DD`) or `select` (which needs `options`; no other type takes them). A key starts with a letter, uses " +
  "letters, digits or `_` (at most 48) and cannot be a search-preference key (`maxPrice`, `minPrice`, `budget`, " +
  "`locations`, `propertyTypes`, `bedrooms`, `bathrooms`, `minArea`, `maxArea`, `additionalNotes`, `leadListings`).";

const TRANSLATION_SETTINGS =
  "**Automatic translation.** `listingTranslation: {enabled, targets}` (default off, targets `en` and `es`): when a " +
  "listing's Portuguese `title` or `description` is created or changes, a background job writes `translations.en` / " +
  '`.es` with `source: "ai"` using the tenant\'s model (`/api/v1/settings/ai`), and the change emits `listing.updated`. ' +
  "A `manual` translation is never replaced; an `ai` one is replaced when the Portuguese text changes. Each target must " +
  "be enabled in `listingLanguages` while translation is on (400 otherwise). No request waits for a translation.";

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
      "property types, property and building features, whether primary-market listings are enabled, the deal " +
      `workflow, the deals' custom fields and automatic listing translation.\n\n${DEAL_SETTINGS}\n\n${TRANSLATION_SETTINGS}\n\n${ADMIN_ONLY}`,
    security: API_KEY_SECURITY,
    responses: {
      200: ok("The tenant settings.", SettingsResponseSchema),
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
      "`terminalStageIds` must name existing stages; option ids are lowercase slugs, unique per list. The same holds " +
      "for `dealWorkflow` (unique stage ids; `defaultStageId` and `terminalStageIds` among its stages), and " +
      "`customFields` keys must be unique.\n\n" +
      "Removing a listing stage, a deal stage or a property type that existing rows still use is refused with a 409: " +
      "move those rows first. Removing a custom field keeps the values deals already store under its key. Send at " +
      `least one key.\n\n${DEAL_SETTINGS}\n\n${TRANSLATION_SETTINGS}\n\n${ADMIN_ONLY}`,
    security: API_KEY_SECURITY,
    request: { body: { required: true, content: jsonContent(UpdateSettingsSchema) } },
    responses: {
      200: ok("The settings after the change.", SettingsResponseSchema),
      ...errors({
        400: "Invalid body, an invalid merged result, or an empty body (`invalid_request`, with `issues` for schema errors).",
        401: UNAUTHORIZED_KEY,
        403: NOT_ADMIN,
        409: "The change removes a listing stage, deal stage or property type still used by listings, deals or properties (`conflict`).",
        413: TOO_LARGE,
      }),
    },
  });
}
