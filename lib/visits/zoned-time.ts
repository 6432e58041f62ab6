/**
 * Wall-clock time in an IANA time zone, with the platform's own time-zone data (Intl): no date
 * library is a dependency of ours (temporal-polyfill is only Inngest's), and the few conversions
 * slots need fit here. Every conversion goes through `offsetMinutes`, one cached formatter per zone.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The canonical name of an IANA zone (`America/Sao_Paulo`), or null when the platform does not know it. */
export function canonicalTimeZone(name: string): string | null {
  // Region/City names (and UTC) only: offsets such as "-03:00" are not zones and have no DST rules.
  if (!/^(UTC|[A-Za-z]+(\/[A-Za-z0-9_+-]+){1,2})$/.test(name)) return null;
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

export type WallTime = { year: number; month: number; day: number; hour: number; minute: number };

/** The wall-clock fields of an instant in a zone. */
export function wallTime(timeZone: string, ms: number): WallTime & { second: number } {
  const p: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(new Date(ms))) if (part.type !== "literal") p[part.type] = Number(part.value);
  return { year: p.year, month: p.month, day: p.day, hour: p.hour === 24 ? 0 : p.hour, minute: p.minute, second: p.second };
}

/** How far the zone's wall clock is ahead of UTC at an instant, in minutes (São Paulo: -180). */
export function offsetMinutes(timeZone: string, ms: number): number {
  const w = wallTime(timeZone, ms);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return Math.round((asUtc - Math.floor(ms / 1000) * 1000) / 60000);
}

/**
 * The instant a wall-clock time names in a zone. A time the clocks skip (spring forward) names no
 * instant: null. A time they repeat (fall back) names two: the earlier one.
 */
export function zonedToUtc(timeZone: string, w: WallTime): number | null {
  const wall = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute);
  const steady = steadyOffset(timeZone, wall - (((wall % DAY) + DAY) % DAY));
  if (steady !== null) return wall - steady * 60_000;
  // Zones change offset at most once within a day either side, so the offsets a day before and a
  // day after are the only candidates.
  const candidates = [...new Set([offsetMinutes(timeZone, wall - 86_400_000), offsetMinutes(timeZone, wall + 86_400_000)])]
    .map((off) => wall - off * 60_000)
    .filter((ms) => offsetMinutes(timeZone, ms) * 60_000 + ms === wall)
    .sort((a, b) => a - b);
  return candidates[0] ?? null;
}

const DAY = 86_400_000;
const steadyDays = new Map<string, number | null>();

/**
 * The zone's offset on a local date when it is the same all day (almost every day), else null. Any
 * local day lies within 14 hours either side of its UTC day, so equal offsets at both ends of that
 * span mean no change inside. Cached per zone and date: slot lists ask the same days again and again.
 */
function steadyOffset(timeZone: string, day0: number): number | null {
  const key = `${timeZone}|${day0}`;
  let v = steadyDays.get(key);
  if (v === undefined) {
    const a = offsetMinutes(timeZone, day0 - 14 * 3_600_000);
    v = a === offsetMinutes(timeZone, day0 + DAY + 14 * 3_600_000) ? a : null;
    if (steadyDays.size > 20_000) steadyDays.clear();
    steadyDays.set(key, v);
  }
  return v;
}

/** `YYYY-MM-DD` of a local date (calendar arithmetic in UTC, where every day has 24 hours). */
export function isoDate(y: number, m: number, d: number): string {
  return new Date(Date.UTC(y, m - 1, d)).toISOString().slice(0, 10);
}

/** The local date `n` days after `date` (`YYYY-MM-DD`), and its weekday (0 Sunday … 6 Saturday). */
export function addDays(date: string, n: number): { date: string; weekday: number; year: number; month: number; day: number } {
  const t = new Date(`${date}T00:00:00Z`);
  t.setUTCDate(t.getUTCDate() + n);
  return { date: t.toISOString().slice(0, 10), weekday: t.getUTCDay(), year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate() };
}
