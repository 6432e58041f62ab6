"use client";

import { useCallback, useEffect, useState } from "react";

type Slot = { start: string; end: string };
export type VisitBookingLabels = {
  title: string;
  intro: string;
  loading: string;
  none: string;
  chooseTime: string;
  day: string;
  /** `{zone}` (the zone's localized name) and `{city}` (from its IANA name) filled here. */
  zone: string;
  name: string;
  phone: string;
  email: string;
  note: string;
  consent: string;
  book: string;
  booking: string;
  booked: string;
  taken: string;
  invalid: string;
  limited: string;
  failed: string;
};

/** `Sexta-feira, 28 de novembro`: only the first letter raised (CSS `capitalize` would raise every word). */
const firstUpper = (s: string, locale: string) => s.charAt(0).toLocaleUpperCase(locale) + s.slice(1);

/** The city of an IANA zone name (`America/Sao_Paulo` → `Sao Paulo`). */
const cityOf = (zone: string) => (zone.split("/").at(-1) ?? zone).replace(/_/g, " ");

/**
 * The listing page's visit booking: a client island that asks the listing's free slots
 * (`visit-slots`, 14 days), lets the visitor pick a day (a compact row of day buttons, so the
 * section stays short on a phone) and one of its times (radio buttons), and books it (`visits`).
 * Times are shown in the broker's availability zone, named, not the browser's: a visitor abroad
 * books the time the broker means. A slot taken meanwhile says so and reloads the list.
 */
