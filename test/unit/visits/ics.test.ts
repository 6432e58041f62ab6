/** The hand-written iCalendar file: escaping, folding at 75 octets, CRLF, and a shape calendars read. */
import { describe, expect, it } from "vitest";
import { buildIcs, escapeText, foldLine } from "../../../lib/visits/ics";

describe("ics", () => {
  it("escapes TEXT values (RFC 5545 §3.3.11)", () => {
    expect(escapeText("a\\b;c,d\ne")).toBe("a\\\\b\\;c\\,d\\ne");
  });
  it("folds long lines at 75 octets without splitting a UTF-8 character", () => {
    const line = `SUMMARY:${"é".repeat(60)}`;
    const folded = foldLine(line);
    const parts = folded.split("\r\n");
    expect(parts.length).toBeGreaterThan(1);
    for (const p of parts) expect(Buffer.byteLength(p)).toBeLessThanOrEqual(75);
    expect(parts.slice(1).every((p) => p.startsWith(" "))).toBe(true);
    expect(parts.map((p, i) => (i ? p.slice(1) : p)).join("")).toBe(line);
  });
  it("builds one VEVENT with UTC times and CRLF line ends", () => {
    const ics = buildIcs({
      uid: "task-1@imobi",
      start: new Date("2026-12-01T13:00:00Z"),
      end: new Date("2026-12-01T14:00:00Z"),
      stamp: new Date("2026-11-27T18:00:00Z"),
      summary: "Visita: Apto, Jardins; 3 dorms",
      location: "Rua A, 10",
    });
    expect(ics.endsWith("\r\n")).toBe(true);
    expect(ics.replace(/\r\n/g, "").includes("\n")).toBe(false);
    const lines = ics.split("\r\n");
    expect(lines).toContain("DTSTART:20261201T130000Z");
    expect(lines).toContain("DTEND:20261201T140000Z");
    expect(lines).toContain("DTSTAMP:20261127T180000Z");
    expect(lines).toContain("SUMMARY:Visita: Apto\\, Jardins\\; 3 dorms");
    expect(lines).toContain("LOCATION:Rua A\\, 10");
    expect(lines.indexOf("BEGIN:VEVENT")).toBeLessThan(lines.indexOf("END:VEVENT"));
    expect(lines[0]).toBe("BEGIN:VCALENDAR");
  });
});
