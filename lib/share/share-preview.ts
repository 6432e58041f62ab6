import { and, desc, eq } from "drizzle-orm";
import { z } from "zod";
import { listings, properties, shortlists, visitItineraries } from "../../db/schema";
import type { TenantRow } from "../tenants/tenant-row";
import type { MemberCtx } from "../context/verb-context";
import { can } from "../context/permissions";
import { DomainError, forbidden } from "../errors/domain-errors";
import { tenantListingsWhere } from "../listings/access";
import { TenantSettingsSchema } from "../tenants/settings-schema";
import { loadTenant } from "../tenants/load-tenant";
import { updateSettings } from "../admin/update-settings";
import { shareAnswer } from "./resolve-share";
import { SharingConfigSchema } from "../tenants/sharing-config";

/**
 * The brokers' share preview (`/preview/share`, issue #16): what a recipient of a link to one of
 * the member's listings, shortlists or itineraries would see, under the tenant's sharing
 * configuration and branding, with draft values of both applied before they are saved. A
 * restricted key only picks what it may share (its listings and public ones; its own shortlists
 * and itineraries); another tenant's ids are simply not found.
 */

export const PREVIEW_KINDS = ["listing", "shortlist", "visit_itinerary"] as const;
export type PreviewKind = (typeof PREVIEW_KINDS)[number];

export type PreviewChoice = { kind: PreviewKind; id: string; label: string };

/** `listing:{uuid}` (the picker's value) -> kind and id, or null. */
export function parsePick(v: string | null | undefined): { kind: PreviewKind; id: string } | null {
  const m = /^(listing|shortlist|visit_itinerary):([0-9a-f-]{36})$/i.exec(v ?? "");
  return m ? { kind: m[1] as PreviewKind, id: m[2].toLowerCase() } : null;
}

/** The options of each `fieldVisibility` key, read from the schema so the form never drifts from it. */
export const FIELD_VISIBILITY_OPTIONS: Record<string, readonly string[]> = {
  address: ["full", "neighborhood_only", "city_only", "hidden"],
  coordinates: ["exact", "approximate", "hidden"],
  financials: ["visible", "hidden"],
  price: ["inherit", "hidden"],
  listingCode: ["visible", "hidden"],
  agentInfo: ["visible"],
};

const PICK_LIMIT = 60;

/** What the member may preview (and share): newest first, a few dozen of each kind. */
export async function previewChoices({ db, actor }: MemberCtx): Promise<PreviewChoice[]> {
  const mine = <T extends { createdById: unknown }>(t: T) => (actor.access === "broad" ? undefined : eq(t.createdById as never, actor.userId));
  const [ls, sl, it] = await Promise.all([
    db
      .select({ id: listings.id, title: listings.title, code: listings.listingCode })
      .from(listings)
      .innerJoin(properties, eq(properties.id, listings.propertyId))
      .where(tenantListingsWhere(actor))
      .orderBy(desc(listings.updatedAt), desc(listings.id))
      .limit(PICK_LIMIT),
    db
      .select({ id: shortlists.id, name: shortlists.name })
      .from(shortlists)
      .where(and(eq(shortlists.tenantId, actor.tenantId), mine(shortlists)))
      .orderBy(desc(shortlists.createdAt))
      .limit(PICK_LIMIT),
    db
      .select({ id: visitItineraries.id, name: visitItineraries.name })
      .from(visitItineraries)
      .where(and(eq(visitItineraries.tenantId, actor.tenantId), mine(visitItineraries)))
      .orderBy(desc(visitItineraries.createdAt))
      .limit(PICK_LIMIT),
  ]);
  return [
    ...ls.map((l) => ({ kind: "listing" as const, id: l.id, label: `${l.code} · ${l.title}` })),
    ...sl.map((s) => ({ kind: "shortlist" as const, id: s.id, label: s.name })),
    ...it.map((i) => ({ kind: "visit_itinerary" as const, id: i.id, label: i.name })),
  ];
}

const FieldVisibilityShape = SharingConfigSchema.shape.fieldVisibility;

/** Draft values as the preview form sends them (every field optional: blank keeps the saved value). */
export const PreviewDraftSchema = z.strictObject({
  name: z.string().trim().min(1).max(120).optional(),
  logo: z.string().trim().max(2000).nullable().optional(),
  primaryColor: z.string().optional(),
  fieldVisibility: z.record(z.string(), z.string()).optional(),
  showFinancialSimulator: z.boolean().optional(),
});
export type PreviewDraft = z.infer<typeof PreviewDraftSchema>;

