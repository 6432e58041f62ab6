import { z } from "zod";
import { canonicalTimeZone } from "./zoned-time";

export const MIN_SLOT_MINUTES = 15;
export const MAX_SLOT_MINUTES = 240;
export const DEFAULT_TIMEZONE = "America/Sao_Paulo";

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;
const startTime = z.string().regex(HHMM, "must be a local time HH:MM, 00:00 to 23:59");
const endTime = z.string().regex(new RegExp(`${HHMM.source}|^24:00$`), "must be a local time HH:MM, 00:01 to 24:00");

/** Minutes since local midnight of `HH:MM`. */
export const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

const LocalDate = z.iso.date().meta({ description: "A local date, YYYY-MM-DD." });

const Weekly = z.strictObject({
  weekday: z.int().min(0).max(6).meta({ description: "0 Sunday, 1 Monday … 6 Saturday." }),
  start: startTime,
  end: endTime,
});

const Exception = z.union([
  z.strictObject({ date: LocalDate, available: z.literal(false) }),
  z.strictObject({ date: LocalDate, start: startTime, end: endTime }),
]);

/** The body of `PUT /api/v1/members/{id}/availability`; every rule names the offending entry. */
export const AvailabilityInput = z
  .strictObject({
    timezone: z
      .string()
      .max(64)
      .transform((v, ctx) => {
        const zone = canonicalTimeZone(v);
        if (!zone) {
          ctx.addIssue({ code: "custom", message: `'${v}' is not an IANA time zone (such as America/Sao_Paulo)` });
          return z.NEVER;
        }
        return zone;
      })
      .meta({ description: "IANA time zone of the ranges, e.g. `America/Sao_Paulo`; daylight-saving rules follow it." }),
    weekly: z.array(Weekly).max(70),
    exceptions: z.array(Exception).max(400).default([]),
    slotMinutes: z
      .int()
      .min(MIN_SLOT_MINUTES)
      .max(MAX_SLOT_MINUTES)
      .meta({ description: `Length of one visit, ${MIN_SLOT_MINUTES} to ${MAX_SLOT_MINUTES} minutes.` }),
  })
  .superRefine((v, ctx) => {
    const ranges = (path: (string | number)[], r: { start: string; end: string }) => {
      if (minutesOf(r.end) <= minutesOf(r.start)) ctx.addIssue({ code: "custom", path: [...path, "end"], message: `must be after start (${r.start})` });
    };
    for (const [i, r] of v.weekly.entries()) ranges(["weekly", i], r);
    for (const [i, e] of v.exceptions.entries()) if ("start" in e) ranges(["exceptions", i], e);
    overlaps(
      v.weekly.map((r, i) => ({ key: String(r.weekday), r, path: ["weekly", i] })),
      ctx,
    );
    const off = new Set(v.exceptions.filter((e) => !("start" in e)).map((e) => e.date));
    v.exceptions.forEach((e, i) => {
      if ("start" in e && off.has(e.date)) ctx.addIssue({ code: "custom", path: ["exceptions", i], message: `${e.date} is also marked available: false` });
    });
    const seenOff = new Set<string>();
    v.exceptions.forEach((e, i) => {
      if ("start" in e) return;
      if (seenOff.has(e.date)) ctx.addIssue({ code: "custom", path: ["exceptions", i], message: `${e.date} is listed twice` });
      seenOff.add(e.date);
    });
    overlaps(
      v.exceptions.flatMap((e, i) => ("start" in e ? [{ key: e.date, r: e, path: ["exceptions", i] }] : [])),
      ctx,
    );
  })
  .meta({ id: "AvailabilityInput" });

/** Ranges of one key (a weekday, a date) must not overlap; touching (10:00-12:00, 12:00-14:00) is fine. */
function overlaps(items: { key: string; r: { start: string; end: string }; path: (string | number)[] }[], ctx: z.RefinementCtx) {
  const byKey = new Map<string, typeof items>();
  for (const it of items) byKey.set(it.key, [...(byKey.get(it.key) ?? []), it]);
  for (const group of byKey.values()) {
    const sorted = [...group].sort((a, b) => minutesOf(a.r.start) - minutesOf(b.r.start));
    for (let i = 1; i < sorted.length; i++) {
      const prev = sorted[i - 1].r;
      if (minutesOf(sorted[i].r.start) < minutesOf(prev.end)) {
        ctx.addIssue({ code: "custom", path: sorted[i].path, message: `overlaps ${prev.start}-${prev.end} of the same day` });
      }
    }
  }
}

export type Availability = z.infer<typeof AvailabilityInput>;

export const AvailabilitySchema = z
  .object({
    memberId: z.uuid(),
    timezone: z.string(),
    weekly: z.array(z.object({ weekday: z.int(), start: z.string(), end: z.string() })),
    exceptions: z.array(
      z.union([z.object({ date: z.string(), available: z.literal(false) }), z.object({ date: z.string(), start: z.string(), end: z.string() })]),
    ),
    slotMinutes: z.int(),
    updatedAt: z.string().nullable().meta({ description: "Null while the member has published no availability (the empty default is shown)." }),
  })
  .meta({ id: "Availability" });
