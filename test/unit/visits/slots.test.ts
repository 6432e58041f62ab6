/**
 * Slot computation on fixed dates: weekly ranges, exceptions, time zones and daylight-saving
 * changes (New York springs forward on 2026-03-08 and falls back on 2026-11-01), and the busy rule.
 * Expected instants are written out by hand from each zone's offset, not computed by the code.
 */
import { describe, expect, it } from "vitest";
import { AvailabilityInput } from "../../../lib/visits/availability-schema";
import { offeredSlots, withoutBusy, type AvailabilityRules } from "../../../lib/visits/slots";
import { zonedToUtc } from "../../../lib/visits/zoned-time";

const iso = (slots: { start: number }[]) => slots.map((s) => new Date(s.start).toISOString());

describe("zonedToUtc", () => {
  it("converts São Paulo (UTC-3, no DST) and skips a New York time the clocks jump over", () => {
    expect(new Date(zonedToUtc("America/Sao_Paulo", { year: 2026, month: 12, day: 1, hour: 10, minute: 0 })!).toISOString()).toBe("2026-12-01T13:00:00.000Z");
    expect(zonedToUtc("America/New_York", { year: 2026, month: 3, day: 8, hour: 2, minute: 30 })).toBeNull();
    expect(new Date(zonedToUtc("America/New_York", { year: 2026, month: 3, day: 8, hour: 3, minute: 0 })!).toISOString()).toBe("2026-03-08T07:00:00.000Z");
  });
  it("takes the earlier of a repeated fall-back time", () => {
    // 01:30 EDT (UTC-4) comes before 01:30 EST (UTC-5).
    expect(new Date(zonedToUtc("America/New_York", { year: 2026, month: 11, day: 1, hour: 1, minute: 30 })!).toISOString()).toBe("2026-11-01T05:30:00.000Z");
  });
});

describe("offeredSlots", () => {
  const rules = (over: Partial<AvailabilityRules> = {}): AvailabilityRules => ({
    timezone: "America/Sao_Paulo",
    weekly: [
      { weekday: 1, start: "09:00", end: "11:00" },
      { weekday: 1, start: "14:00", end: "15:30" },
    ],
    exceptions: [],
    slotMinutes: 60,
    ...over,
  });

  it("offers whole slots from each range's start on the right weekday", () => {
    // 2026-11-30 is a Monday; the 14:00-15:30 range holds one 60-minute slot.
    expect(iso(offeredSlots(rules(), "2026-11-29", 3, 0))).toEqual(["2026-11-30T12:00:00.000Z", "2026-11-30T13:00:00.000Z", "2026-11-30T17:00:00.000Z"]);
  });

  it("closes a date and replaces a date's ranges with an exception's", () => {
    const r = rules({
      exceptions: [
        { date: "2026-11-30", available: false },
        { date: "2026-12-01", start: "18:00", end: "19:00" },
      ],
    });
    expect(iso(offeredSlots(r, "2026-11-30", 2, 0))).toEqual(["2026-12-01T21:00:00.000Z"]);
  });

  it("drops slots before notBefore", () => {
    expect(iso(offeredSlots(rules(), "2026-11-30", 1, Date.parse("2026-11-30T12:30:00Z")))).toEqual(["2026-11-30T13:00:00.000Z", "2026-11-30T17:00:00.000Z"]);
  });

  it("follows New York's spring-forward: the same local hours, one hour earlier in UTC, and no skipped times", () => {
    const ny = rules({
      timezone: "America/New_York",
      weekly: [
        { weekday: 0, start: "01:00", end: "04:00" },
        { weekday: 6, start: "10:00", end: "11:00" },
      ],
      slotMinutes: 30,
    });
    // Saturday 2026-03-07 is EST (UTC-5); Sunday 03-08 skips 02:00-03:00 and is EDT (UTC-4) after.
    expect(iso(offeredSlots(ny, "2026-03-07", 2, 0))).toEqual([
      "2026-03-07T15:00:00.000Z",
      "2026-03-07T15:30:00.000Z",
      "2026-03-08T06:00:00.000Z",
      "2026-03-08T06:30:00.000Z",
      "2026-03-08T07:00:00.000Z",
      "2026-03-08T07:30:00.000Z",
    ]);
  });

  it("keeps office hours at the same local time across the autumn change", () => {
    const lisbon = rules({
      timezone: "Europe/Lisbon",
      weekly: [
        { weekday: 6, start: "10:00", end: "11:00" },
        { weekday: 0, start: "10:00", end: "11:00" },
      ],
    });
    // Lisbon leaves summer time (UTC+1) on Sunday 2026-10-25.
    expect(iso(offeredSlots(lisbon, "2026-10-24", 2, 0))).toEqual(["2026-10-24T09:00:00.000Z", "2026-10-25T10:00:00.000Z"]);
  });

  it("offers a range ending at 24:00 up to midnight", () => {
    const r = rules({ weekly: [{ weekday: 1, start: "22:00", end: "24:00" }] });
    expect(iso(offeredSlots(r, "2026-11-30", 1, 0))).toEqual(["2026-12-01T01:00:00.000Z", "2026-12-01T02:00:00.000Z"]);
  });
});

