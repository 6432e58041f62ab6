"use client";

import { useCallback, useEffect, useState } from "react";

type Slot = { start: string; end: string };
export type VisitBookingLabels = {
  title: string;
  intro: string;
  loading: string;
  none: string;
  chooseTime: string;
  more: string;
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

/**
 * The listing page's visit booking: a client island that asks the listing's free slots
 * (`visit-slots`, 14 days), lets the visitor pick one (radio buttons grouped by day, in the
 * visitor's own clock) and books it (`visits`). A slot taken meanwhile says so and reloads the list.
 */
export function VisitBooking({ siteId, listingId, locale, labels }: { siteId: string; listingId: string; locale: string; labels: VisitBookingLabels }) {
  const [slots, setSlots] = useState<Slot[] | null>(null);
  const [days, setDays] = useState(3);
  const [chosen, setChosen] = useState("");
  const [state, setState] = useState<{ kind: "idle" | "sending" | "booked" | "error"; text?: string }>({ kind: "idle" });
  const base = `/api/sites/${siteId}/listings/${encodeURIComponent(listingId)}`;

  const load = useCallback(async () => {
    try {
      // A fresh list each time (the public cache would keep a just-taken slot for a minute).
      const res = await fetch(`${base}/visit-slots?days=14`, { cache: "no-store" });
      setSlots(res.ok ? ((await res.json()) as { slots: Slot[] }).slots : []);
    } catch {
      setSlots([]);
    }
  }, [base]);
  useEffect(() => {
    void load();
  }, [load]);

  const dayFmt = new Intl.DateTimeFormat(locale, { weekday: "long", day: "numeric", month: "long" });
  const timeFmt = new Intl.DateTimeFormat(locale, { hour: "2-digit", minute: "2-digit" });
  const byDay = new Map<string, Slot[]>();
  for (const s of slots ?? []) {
    const key = dayFmt.format(new Date(s.start));
    byDay.set(key, [...(byDay.get(key) ?? []), s]);
  }
  const shownDays = [...byDay.entries()].slice(0, days);

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
        const when = `${dayFmt.format(new Date(chosen))}, ${timeFmt.format(new Date(chosen))}`;
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
          <fieldset className="slots">
            <legend>{labels.chooseTime}</legend>
            {shownDays.map(([day, list]) => (
              <fieldset key={day} className="slot-group">
                <legend className="slot-day">{day}</legend>
                <div className="slot-times">
                  {list.map((s) => (
                    <label key={s.start} className={chosen === s.start ? "slot on" : "slot"}>
                      <input type="radio" name="slot" value={s.start} checked={chosen === s.start} onChange={() => setChosen(s.start)} />
                      {timeFmt.format(new Date(s.start))}
                    </label>
                  ))}
                </div>
              </fieldset>
            ))}
            {byDay.size > days && (
              <button type="button" className="btn secondary" onClick={() => setDays((d) => d + 4)}>
                {labels.more}
              </button>
            )}
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