/** The form's fields (GET parameters or a POST body) as a draft; blanks are left out. */
export function draftFromForm(q: URLSearchParams): PreviewDraft {
  const d: PreviewDraft = {};
  const name = q.get("name")?.trim();
  if (name) d.name = name.slice(0, 200);
  if (q.has("logo")) d.logo = q.get("logo")!.trim() || null;
  const color = q.get("color")?.trim();
  if (color) d.primaryColor = color;
  const fv: Record<string, string> = {};
  for (const k of Object.keys(FieldVisibilityShape.unwrap().shape)) {
    const v = q.get(`fv_${k}`);
    if (v) fv[k] = v;
  }
  if (Object.keys(fv).length) d.fieldVisibility = fv;
  const sim = q.get("simulator");
  if (sim === "on" || sim === "off") d.showFinancialSimulator = sim === "on";
  return d;
}

/**
 * The tenant's settings with a draft applied, validated by the settings schema itself: either the
 * draft settings, or the saved ones with the messages saying what in the draft is wrong.
 */
export function applyDraft(tenant: TenantRow, draft: PreviewDraft): { settings: TenantRow["settings"]; errors: string[] } {
  const s = tenant.settings;
  const candidate = {
    ...s,
    branding: {
      ...s.branding,
      ...(draft.name ? { name: draft.name } : {}),
      ...(draft.logo !== undefined ? { logo: draft.logo } : {}),
      ...(draft.primaryColor ? { primaryColor: draft.primaryColor } : {}),
    },
    sharingConfig: {
      ...s.sharingConfig,
      fieldVisibility: { ...s.sharingConfig.fieldVisibility, ...(draft.fieldVisibility ?? {}) },
      ...(draft.showFinancialSimulator !== undefined ? { showFinancialSimulator: draft.showFinancialSimulator } : {}),
    },
  };
  const parsed = TenantSettingsSchema.safeParse(candidate);
  if (parsed.success) return { settings: parsed.data, errors: [] };
  return { settings: s, errors: parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`) };
}

export type PreviewResult = { ok: true; answer: Awaited<ReturnType<typeof shareAnswer>> } | { ok: false; reason: "not_found" | "hidden" };

/**
 * The resolve answer a recipient would get for the entity, under the given settings. The
 * entity must be one the member may share; a listing hidden by the sharing rules is "hidden".
 * Approximate coordinates use a seed of the preview's own (a real link has its own seed).
 */
export async function previewAnswer(ctx: MemberCtx, settings: TenantRow["settings"], kind: PreviewKind, id: string): Promise<PreviewResult> {
  const choices = await previewChoice(ctx, kind, id);
  if (!choices) return { ok: false, reason: "not_found" };
  const tenant = { ...(await loadTenant(ctx.db, ctx.actor.tenantId)), settings };
  try {
    const answer = await shareAnswer(
      ctx.db as never,
      tenant,
      { entityType: kind, entityId: id, coordinateSeed: `preview:${id}`, createdById: ctx.actor.userId },
      { id: null, dealId: null, createdBy: ctx.actor.userId },
    );
    return { ok: true, answer };
  } catch (err) {
    if (err instanceof DomainError && err.kind === "not_found") return { ok: false, reason: "hidden" };
    throw err;
  }
}

async function previewChoice({ db, actor }: MemberCtx, kind: PreviewKind, id: string): Promise<boolean> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return false;
  if (kind === "listing") {
    const [r] = await db
      .select({ id: listings.id })
      .from(listings)
      .innerJoin(properties, eq(properties.id, listings.propertyId))
      .where(and(tenantListingsWhere(actor), eq(listings.id, id)))
      .limit(1);
    return Boolean(r);
  }
  const table = kind === "shortlist" ? shortlists : visitItineraries;
  const [r] = await db
    .select({ id: table.id })
    .from(table)
    .where(and(eq(table.id, id), eq(table.tenantId, actor.tenantId), actor.access === "broad" ? undefined : eq(table.createdById, actor.userId)))
    .limit(1);
  return Boolean(r);
}

export const SAVE_DENIED =
  "Saving the sharing configuration and branding needs an owner's or an admin's broad API key; this preview shows your draft, but only they can save it.";

/** Saves the draft's branding and share configuration through the settings verb (owner or admin only). */
export async function saveDraft(ctx: MemberCtx, draft: PreviewDraft) {
  if (!can(ctx.actor, "tenant.admin")) throw forbidden(SAVE_DENIED);
  const tenant = await loadTenant(ctx.db, ctx.actor.tenantId);
  const { settings, errors } = applyDraft(tenant, draft);
  if (errors.length) throw new DomainError("invalid", "invalid_request", errors.join("; "));
  return updateSettings(ctx, { branding: settings.branding, sharingConfig: settings.sharingConfig });
}
