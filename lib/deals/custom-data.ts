import { z } from "zod";
import type { DbOrTx } from "../../db/client";
import type { Actor } from "../context/actor";
import { invalid } from "../errors/domain-errors";
import { issuePath } from "../http/errors";
import { firstUnreadableListing } from "../listings/readable-listings";
import { UUID_PATTERN } from "../schemas/uuid";
import type { CustomField, TenantSettings } from "../tenants/settings-schema";

const amount = z.number().finite().nonnegative();
const count = z.number().int().min(0).max(99);
const names = z.array(z.string().trim().min(1).max(120)).max(50);

/** Search-preference keys of spec 1 §2.4, typed. */
const PREFERENCES: Record<string, z.ZodType> = {
  maxPrice: amount,
  minPrice: amount,
  budget: amount,
  locations: names,
  propertyTypes: names,
  bedrooms: count,
  bathrooms: count,
  minArea: amount,
  maxArea: amount,
  additionalNotes: z.string().max(5000),
};

const LeadListingItem = z.looseObject({ listingId: z.unknown() });

/**
 * Validates `custom` against the typed preference keys and the tenant's custom fields, and keeps
 * only listing UUIDs in `leadListings` (a listing code there is dropped), each one the actor can read.
 * A `null` value is kept: on update it removes the key.
 */
export async function validateCustom(tx: DbOrTx, actor: Actor, s: TenantSettings, custom: Record<string, unknown>): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(custom)) {
    const path = `custom.${key}`;
    if (value === null) {
      out[key] = null;
    } else if (key === "leadListings") {
      out[key] = await leadListings(tx, actor, value, path);
    } else if (Object.hasOwn(PREFERENCES, key)) {
      out[key] = parse(PREFERENCES[key], value, path);
    } else {
      const field = s.customFields.find((f) => f.key === key);
      if (!field) throw invalid(`${path}: '${key}' is not a custom field of this tenant; configure it in settings.customFields first.`);
      out[key] = parse(fieldSchema(field), value, path);
    }
  }
  return out;
}

function fieldSchema(f: CustomField): z.ZodType {
  switch (f.type) {
    case "text":
      return z.string().max(5000);
    case "number":
      return z.number().finite();
    case "boolean":
      return z.boolean();
    case "date":
      return z.iso.date({ error: "must be a date as YYYY-MM-DD" });
    case "select":
      return z.enum(f.options as [string, ...string[]], { error: `must be one of: ${f.options!.join(", ")}` });
  }
}

function parse(schema: z.ZodType, value: unknown, path: string): unknown {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const i = r.error.issues[0];
  const sub = i.path.length ? `.${issuePath(i.path)}` : "";
  throw invalid(`${path}${sub}: ${i.message}`);
}

async function leadListings(tx: DbOrTx, actor: Actor, value: unknown, path: string) {
  const items = parse(z.array(LeadListingItem).max(100), value, path) as { listingId: unknown }[];
  const ids = [...new Set(items.map((i) => i.listingId).filter((id): id is string => typeof id === "string" && UUID_PATTERN.test(id)))].map((id) =>
    id.toLowerCase(),
  );
  const missing = await firstUnreadableListing(tx, actor, ids);
  if (missing) throw invalid(`${path}: no listing ${missing} in this tenant that this key can see.`);
  return ids.map((listingId) => ({ listingId }));
}