export function VisitBooking({ siteId, listingId, locale, labels }: { siteId: string; listingId: string; locale: string; labels: VisitBookingLabels }) {
  const [slots, setSlots] = useState<Slot[] | null>(null);
  const [zone, setZone] = useState<string | undefined>(undefined);
  const [day, setDay] = useState("");
  const [chosen, setChosen] = useState("");
  const [state, setState] = useState<{ kind: "idle" | "sending" | "booked" | "error"; text?: string }>({ kind: "idle" });
  const base = `/api/sites/${siteId}/listings/${encodeURIComponent(listingId)}`;

  const load = useCallback(async () => {
    try {
      // A fresh list each time (the public cache would keep a just-taken slot for a minute).
      const res = await fetch(`${base}/visit-slots?days=14`, { cache: "no-store" });
      const body = res.ok ? ((await res.json()) as { slots: Slot[]; timezone?: string | null }) : { slots: [] };
      setZone(body.timezone ?? undefined);
      setSlots(body.slots);
    } catch {
      setSlots([]);
    }
  }, [base]);
  useEffect(() => {
    void load();
  }, [load]);

  const timeZone = zone;
  const dayFmt = new Intl.DateTimeFormat(locale, { weekday: "long", day: "numeric", month: "long", timeZone });
  const chipFmt = new Intl.DateTimeFormat(locale, { weekday: "short", day: "numeric", timeZone });
  const timeFmt = new Intl.DateTimeFormat(locale, { hour: "2-digit", minute: "2-digit", timeZone });
  const byDay = new Map<string, Slot[]>();
  for (const s of slots ?? []) {
    const key = dayFmt.format(new Date(s.start));
    byDay.set(key, [...(byDay.get(key) ?? []), s]);
  }
  const current = byDay.has(day) ? day : ([...byDay.keys()][0] ?? "");
  const zoneName = timeZone
    ? (new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: "longGeneric" }).formatToParts(new Date()).find((p) => p.type === "timeZoneName")?.value ??
      timeZone)
    : "";

  async function submit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    if (!chosen) return setState({ kind: "error", text: labels.chooseTime });
    setState({ kind: "sending" });
    const email = String(f.get("email") ?? "").trim();
    const note = String(f.get("note") ?? "").trim();
    let visitorId: string | undefined;
    try {
      visitorId = localStorage.getItem("visitorId") ?? undefined;
    } catch {}
    const body = {
      start: chosen,
      contact: { name: String(f.get("name") ?? "").trim(), phone: String(f.get("phone") ?? "").trim(), ...(email ? { email } : {}) },
      consent: f.get("consent") === "on",
      ...(note ? { note } : {}),
      ...(visitorId && /^[0-9a-f-]{36}$/i.test(visitorId) ? { visitorId } : {}),
      locale,
    };
    try {
      const res = await fetch(`${base}/visits`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      if (res.status === 201) {
        const when = `${dayFmt.format(new Date(chosen))}, ${timeFmt.format(new Date(chosen))}${zoneName ? ` (${zoneName})` : ""}`;
        setState({ kind: "booked", text: labels.booked.replace("{when}", when) });
        return;
      }
      const err = ((await res.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null)?.error;
      if (res.status === 409) {
        setChosen("");
        void load();
        return setState({ kind: "error", text: labels.taken });
      }
      if (res.status === 429) return setState({ kind: "error", text: labels.limited });
      if (res.status === 400) return setState({ kind: "error", text: `${labels.invalid} ${err?.message ?? ""}`.trim() });
      setState({ kind: "error", text: labels.failed });
    } catch {
      setState({ kind: "error", text: labels.failed });
    }
  }

  return (
    <section className="box visit" id="visit" aria-labelledby="visit-title">
      <h2 id="visit-title">{labels.title}</h2>
      {state.kind === "booked" ? (
        <p className="notice" role="status">
          {state.text}
        </p>
      ) : slots === null ? (
        <p className="muted" aria-live="polite">
          {labels.loading}
        </p>
      ) : slots.length === 0 ? (
        <p className="muted">{labels.none}</p>
      ) : (
        <form className="form" onSubmit={submit} noValidate>
          <p className="muted" style={{ margin: 0 }}>
            {labels.intro}
          </p>
          {timeZone && (
            <p className="muted small" style={{ margin: 0 }}>
              {labels.zone.replace("{zone}", zoneName).replace("{city}", cityOf(timeZone))}
            </p>
          )}
          <fieldset className="slot-days" aria-label={labels.day}>
            {[...byDay.entries()].map(([key, list]) => (
              <button
                key={key}
                type="button"
                className={key === current ? "slot-daybtn on" : "slot-daybtn"}
                aria-pressed={key === current}
                aria-label={firstUpper(key, locale)}
                onClick={() => setDay(key)}
              >
                {firstUpper(chipFmt.format(new Date(list[0].start)), locale)}
              </button>
            ))}
          </fieldset>
          <fieldset className="slots">
            <legend>{labels.chooseTime}</legend>
            <p className="slot-day">{firstUpper(current, locale)}</p>
            <div className="slot-times">
              {(byDay.get(current) ?? []).map((s) => (
                <label key={s.start} className={chosen === s.start ? "slot on" : "slot"}>
                  <input type="radio" name="slot" value={s.start} checked={chosen === s.start} onChange={() => setChosen(s.start)} />
                  {timeFmt.format(new Date(s.start))}
                </label>
              ))}
            </div>
          </fieldset>
          <label>
            {labels.name}
            <input name="name" autoComplete="name" required maxLength={120} />
          </label>
          <label>
            {labels.phone}
            <input name="phone" type="tel" autoComplete="tel" required maxLength={40} />
          </label>
          <label>
            {labels.email}
            <input name="email" type="email" autoComplete="email" maxLength={200} />
          </label>
          <label>
            {labels.note}
            <textarea name="note" rows={2} maxLength={1000} />
          </label>
          <label className="consent">
            <input type="checkbox" name="consent" required />
            {labels.consent}
          </label>
          {state.kind === "error" && (
            <p className="notice err" role="alert">
              {state.text}
            </p>
          )}
          <button className="btn" type="submit" disabled={state.kind === "sending"}>
            {state.kind === "sending" ? labels.booking : labels.book}
          </button>
        </form>
      )}
    </section>
  );
}
