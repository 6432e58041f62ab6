import { OpenAPIRegistry, OpenApiGeneratorV31 } from "@asteasolutions/zod-to-openapi";
import { config } from "../config";
import { documentJsonBodyRefusals } from "./common";
import { registerAdminPaths } from "./paths/admin";
import { AGENTS_TAG, registerAgentPaths } from "./paths/agents";
import { registerAiSettingsPaths } from "./paths/ai-settings";
import { registerApiKeyPaths } from "./paths/api-keys";
import { registerDealPaths } from "./paths/deals";
import { registerDealDistributionPaths } from "./paths/deal-distribution";
import { registerTaskPaths } from "./paths/tasks";
import { registerOfferPaths } from "./paths/offers";
import { registerProviderPaths } from "./paths/providers";
import { registerTransactionPaths } from "./paths/transactions";
import { registerCmsPaths } from "./paths/cms";
import { registerHealthPaths } from "./paths/health";
import { registerInboundLeadPaths } from "./paths/inbound-leads";
import { registerListingPaths } from "./paths/listings";
import { registerMarketingChannelPaths } from "./paths/marketing-channels";
import { MCP_DESCRIPTION, registerMcpPaths } from "./paths/mcp";
import { registerMemberPaths } from "./paths/members";
import { registerAvailabilityPaths } from "./paths/availability";
import { MESSAGING_TAG, registerMessagingPaths } from "./paths/messaging";
import { MESSAGING_CHANNELS_TAG, registerMessagingSettingsPaths } from "./paths/messaging-settings";
import { NETWORKS_TAG, registerNetworkPaths } from "./paths/networks";
import { registerPropertyPaths } from "./paths/properties";
import { registerSearchPaths } from "./paths/search";
import { registerPublicCataloguePaths } from "./paths/public-catalogue";
import { registerPublicDevelopmentPaths, registerPublicLocationPaths } from "./paths/public-developments";
import { registerPublicSitePaths } from "./paths/public-sites";
import { registerPublicVisitorPaths } from "./paths/public-visitors";
import { registerPublicVisitPaths } from "./paths/public-visits";
import { registerSettingsPaths } from "./paths/settings";
import { registerSharePaths } from "./paths/share";
import { registerPublicSharePaths } from "./paths/share-public";
import { registerWebChatPublicPaths } from "./paths/web-chat-public";
import { registerSitePaths } from "./paths/sites";
import { registerSavedSearchPaths } from "./paths/saved-searches";
import { OUTBOUND_EVENTS, registerWebhookPaths } from "./paths/webhooks";

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31["generateDocument"]>;

const DESCRIPTION = [
  "Authenticated REST interface of the real-estate CRM: listings (written through properties) and their search, " +
    "deals, tenant settings, the outbound webhook and its delivery log, members, API keys, marketing channels and " +
    "partner networks, plus the operator API that creates tenants. The events POSTed to the webhook are described " +
    "under the Webhooks tag.",
  "**Authentication.** Every `/api/v1` request sends `Authorization: Bearer <API_KEY>`. A key acts as its member and " +
    "sees what that member's role sees; a `restricted` key sees only what a broker sees. `/api/admin` takes the " +
    "operator token instead.",
  '**Errors.** Every error has the body `{"error": {"code", "message", "issues"?}}`; `issues` lists ' +
    "`{path, message}` per offending field on validation errors. Bodies and query strings are strict: unknown fields " +
    "and parameters are a 400. Ids in paths are UUIDs; anything else is a 404. Every response carries `X-Request-Id`.",
  "**Money and flags.** Prices, fees, areas and deal amounts are decimal strings returned with two places " +
    "(`\"450000.00\"`); `isPrimaryMarket` is the text `'true'` or `'false'`. Timestamps are ISO 8601 UTC.",
].join("\n\n");

