/**
 * The pricing tool's automated valuation, as a pure function of a subject and candidate
 * comparables (no database), so the benchmark and unit tests run exactly what the endpoint runs.
 *
 * Method (docs/decisions.md, "Pricing tool valuation"): rank candidates by a distance mixing
 * location, size and layout; keep the K nearest; take the weighted median of their log price per
 * m² (robust to a mispriced listing); the forecast standard deviation of one new sale is the
 * comparables' robust spread (MAD, unweighted) inflated for the uncertainty of a median of K values;
 * the range is the point times exp(± Z · sd); confidence is 1 − sd, bucketed.
 */
import { haversineMeters } from "../../geo/distance";

/** What the distance compares on both sides: place, size and layout. */
type Features = {
  lat: number | null;
  lng: number | null;
  totalArea: number;
  bedrooms: number | null;
  bathrooms: number | null;
  parkingSpaces: number | null;
  propertyType: string;
};

export type Candidate = Features & { neighborhoodKey: string; neighborhood: string; price: number };

export type Subject = Features & { neighborhoodKey: string | null };

export type DistanceBand = "under_1km" | "1_to_3km" | "3_to_5km" | "over_5km";
export type ConfidenceLevel = "high" | "medium" | "low";

export type Valuation = {
  value: number;
  low: number;
  high: number;
  pricePerSqm: number;
  score: number;
  level: ConfidenceLevel;
  used: { c: Candidate; km: number | null; weight: number }[];
};

/** How many comparables an estimate uses, and the fewest it needs. */
export const K = 12;
export const MIN_COMPARABLES = 3;
/** Half-width of the range in forecast standard deviations (a 95% interval if errors were normal; calibrated by the benchmark). */
export const Z = 1.96;
/** A spread floor: a dozen identical asking prices do not make the next sale certain. */
const MIN_SD = 0.04;

/** Types that price alike: an apartment is compared with studios and penthouses before houses. */
export const TYPE_GROUPS: Record<string, string> = {
  apartment: "flat",
  studio: "flat",
  penthouse: "flat",
  flat: "flat",
  loft: "flat",
  kitnet: "flat",
  house: "house",
  condo_house: "house",
  townhouse: "house",
  country_house: "house",
  office: "business",
  commercial: "business",
  store: "business",
  warehouse: "business",
  land: "land",
  lot: "land",
};
export const typeGroup = (t: string) => TYPE_GROUPS[t] ?? t;

export const km = (aLat: number, aLng: number, bLat: number, bLng: number): number => haversineMeters(aLat, aLng, bLat, bLng) / 1000;

export function band(d: number | null, sameNeighborhood: boolean): DistanceBand {
  if (d === null) return sameNeighborhood ? "under_1km" : "over_5km";
  return d < 1 ? "under_1km" : d < 3 ? "1_to_3km" : d < 5 ? "3_to_5km" : "over_5km";
}

const diff = (a: number | null, b: number | null) => (a === null || b === null ? 0.5 : Math.abs(a - b));

/** Dissimilarity of a candidate to the subject (0 = same place, size and layout). */
function distance(s: Subject, c: Candidate): { d: number; km: number | null } {
  const sameNb = s.neighborhoodKey !== null && c.neighborhoodKey === s.neighborhoodKey;
  const dKm = s.lat !== null && s.lng !== null && c.lat !== null && c.lng !== null ? km(s.lat, s.lng, c.lat, c.lng) : null;
  const geo = dKm !== null ? dKm / 1.5 : sameNb ? 0 : 2;
  const size = Math.abs(Math.log(c.totalArea / s.totalArea)) / 0.2;
  const layout = 0.25 * diff(s.bedrooms, c.bedrooms) + 0.1 * diff(s.bathrooms, c.bathrooms) + 0.1 * diff(s.parkingSpaces, c.parkingSpaces);
  const type = c.propertyType === s.propertyType ? 0 : 2;
  return { d: geo + size + layout + type + (sameNb ? 0 : 0.4), km: dKm };
}

function weightedQuantile(values: { v: number; w: number }[], q: number): number {
  const sorted = [...values].sort((a, b) => a.v - b.v);
  const total = sorted.reduce((n, x) => n + x.w, 0);
  let acc = 0;
  for (const x of sorted) {
    acc += x.w;
    if (acc >= q * total) return x.v;
  }
  return sorted[sorted.length - 1].v;
}

export function levelOf(score: number, comparables: number): ConfidenceLevel {
  const level: ConfidenceLevel = score >= 0.85 ? "high" : score >= 0.7 ? "medium" : "low";
  // Few comparables cap the level whatever their agreement.
  return comparables < 6 && level === "high" ? "medium" : level;
}

const roundTo = (v: number, step: number) => Math.round(v / step) * step;
/** Money shown to a homeowner: three significant figures are all an estimate can claim. */
export const roundMoney = (v: number) => (v >= 1_000_000 ? roundTo(v, 10_000) : v >= 100_000 ? roundTo(v, 1_000) : roundTo(v, 100));

/** The valuation, or null when fewer than MIN_COMPARABLES candidates of the subject's type group exist. */
export function estimate(s: Subject, candidates: Candidate[]): Valuation | null {
  const group = typeGroup(s.propertyType);
  const ranked = candidates
    .filter((c) => c.totalArea > 0 && c.price > 0 && typeGroup(c.propertyType) === group)
    .map((c) => ({ c, ...distance(s, c) }))
    .sort((a, b) => a.d - b.d)
    .slice(0, K);
  if (ranked.length < MIN_COMPARABLES) return null;
  const used = ranked.map((r) => ({ c: r.c, km: r.km, weight: 1 / (1 + r.d) ** 2 }));
  const logs = used.map((u) => ({ v: Math.log(u.c.price / u.c.totalArea), w: u.weight }));
  const center = weightedQuantile(logs, 0.5);
  // The spread is unweighted: the nearest few are often near-copies, and weighting them would
  // report their agreement as the market's (a first version did, and covered 78% instead of 80%+).
  const mad = weightedQuantile(
    logs.map((x) => ({ v: Math.abs(x.v - center), w: 1 })),
    0.5,
  );
  const spread = Math.max(MIN_SD, 1.4826 * mad);
  const sumW = used.reduce((n, u) => n + u.weight, 0);
  const effective = sumW ** 2 / used.reduce((n, u) => n + u.weight ** 2, 0);
  // A median of n values has about π/2 times the variance of their mean.
  const sd = spread * Math.sqrt(1 + Math.PI / 2 / effective);
  const pricePerSqm = Math.exp(center);
  const value = pricePerSqm * s.totalArea;
  const score = Math.max(0, Math.min(1, 1 - sd));
  return {
    value: roundMoney(value),
    low: roundMoney(value * Math.exp(-Z * sd)),
    high: roundMoney(value * Math.exp(Z * sd)),
    pricePerSqm: Math.round(pricePerSqm),
    score: Math.round(score * 100) / 100,
    level: levelOf(score, used.length),
    used,
  };
}
