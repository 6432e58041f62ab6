import { eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { providerSettings, type ProviderSettingsRow } from "../../db/schema";
import type { IntegrationActor } from "../context/actor";
import type { Ctx } from "../context/verb-context";
import { notFound } from "../errors/domain-errors";
import { PROVIDER_TOKEN_PATTERN } from "./settings";

/** A payment or e-signature provider calling the tenant's receiver, identified by its path token. */
export type ProviderActor = IntegrationActor & { integration: "provider"; provider: ProviderSettingsRow };
export type ProviderCtx = Ctx<ProviderActor>;

/** The context of a provider's call (404 when the token names no receiver). */
export async function providerCaller(db: DbOrTx, pathToken: string): Promise<ProviderCtx> {
  const unknown = () => notFound("Unknown provider receiver.");
  if (!PROVIDER_TOKEN_PATTERN.test(pathToken)) throw unknown();
  const [provider] = await db.select().from(providerSettings).where(eq(providerSettings.pathToken, pathToken)).limit(1);
  if (!provider) throw unknown();
  return { db, tenantId: provider.tenantId, actor: { kind: "integration", integration: "provider", id: provider.id, tenantId: provider.tenantId, provider } };
}
