import { and, eq } from "drizzle-orm";
import type { ZodError } from "zod";
import type { DbOrTx } from "../../db/client";
import { buildings, members, typologies, type Translations } from "../../db/schema";
import { invalid } from "../errors/domain-errors";
import { issuePath } from "../http/errors";
import type { TenantSettings } from "../tenants/settings-schema";
import { TypeSpecificRentalSchema, TypeSpecificSaleSchema, type TranslationsInputSchema } from "./schemas";
import type { z } from "zod";

/** `path` is the prefix naming where the object sits in the request, e.g. `listings.0.`. */
export function assertStage(s: TenantSettings, stage: string, status: string | null, path: string): void {
  const def = s.listingWorkflow.stages.find((st) => st.id === stage);
  if (!def) {
    const ids = s.listingWorkflow.stages.map((st) => st.id).join(", ");
    throw invalid(`${path}stage: '${stage}' is not a listing stage of this tenant (one of: ${ids}).`);
  }
  if (status === null) return;
  if (!def.statuses.includes(status)) {
    const allowed = def.statuses.length ? `one of: ${def.statuses.join(", ")}` : "none: send null";
    throw invalid(`${path}status: '${status}' is not a status of stage '${stage}' (${allowed}).`);
  }
}

export function validateTypeSpecific(type: "sale" | "rental", data: Record<string, unknown>, path: string) {
  const schema = type === "rental" ? TypeSpecificRentalSchema : TypeSpecificSaleSchema;
  const r = schema.safeParse(data);
  if (!r.success) throw prefixed(r.error, `${path}typeSpecificData`, `for a ${type} listing`);
  return r.data as Record<string, unknown>;
}

/** Keeps the keys that are valid for the new type when a listing's type changes. */
export function keepTypeSpecificKeys(type: "sale" | "rental", data: Record<string, unknown>) {
  const allowed = Object.keys((type === "rental" ? TypeSpecificRentalSchema : TypeSpecificSaleSchema).shape);
  return Object.fromEntries(Object.entries(data).filter(([k]) => allowed.includes(k)));
}

export function mergeTranslations(
  s: TenantSettings,
  current: Translations,
  input: z.infer<typeof TranslationsInputSchema> | undefined,
  path: string,
  now: Date,
): Translations {
  if (!input) return current;
  const next: Translations = { ...current };
  for (const [lang, entry] of Object.entries(input) as ["en" | "es", (typeof input)[string]][]) {
    if (entry === null) {
      delete next[lang];
      continue;
    }
    if (!s.listingLanguages.includes(lang)) {
      throw invalid(`${path}translations.${lang}: language '${lang}' is not enabled for this tenant (enable it in settings.listingLanguages).`);
    }
    const { translatedAt, ...fields } = entry;
    const merged = { ...next[lang], ...fields };
    const unchanged = next[lang] && merged.title === next[lang]!.title && merged.description === next[lang]!.description;
    // Resending the same text keeps its time, so the update stays a no-op.
    const at = translatedAt ?? (unchanged ? next[lang]!.translatedAt : now.toISOString());
    next[lang] = { ...merged, source: "manual", translatedAt: at };
  }
  return next;
}

export async function assertTypology(tx: DbOrTx, tenantId: string, typologyId: string, path: string) {
  const [t] = await tx
    .select({ id: typologies.id })
    .from(typologies)
    .where(and(eq(typologies.id, typologyId), eq(typologies.tenantId, tenantId)))
    .limit(1);
  if (!t) throw invalid(`${path}typologyId: no typology ${typologyId} in this tenant.`);
}

export async function assertBuilding(tx: DbOrTx, tenantId: string, buildingId: string, path: string) {
  const [b] = await tx
    .select({ id: buildings.id })
    .from(buildings)
    .where(and(eq(buildings.id, buildingId), eq(buildings.tenantId, tenantId)))
    .limit(1);
  if (!b) throw invalid(`${path}buildingId: no building ${buildingId} in this tenant.`);
}

export async function assertActiveMember(tx: DbOrTx, tenantId: string, memberId: string, path: string) {
  const [m] = await tx
    .select({ active: members.active })
    .from(members)
    .where(and(eq(members.id, memberId), eq(members.tenantId, tenantId)))
    .limit(1);
  if (!m) throw invalid(`${path}assignedToId: no member ${memberId} in this tenant.`);
  if (!m.active) throw invalid(`${path}assignedToId: member ${memberId} is inactive.`);
}

export function assertPropertyType(s: TenantSettings, type: string, path: string) {
  if (!s.propertyTypes.some((t) => t.id === type)) {
    throw invalid(`${path}type: '${type}' is not a property type of this tenant (one of: ${s.propertyTypes.map((t) => t.id).join(", ")}).`);
  }
}

export function assertFeatures(s: TenantSettings, features: string[], path: string) {
  const known = new Set(s.propertyFeatures.map((f) => f.id));
  const unknown = features.filter((f) => !known.has(f));
  if (unknown.length) {
    throw invalid(`${path}features: unknown feature(s) ${unknown.map((f) => `'${f}'`).join(", ")}; use ids from settings.propertyFeatures.`);
  }
}

function prefixed(err: ZodError, field: string, context: string) {
  const parts = err.issues.map((i) => `${[field, issuePath(i.path)].filter((p) => p !== "(body)").join(".")}: ${i.message}`);
  return invalid(`${parts.join("; ")} (${context})`);
}
