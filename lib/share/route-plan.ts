import type { ItineraryStop, MeetingPoint, RouteCache } from "../../db/schema";
import { haversineMeters } from "../geo/distance";

type Point = { latitude: number; longitude: number };

/** Great-circle distance in metres (haversine); straight lines are what the cache promises. */
export function distanceMeters(a: Point, b: Point): number {
  return haversineMeters(a.latitude, a.longitude, b.latitude, b.longitude);
}

const pointOf = (p: { latitude: number | null; longitude: number | null } | null | undefined): Point | null =>
  p && p.latitude !== null && p.longitude !== null ? { latitude: p.latitude, longitude: p.longitude } : null;

/** Legs leave rounded to 100 m: precise leg lengths between approximate points would give the points away. */
const round100 = (m: number) => Math.round(m / 100) * 100;

/**
 * The visiting order and its straight-line legs. Stops the broker timed keep their times' order;
 * when no stop has a time, the order is the greedy nearest neighbour from the meeting point
 * (stops without coordinates go last, in the order given). Recomputed whenever stops change.
 */
export function planRoute(meeting: MeetingPoint | null, stops: ItineraryStop[], coords: Map<string, Point | null>, now = new Date()): RouteCache {
  let order: string[];
  if (stops.some((s) => s.time)) {
    order = stops
      .map((s, i) => ({ s, i }))
      .sort((a, b) => (a.s.time ?? "99:99").localeCompare(b.s.time ?? "99:99") || a.i - b.i)
      .map(({ s }) => s.listingId);
  } else {
    const located = stops.filter((s) => coords.get(s.listingId));
    const rest = stops.filter((s) => !coords.get(s.listingId)).map((s) => s.listingId);
    order = [];
    let at = pointOf(meeting) ?? (located[0] ? coords.get(located[0].listingId)! : null);
    const left = [...located];
    while (left.length) {
      let best = 0;
      for (let i = 1; i < left.length; i++) {
        if (distanceMeters(at!, coords.get(left[i].listingId)!) < distanceMeters(at!, coords.get(left[best].listingId)!)) best = i;
      }
      const [next] = left.splice(best, 1);
      order.push(next.listingId);
      at = coords.get(next.listingId)!;
    }
    order.push(...rest);
  }
  const legs: RouteCache["legs"] = [];
  let prev: { id: string | null; p: Point | null } = { id: null, p: pointOf(meeting) };
  let total: number | null = 0;
  for (const id of order) {
    const p = coords.get(id) ?? null;
    const d = prev.p && p ? round100(distanceMeters(prev.p, p)) : null;
    if (prev.p || prev.id) {
      legs.push({ fromListingId: prev.id, toListingId: id, distanceMeters: d });
      total = d === null || total === null ? null : total + d;
    }
    prev = { id, p };
  }
  return { order, legs, totalDistanceMeters: legs.length ? total : 0, computedAt: now.toISOString() };
}
