import { randomUUID } from "node:crypto";
import { getDb } from "../../db/client";
import { buildings, members, typologies } from "../../db/schema";
import { issueApiKey } from "../../lib/auth/api-keys";
import { createTenant } from "../../lib/admin/create-tenant";

export type TestTenant = { tenantId: string; slug: string; ownerId: string; key: string };

let n = 0;

/** A tenant with its owner and the owner's broad key, made through the domain verb. */
export async function makeTenant(name = `Imobiliária Teste ${++n}`): Promise<TestTenant> {
  const db = await getDb();
  const t = await createTenant({ db }, { name, owner: { name: "Dona Maria", email: `owner${++n}@example.com` } });
  return { tenantId: t.tenantId, slug: t.slug, ownerId: t.owner.userId, key: t.apiKey };
}

/** Adds a member with a key of the given scope. */
export async function makeMember(
  t: TestTenant,
  role: "owner" | "admin" | "manager" | "broker" = "broker",
  scope: "broad" | "restricted" = "broad",
  extra: { phone?: string; active?: boolean } = {},
): Promise<{ userId: string; key: string; email: string }> {
  const db = await getDb();
  const email = `${role}-${randomUUID().slice(0, 8)}@example.com`;
  const [m] = await db
    .insert(members)
    .values({ tenantId: t.tenantId, name: `Corretor ${role}`, email, role, phone: extra.phone, active: extra.active ?? true })
    .returning();
  const k = await issueApiKey(db, t.tenantId, m.id, `${role} key`, scope);
  return { userId: m.id, key: k.key, email };
}

/** A development with one typology, as the CRM or an import would create it. */
export async function makeTypology(t: TestTenant): Promise<{ buildingId: string; typologyId: string }> {
  const db = await getDb();
  const [b] = await db.insert(buildings).values({ tenantId: t.tenantId, name: "Residencial Teste" }).returning();
  const [ty] = await db
    .insert(typologies)
    .values({ tenantId: t.tenantId, buildingId: b.id, name: "2 dormitórios", bedrooms: 2, totalArea: "65.00", basePrice: "550000.00" })
    .returning();
  return { buildingId: b.id, typologyId: ty.id };
}

export const propertyBody = (over: Record<string, unknown> = {}, listings: unknown[] = [saleListing()]) => ({
  property: { title: "Apartamento nos Jardins", type: "apartment", bedrooms: 3, bathrooms: 2, totalArea: "120.50", ...over },
  location: { neighborhood: "Jardins", city: "São Paulo", state: "SP" },
  listings,
});

export const saleListing = (over: Record<string, unknown> = {}) => ({
  title: "Apartamento 3 dormitórios nos Jardins",
  type: "sale",
  price: "1250000.00",
  ...over,
});
