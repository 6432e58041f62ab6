import { eq, like } from "drizzle-orm";
import { z } from "zod";
import { EmailSchema } from "../schemas/email";
import type { DbOrTx } from "../../db/client";
import { inTransaction } from "../../db/transaction";
import { members, tenants } from "../../db/schema";
import { issueApiKey } from "../auth/api-keys";
import { PhoneSchema } from "../schemas/phone";
import { conflict, invalid } from "../errors/domain-errors";
import { defaultSettings } from "../tenants/default-settings";
import { SLUG_PATTERN, slugify } from "../tenants/slug";

export const CreateTenantSchema = z
  .strictObject({
    name: z.string().trim().min(1).max(120),
    slug: z.string().trim().regex(SLUG_PATTERN, "must be lowercase letters, digits and '-', 1 to 48 characters").optional(),
    owner: z.strictObject({
      name: z.string().trim().min(1).max(120),
      email: EmailSchema,
      phone: PhoneSchema.optional(),
    }),
  })
  .meta({ id: "CreateTenant" });

export const CreatedTenantSchema = z
  .object({
    tenantId: z.uuid(),
    slug: z.string(),
    owner: z.object({ userId: z.uuid() }),
    apiKey: z.string().meta({ description: "The owner's first API key (broad scope). Shown once." }),
  })
  .meta({ id: "CreatedTenant" });

export type CreatedTenant = z.infer<typeof CreatedTenantSchema>;

/**
 * Creates a tenant with default settings, its owner and the owner's first broad key. The one verb
 * above tenants: the installation's operator calls it, so its context has no tenant or actor.
 */
export async function createTenant({ db }: { db: DbOrTx }, input: unknown): Promise<CreatedTenant> {
  const data = CreateTenantSchema.parse(input);
  return inTransaction(db, async (tx) => {
    let slug = data.slug;
    if (slug) {
      const [taken] = await tx.select({ id: tenants.id }).from(tenants).where(eq(tenants.slug, slug)).limit(1);
      if (taken) throw conflict(`slug: '${slug}' is already taken; choose another or omit it to derive one from the name.`);
    } else {
      const base = slugify(data.name);
      if (!base) throw invalid("name: cannot derive a slug from this name; send a slug.");
      // Suffixed candidates cut the base to 44 characters, so look for both forms.
      const used = new Set(
        (
          await tx
            .select({ slug: tenants.slug })
            .from(tenants)
            .where(like(tenants.slug, `${base.slice(0, 44)}%`))
        ).map((r) => r.slug),
      );
      slug = base;
      for (let n = 2; used.has(slug); n++) slug = `${base.slice(0, 44)}-${n}`;
    }
    const [tenant] = await tx
      .insert(tenants)
      .values({ name: data.name, slug, settings: defaultSettings(data.name) })
      .returning();
    const [owner] = await tx
      .insert(members)
      .values({ tenantId: tenant.id, name: data.owner.name, email: data.owner.email, phone: data.owner.phone, role: "owner" })
      .returning();
    const key = await issueApiKey(tx, tenant.id, owner.id, "Owner key", "broad");
    return { tenantId: tenant.id, slug, owner: { userId: owner.id }, apiKey: key.key };
  });
}
