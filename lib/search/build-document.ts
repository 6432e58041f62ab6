import type { BuildingRow, ListingRow, MediaRow, PropertyRow, TypologyRow } from "../../db/schema";
import type { TenantSettings } from "../tenants/settings-schema";

export type UnitStats = { available: number; total: number };

export type DocumentSources = {
  listing: ListingRow;
  property: PropertyRow;
  media: MediaRow[];
  typology: TypologyRow | null;
  building: BuildingRow | null;
  units: UnitStats | null;
  settings: TenantSettings;
};

const epoch = (d: Date | null) => (d ? Math.floor(d.getTime() / 1000) : null);
const num = (v: string | null | undefined) => (v === null || v === undefined ? null : Number(v));
const brl = new Intl.NumberFormat("pt-BR", { style: "currency", currency: "BRL" });

/**
 * The search document of a listing: the hit document of spec 2 §2.2 (common, detail and
 * primary-market fields) plus the raw filter fields of spec 1 §2.3. Built from an allow-list:
 * owner contact, internal notes and the street number never enter it.
 */
export function buildSearchDocument(s: DocumentSources): Record<string, unknown> {
  const { listing: l, property: p, typology: ty, building: b } = s;
  const photos = s.media.filter((m) => m.type === "photo").sort((a, c) => Number(c.isPrimary) - Number(a.isPrimary) || a.order - c.order);
  const dev = l.isPrimaryMarket === "true";
  // Development listings take their commercial characteristics from the typology (spec 1 §2.1).
  const fromTypology = dev && ty;
  const price = num(l.price) ?? (dev ? num(ty?.basePrice) : null);
  const label = (list: { id: string; label: string }[], id: string) => list.find((o) => o.id === id)?.label ?? id;
  const amenities = Object.entries(b?.amenities ?? {})
    .filter(([, v]) => Boolean(v))
    .map(([k]) => k);
  const available = s.units?.available ?? null;
  const tr = l.translations;

  return withDerivedFields({
    id: l.id,
    title: l.title,
    description: l.description ?? "",
    title_en: tr.en?.title ?? "",
    description_en: tr.en?.description ?? "",
    title_es: tr.es?.title ?? "",
    description_es: tr.es?.description ?? "",
    price,
    priceVisibility: l.priceVisibility,
    listingType: l.type,
    listingCode: l.listingCode,
    propertyType: p.type,
    propertyTypeLabel: label(s.settings.propertyTypes, p.type),
    bedrooms: fromTypology ? ty.bedrooms : p.bedrooms,
    bathrooms: fromTypology ? ty.bathrooms : p.bathrooms,
    suites: fromTypology ? ty.suites : p.suites,
    parkingSpots: fromTypology ? ty.parkingSpaces : p.parkingSpaces,
    totalArea: fromTypology ? num(ty.totalArea) : num(p.totalArea),
    privateArea: fromTypology ? num(ty.privateArea) : num(p.privateArea ?? p.usableArea),
    features: p.features.map((f) => label(s.settings.propertyFeatures, f)),
    propertyFeatures: p.features,
    buildingAmenities: amenities,
    condoFee: num(p.condominiumFee),
    propertyTax: num(p.propertyTax),
    location_street: p.street,
    location_neighborhood: p.neighborhood,
    location_city: p.city,
    location_state: p.state,
    location_latitude: p.latitude,
    location_longitude: p.longitude,
    imageUrls: photos.map((m) => m.url),
    videoUrl: p.videoUrl,
    tourUrl: p.virtualTourUrl,
    photoCount: photos.length,
    videoCount: p.videoUrl ? 1 : 0,
    tourCount: p.virtualTourUrl ? 1 : 0,
    hasPhotos: photos.length > 0,
    hasVideo: Boolean(p.videoUrl),
    hasVirtualTour: Boolean(p.virtualTourUrl),
    visibility: l.visibility,
    stage: l.stage,
    status: l.status,
    propertyId: p.id,
    isPrimaryMarket: dev,
    marketType: dev ? "primary" : "secondary",
    typologyId: l.typologyId,
    buildingId: ty?.buildingId ?? p.buildingId,
    typologyName: ty?.name ?? null,
    typologyCode: ty?.code ?? null,
    constructionStatus: ty?.constructionStatus ?? null,
    expectedDelivery: ty?.expectedDelivery ?? (b?.openingDate ? String(b.openingDate) : null),
    availableUnits: ty ? available : null,
    typologyTotalUnits: ty ? (ty.totalUnits ?? s.units?.total ?? null) : null,
    typologyBasePrice: num(ty?.basePrice),
    typologyPricePerSqm: num(ty?.pricePerSqm),
    hasAvailableUnits: ty ? (available ?? 0) > 0 : false,
    // CRM signals this service does not track yet; indexed with neutral values so filters work.
    hasPartnership: false,
    isExclusive: false,
    hasActiveExclusivity: false,
    occupancyStatus: null,
    condition: null,
    slaStatus: null,
    hasIntegrationError: false,
    providerName: null,
    hasProviderSync: false,
    listingScore: qualityScore(l, p, photos.length),
    qualityScore: qualityScore(l, p, photos.length),
    viewsCount: 0,
    leadsCount: 0,
    createdAt: epoch(l.createdAt),
    updatedAt: epoch(l.updatedAt),
    publishedAt: epoch(l.publishedAt),
  });
}

/** Fields of the document that follow from its others; not stored (lib/search/stored-document.ts puts them back). */
export const DERIVED_FIELDS = ["priceFormatted", "primaryImageUrl", "imageOrigins", "hasProviderStagedPhotos"] as const;

/** Adds the derived fields to `doc` (changed in place and returned): the formatted price, the cover photo, the photos' origins. */
export function withDerivedFields(doc: Record<string, unknown>): Record<string, unknown> {
  const price = typeof doc.price === "number" ? doc.price : null;
  const images = Array.isArray(doc.imageUrls) ? (doc.imageUrls as string[]) : [];
  doc.priceFormatted = price === null ? null : brl.format(price);
  doc.primaryImageUrl = images[0] ?? null;
  if (images.length) doc.imageOrigins = images.map(() => "original");
  doc.hasProviderStagedPhotos = false;
  return doc;
}

/** 0-100 completeness of the ad: what portals reward (photos, text, area, price, location). */
function qualityScore(l: ListingRow, p: PropertyRow, photos: number): number {
  let score = 0;
  score += Math.min(photos, 10) * 4;
  score += (l.description?.length ?? 0) >= 300 ? 20 : (l.description?.length ?? 0) >= 100 ? 10 : 0;
  score += l.price ? 10 : 0;
  score += p.totalArea || p.privateArea || p.usableArea ? 10 : 0;
  score += p.latitude !== null && p.longitude !== null ? 10 : 0;
  score += p.videoUrl || p.virtualTourUrl ? 10 : 0;
  return Math.min(100, score);
}
