/**
 * A share link's approximate point: 150-500 m from the true place whatever the link's seed, after
 * its rounding to four decimals too, so the 500 m circle drawn around it always holds the place.
 */
import { describe, expect, it } from "vitest";
import { approximatePoint } from "../../../lib/share/approximate";
import { distanceMeters } from "../../../lib/share/route-plan";

describe("approximatePoint", () => {
  it("stays 140-500 m from the true place for every seed, at several latitudes", () => {
    for (const place of [
      { latitude: -23.5613, longitude: -46.6565 },
      { latitude: -3.7319, longitude: -38.5267 },
      { latitude: -30.0346, longitude: -51.2177 },
    ]) {
      let far = 0;
      for (let i = 0; i < 5_000; i++) {
        const d = distanceMeters(place, approximatePoint(`seed-${i}`, place.latitude, place.longitude));
        expect(d).toBeGreaterThan(140);
        expect(d).toBeLessThanOrEqual(500);
        far = Math.max(far, d);
      }
      // The offsets do reach out near the circle: the bound is tight, not met by staying close.
      expect(far).toBeGreaterThan(450);
    }
  });
});