describe("withoutBusy", () => {
  it("removes slots a task (held one slot long) overlaps", () => {
    const h = 3_600_000;
    const slots = [0, 1, 2, 3].map((i) => ({ start: i * h, end: (i + 1) * h }));
    // A task at 1.5 h holds 1.5-2.5 h: slots 1 and 2 are busy.
    expect(withoutBusy(slots, [1.5 * h], 60).map((s) => s.start / h)).toEqual([0, 3]);
  });
});

describe("AvailabilityInput", () => {
  const base = { timezone: "America/Sao_Paulo", weekly: [{ weekday: 1, start: "09:00", end: "12:00" }], exceptions: [], slotMinutes: 30 };
  const issues = (body: unknown) => {
    const r = AvailabilityInput.safeParse(body);
    return r.success ? [] : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
  };
  it("accepts a valid body and canonical zone names", () => {
    expect(issues(base)).toEqual([]);
  });
  it("names each bad field", () => {
    expect(issues({ ...base, timezone: "Mars/Olympus" })[0]).toMatch(/^timezone: 'Mars\/Olympus' is not an IANA time zone/);
    expect(issues({ ...base, timezone: "-03:00" })[0]).toMatch(/^timezone:/);
    expect(issues({ ...base, weekly: [{ weekday: 7, start: "09:00", end: "10:00" }] })[0]).toMatch(/^weekly\.0\.weekday:/);
    expect(issues({ ...base, weekly: [{ weekday: 1, start: "9:00", end: "10:00" }] })[0]).toMatch(/^weekly\.0\.start:/);
    expect(issues({ ...base, weekly: [{ weekday: 1, start: "10:00", end: "10:00" }] })).toEqual(["weekly.0.end: must be after start (10:00)"]);
    expect(issues({ ...base, weekly: [...base.weekly, { weekday: 1, start: "11:00", end: "13:00" }] })).toEqual([
      "weekly.1: overlaps 09:00-12:00 of the same day",
    ]);
    expect(issues({ ...base, weekly: [...base.weekly, { weekday: 1, start: "12:00", end: "13:00" }] })).toEqual([]);
    expect(issues({ ...base, slotMinutes: 10 })[0]).toMatch(/^slotMinutes:/);
    expect(issues({ ...base, slotMinutes: 241 })[0]).toMatch(/^slotMinutes:/);
    expect(issues({ ...base, exceptions: [{ date: "2026-02-30", available: false }] })[0]).toMatch(/^exceptions\.0/);
    expect(
      issues({
        ...base,
        exceptions: [
          { date: "2026-12-24", available: false },
          { date: "2026-12-24", start: "09:00", end: "10:00" },
        ],
      }),
    ).toEqual(["exceptions.1: 2026-12-24 is also marked available: false"]);
  });
});
