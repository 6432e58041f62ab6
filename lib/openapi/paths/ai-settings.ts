import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { AiSettingsSchema, PutAiSettingsSchema } from "../../ai/ai-settings";
import { ADMIN_ONLY, API_KEY_SECURITY, NOT_ADMIN, TOO_LARGE, UNAUTHORIZED_KEY, errors, ok } from "../common";

export function registerAiSettingsPaths(r: OpenAPIRegistry): void {
  r.registerPath({
    method: "get",
    path: "/api/v1/settings/ai",
    tags: ["Settings"],
    operationId: "getAiSettings",
    summary: "Read the model provider settings",
    description:
      "The model provider the tenant's agents, automatic translation and first contact call: `baseUrlHost` of its own " +
      "OpenAI-compatible endpoint (or `null`), `defaultModel`, `hasApiKey`, `monthlyTokenBudget`, `tokensUsedThisMonth` " +
      "(calendar month, UTC) and `provider`, which says whether calls use the tenant's endpoint, the operator's " +
      `default or none. The key is never returned.\n\n${ADMIN_ONLY}`,
    security: API_KEY_SECURITY,
    responses: {
      200: ok("The settings, without the key.", AiSettingsSchema),
      ...errors({ 401: UNAUTHORIZED_KEY, 403: NOT_ADMIN }),
    },
  });

  r.registerPath({
    method: "put",
    path: "/api/v1/settings/ai",
    tags: ["Settings"],
    operationId: "putAiSettings",
    summary: "Replace the model provider settings",
    description:
      "Replaces the settings: send `baseUrl`, `defaultModel` and `monthlyTokenBudget` (each may be `null`), and `apiKey` " +
      "to set (a string) or erase (`null`) the key. `baseUrl` is any OpenAI-compatible chat-completions endpoint up to " +
      "before `/chat/completions`; it must be https, except for a loopback or private host in development or test mode " +
      "or with `WEBHOOKS_ALLOW_PRIVATE_URLS=true`, and in production a host that is, or resolves to, a non-public address " +
      "is refused as for webhook URLs (every call checks again). Omitting `apiKey` keeps the stored key while `baseUrl` " +
      "keeps its origin; moving to another origin without sending `apiKey` is a 400, so a key never follows a URL it was " +
      "not given for. `baseUrl: null` uses the operator's default endpoint, if any (`defaultModel` then picks one of its " +
      `models). At \`monthlyTokenBudget\` tokens in a month no new model call starts until the next month (UTC).\n\n${ADMIN_ONLY}`,
    security: API_KEY_SECURITY,
    request: {
      body: {
        required: true,
        content: {
          "application/json": {
            schema: PutAiSettingsSchema,
            example: { baseUrl: "https://api.openai.com/v1", apiKey: "sk-...", defaultModel: "gpt-4o-mini", monthlyTokenBudget: 2000000 },
          },
        },
      },
    },
    responses: {
      200: ok("The settings after the change, without the key.", AiSettingsSchema),
      ...errors({
        400: "Invalid body (`invalid_request` with `issues`, or `invalid_json`): a field missing or unknown, a `baseUrl` that is not an absolute http(s) URL, has credentials, a query or `/chat/completions`, is not https where required, or whose host is or resolves to a non-public address in production; `baseUrl` without `defaultModel`; `apiKey` without `baseUrl`, or omitted while `baseUrl` moves to another origin; a model name with spaces; a budget that is not a whole number from 0 to 2,000,000,000.",
        401: UNAUTHORIZED_KEY,
        403: NOT_ADMIN,
        413: TOO_LARGE,
      }),
    },
  });
}