function register(r: OpenAPIRegistry): void {
  r.registerComponent("securitySchemes", "apiKey", {
    type: "http",
    scheme: "bearer",
    description: "A tenant API key (`crm_...`), created under `/api/v1/settings/api-keys` or returned when the tenant is created.",
  });
  r.registerComponent("securitySchemes", "operatorToken", {
    type: "http",
    scheme: "bearer",
    description: "The installation's operator token (`OPERATOR_TOKEN`, or the one generated into `<DATA_DIR>/operator-token`).",
  });
  r.registerComponent("headers", "RequestId", {
    description: "Request id for support and logs; the caller's `X-Request-Id` is kept when it is 1 to 100 of `A-Za-z0-9._:-`.",
    schema: { type: "string" },
  });
  registerListingPaths(r);
  registerSearchPaths(r);
  registerPropertyPaths(r);
  registerDealPaths(r);
  registerDealDistributionPaths(r);
  registerTaskPaths(r);
  registerOfferPaths(r);
  registerTransactionPaths(r);
  registerProviderPaths(r);
  registerSettingsPaths(r);
  registerWebhookPaths(r);
  registerAiSettingsPaths(r);
  registerMemberPaths(r);
  registerAvailabilityPaths(r);
  registerApiKeyPaths(r);
  registerMarketingChannelPaths(r);
  registerInboundLeadPaths(r);
  registerMessagingSettingsPaths(r);
  registerMessagingPaths(r);
  registerMcpPaths(r);
  registerAgentPaths(r);
  registerNetworkPaths(r);
  registerSitePaths(r);
  registerSharePaths(r);
  registerPublicSharePaths(r);
  registerWebChatPublicPaths(r);
  registerCmsPaths(r);
  registerPublicSitePaths(r);
  registerPublicVisitorPaths(r);
  registerPublicVisitPaths(r);
  registerPublicCataloguePaths(r);
  registerSavedSearchPaths(r);
  registerPublicDevelopmentPaths(r);
  registerPublicLocationPaths(r);
  registerAdminPaths(r);
  registerHealthPaths(r);
  documentJsonBodyRefusals(r);
}

let registry: OpenAPIRegistry | undefined;
let cached: OpenApiDocument | undefined;

/**
 * The registry the description is generated from. Its route definitions keep the zod schemas of
 * every operation, so the integration tests validate each response against the same objects the
 * document is made of (`test/helpers/contract.ts`).
 */
export function openApiRegistry(): OpenAPIRegistry {
  if (!registry) {
    registry = new OpenAPIRegistry();
    register(registry);
  }
  return registry;
}

/** The OpenAPI 3.1 description, generated from the request and response zod schemas once per process. */
export function buildOpenApiDocument(): OpenApiDocument {
  if (cached) return cached;
  cached = new OpenApiGeneratorV31(openApiRegistry().definitions, { unionPreferredType: "oneOf" }).generateDocument({
    openapi: "3.1.0",
    info: { title: `${config().SERVICE_NAME} API`, version: "1.0.0", description: DESCRIPTION },
    servers: [{ url: "/" }],
    tags: [
      {
        name: "Listings",
        description: "Read, change, delete and search listings (search includes partner-network listings). Create them through properties.",
      },
      { name: "Properties", description: "Properties with their nested listings and listing translations." },
      { name: "Deals", description: "Sales and rental opportunities in the tenant's funnel, with their contacts." },
      { name: "Offers", description: "Purchase and rental offers on deals and their state machine." },
      {
        name: "Transactions",
        description: "Closings of deals: parties, amount, payments collected through payment providers and contracts signed through e-signature providers.",
      },
      { name: "Providers", description: "Payment and e-signature provider receivers and their notification log (settings: owner or admin broad key)." },
      { name: "Tasks", description: "Visits, calls and follow-ups of the tenant's members, linked to deals and listings." },
      { name: "Settings", description: "Tenant settings (owner or admin broad key)." },
      { name: "Webhooks", description: OUTBOUND_EVENTS },
      { name: "Members", description: "Members of the tenant (owner or admin broad key)." },
      { name: "API keys", description: "API keys of the tenant's members (owner or admin broad key)." },
      {
        name: "Marketing channels",
        description: "Channels deals are attributed to, with their lead distribution queues (owner or admin broad key).",
      },
      { name: "Messaging", description: MESSAGING_TAG },
      { name: "Messaging channels", description: MESSAGING_CHANNELS_TAG },
      { name: "Tool interface (MCP)", description: MCP_DESCRIPTION },
      {
        name: AGENTS_TAG,
        description:
          "AI agents that answer and qualify leads in the tenant's chats through the tenant's model provider, with the same verbs and gates as a member; their executions and the messages they hold for approval.",
      },
      { name: "Networks", description: NETWORKS_TAG },
      { name: "Sites", description: "The tenant's public websites and their CMS (owner or admin broad key)." },
      {
        name: "Public sites",
        description:
          "The unauthenticated sites interface (`/api/sites`): configuration, catalogue, developments, brokers, CMS and locations of a site, for any origin.",
      },
      {
        name: "Public web chat",
        description:
          "A visitor's chat on a site or share page (`/api/sites/{siteId}/chat`, `/api/sites/share/{token}/chat`): a session token instead of a key, messages stored before the answer, replies live over Server-Sent Events.",
      },
      { name: "Operator", description: "Installation operator API (operator token)." },
      { name: "Health", description: "Liveness and readiness probes for container orchestrators (no credentials)." },
    ],
  });
  return cached;
}
