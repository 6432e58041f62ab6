import type { DbOrTx } from "../../db/client";
import { media, type PropertyRow } from "../../db/schema";
import { stableJson } from "../util/stable-json";
import type { TenantSettings } from "../tenants/settings-schema";
import { assertActiveMember, assertBuilding, assertFeatures, assertPropertyType } from "./listing-rules";
import type { LocationInput, PropertyFieldsInput } from "./schemas";

type PropertyColumns = Partial<Omit<PropertyRow, "id" | "tenantId" | "createdAt" | "updatedAt" | "createdById">>;

/** Checks every reference the property payload makes against the tenant. */
export async function validatePropertyRefs(tx: DbOrTx, tenantId: string, s: TenantSettings, p: PropertyFieldsInput) {
  if (p.type !== undefined) assertPropertyType(s, p.type, "property.");
  if (p.features) assertFeatures(s, p.features, "property.");
  if (p.assignedToId) await assertActiveMember(tx, tenantId, p.assignedToId, "property.");
  if (p.buildingId) await assertBuilding(tx, tenantId, p.buildingId, "property.");
}

/** Maps the API's nested payload onto columns; fields not sent stay undefined (untouched). */
export function propertyColumns(p: PropertyFieldsInput = {}, loc: LocationInput = {}): PropertyColumns {
  const cols: PropertyColumns = {
    title: p.title,
    type: p.type,
    bedrooms: p.bedrooms,
    bathrooms: p.bathrooms,
    suites: p.suites,
    parkingSpaces: p.parkingSpaces,
    totalArea: p.totalArea,
    usableArea: p.usableArea,
    privateArea: p.privateArea,
    features: p.features ? [...new Set(p.features)] : undefined,
    condominiumFee: p.condominiumFee,
    propertyTax: p.propertyTax,
    assignedToId: p.assignedToId,
    buildingId: p.buildingId,
    internalNotes: p.internalNotes,
    videoUrl: p.videoUrl,
    virtualTourUrl: p.virtualTourUrl,
    ...loc,
  };
  if (p.owner === null) {
    Object.assign(cols, { ownerName: null, ownerEmail: null, ownerPhone: null, ownerWhatsapp: null, ownerCpf: null });
  } else if (p.owner) {
    Object.assign(cols, {
      ownerName: p.owner.name,
      ownerEmail: p.owner.email,
      ownerPhone: p.owner.phone,
      ownerWhatsapp: p.owner.whatsapp,
      ownerCpf: p.owner.cpf,
    });
  }
  return Object.fromEntries(Object.entries(cols).filter(([, v]) => v !== undefined)) as PropertyColumns;
}

type MediaInput = NonNullable<PropertyFieldsInput["media"]>;

/** The stored form of a photo set: exactly one photo is primary (the flagged one, else the first). */
export function mediaValues(items: MediaInput) {
  const primaryIndex = Math.max(
    0,
    items.findIndex((m) => m.isPrimary),
  );
  return items.map((m, i) => ({
    type: m.type,
    url: m.url,
    alt: m.alt ?? null,
    category: m.category ?? null,
    order: m.order ?? i,
    isPrimary: i === primaryIndex,
  }));
}

export async function insertMedia(tx: DbOrTx, tenantId: string, propertyId: string, items: MediaInput) {
  if (!items.length) return;
  await tx.insert(media).values(mediaValues(items).map((m) => ({ ...m, tenantId, propertyId })));
}

/** Whether a sent photo set equals the stored one, so resending it changes nothing. */
export function sameMedia(
  stored: { type: string; url: string; alt: string | null; category: string | null; order: number; isPrimary: boolean }[],
  items: MediaInput,
): boolean {
  const pick = (m: (typeof stored)[number]) => [m.type, m.url, m.alt, m.category, m.order, m.isPrimary];
  const sort = (l: typeof stored) => [...l].sort((a, b) => a.order - b.order).map(pick);
  return stableJson(sort(stored)) === stableJson(sort(mediaValues(items)));
}
