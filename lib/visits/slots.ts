import type { AvailabilityException, WeeklyRange } from "../../db/schema";
import { minutesOf } from "./availability-schema";
import { addDays, wallTime, zonedToUtc } from "./zoned-time";

export type AvailabilityRules = { timezone: string; weekly: WeeklyRange[]; exceptions: AvailabilityException[]; slotMinutes: number };
/** Instants in milliseconds; `end` is exclusive. */
export type Slot = { start: number; end: number };

const MINUTE = 60_000;

/** The local ranges of one date: a closing exception empties it, dated ranges replace the weekly ones. */
function rangesOf(rules: AvailabilityRules, date: string, weekday: number): { start: string; end: string }[] {
  const dated = rules.exceptions.filter((e) => e.date === date);
  if (dated.some((e) => !("start" in e))) return [];
  const own = dated.filter((e): e is Extract<AvailabilityException, { start: string }> => "start" in e);
  return own.length ? own : rules.weekly.filter((w) => w.weekday === weekday);
}

/**
 * Every slot the rules offer from local date `fromDate` for `days` local days, starting at or after
 * `notBefore`. Slots start at each range's start, every `slotMinutes`, and end inside the range.
 * A range the clocks do not jump through is converted once and stepped in UTC; one that crosses a
 * daylight-saving change converts each slot, dropping local times that do not exist.
 */
export function offeredSlots(rules: AvailabilityRules, fromDate: string, days: number, notBefore: number): Slot[] {
  const out: Slot[] = [];
  const step = rules.slotMinutes;
  for (let i = 0; i < days; i++) {
    const d = addDays(fromDate, i);
    for (const r of rangesOf(rules, d.date, d.weekday)) {
      const a = minutesOf(r.start);
      const b = minutesOf(r.end);
      // 24:00 is the next day's midnight (Date.UTC carries the hour over).
      const startUtc = localInstant(rules.timezone, d, a);
      const endUtc = localInstant(rules.timezone, d, b);
      const linear = startUtc !== null && endUtc !== null && endUtc - startUtc === (b - a) * MINUTE;
      for (let m = a; m + step <= b; m += step) {
        const s = linear ? startUtc + (m - a) * MINUTE : localInstant(rules.timezone, d, m);
        if (s === null || s < notBefore) continue;
        out.push({ start: s, end: s + step * MINUTE });
      }
    }
  }
  return out;
}

function localInstant(tz: string, d: { year: number; month: number; day: number }, minuteOfDay: number): number | null {
  return zonedToUtc(tz, { year: d.year, month: d.month, day: d.day, hour: Math.floor(minuteOfDay / 60), minute: minuteOfDay % 60 });
}

/** The local date (`YYYY-MM-DD`) of an instant in a zone. */
export function localDateOf(timeZone: string, ms: number): string {
  const w = wallTime(timeZone, ms);
  return `${String(w.year).padStart(4, "0")}-${String(w.month).padStart(2, "0")}-${String(w.day).padStart(2, "0")}`;
}

/**
 * The slots no busy interval overlaps. A task has no length, so an open visit or meeting due at
 * `t` holds the member from `t` for one slot length.
 */
export function withoutBusy(slots: Slot[], busyStarts: number[], slotMinutes: number): Slot[] {
  if (!busyStarts.length) return slots;
  const len = slotMinutes * MINUTE;
  const sorted = [...busyStarts].sort((x, y) => x - y);
  return slots.filter((s) => !sorted.some((b) => b < s.end && b + len > s.start));
}
