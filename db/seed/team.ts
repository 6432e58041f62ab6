import { and, eq } from "drizzle-orm";
import type { MemberActor } from "../../lib/context/actor";
import { memberCtx } from "../../lib/context/verb-context";
import { createMember } from "../../lib/tenants/members";
import { createTenant } from "../../lib/admin/create-tenant";
import { updateSettings } from "../../lib/admin/update-settings";
import type { DbOrTx } from "../client";
import { apiKeys } from "../schema";
import { DEMO_LOGO } from "./image-catalog";
import { OWNER, TEAM, TEAM_DOMAIN } from "./people";

export const DEMO_SLUG = "demo";
export const DEMO_NAME = "Casa Nova Imóveis";

export type DemoTeam = {
  actor: MemberActor;
  apiKey: string;
  slug: string;
  members: { id: string; name: string; email: string; role: string; city: string }[];
};

/** The agency, its owner and team, created through the same verbs the API uses. */
export async function createTeam(db: DbOrTx, assetBase: string): Promise<DemoTeam> {
  const t = await createTenant({ db }, { name: DEMO_NAME, slug: DEMO_SLUG, owner: OWNER });
  const [key] = await db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(and(eq(apiKeys.tenantId, t.tenantId), eq(apiKeys.memberId, t.owner.userId)))
    .limit(1);
  const actor: MemberActor = { kind: "member", tenantId: t.tenantId, userId: t.owner.userId, role: "owner", scope: "broad", keyId: key.id, access: "broad" };

  await updateSettings(memberCtx(db, actor), {
    listingLanguages: ["pt-BR", "en", "es"],
    primaryMarketEnabled: true,
    branding: { name: DEMO_NAME, logo: `${assetBase}/demo/${DEMO_LOGO}`, primaryColor: "#0f766e" },
  });

  const members = [];
  for (const m of TEAM) {
    const created = await createMember(memberCtx(db, actor), {
      name: m.name,
      email: `${m.email}@${TEAM_DOMAIN}`,
      phone: m.phone,
      creci: m.creci,
      image: `${assetBase}/demo/${m.avatar}`,
      role: m.role,
    });
    members.push({ id: created.id, name: created.name, email: created.email, role: created.role, city: m.city });
  }
  return { actor, apiKey: t.apiKey, slug: t.slug, members };
}
