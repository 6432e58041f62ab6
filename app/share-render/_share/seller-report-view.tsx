import { formatDate, formatNumber } from "@/lib/i18n/format";
import { arr, num, obj, str } from "@/lib/listings/view/doc-fields";
import { localized } from "@/lib/listings/view/localized-text";
import { ListingView } from "./listing-view";
import { agentOf, type ShareView } from "./share-view";

type Week = { week: string; views: number; leads: number };

/** Weekly views (bars) and leads (dots) as a small SVG chart, with the figures in a table for screen readers. */
export function TimelineChart({ view, weeks }: { view: ShareView; weeks: Week[] }) {
  const { t, locale } = view;
  if (!weeks.length) return null;
  const W = 600,
    H = 180,
    pad = 24,
    gap = 6;
  // Views and leads differ by orders of magnitude: each has its own scale, and each lead dot says its number.
  const maxViews = Math.max(1, ...weeks.map((w) => w.views));
  const maxLeads = Math.max(1, ...weeks.map((w) => w.leads));
  const bw = (W - pad * 2) / weeks.length;
  const y = (v: number) => H - pad - (v / maxViews) * (H - pad * 2);
  const yl = (v: number) => H - pad - (v / maxLeads) * (H - pad * 2) * 0.8;
  const cx = (i: number) => (pad + i * bw + bw / 2).toFixed(1);
  const day = (iso: string) => formatDate(locale, `${iso}T12:00:00Z`);
  const first = day(weeks[0].week);
  const last = day(weeks[weeks.length - 1].week);
  const total = weeks.reduce((a, w) => ({ views: a.views + w.views, leads: a.leads + w.leads }), { views: 0, leads: 0 });
  const label = `${t("share.reportChart")}: ${first} – ${last}. ${total.views} ${t("share.reportLegendViews")}, ${total.leads} ${t("share.reportLegendLeads")}.`;
  return (
    <figure className="chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={label}>
        <line x1={pad} y1={H - pad} x2={W - pad} y2={H - pad} stroke="#9aa5b1" />
        {/* Shared attributes sit on the groups (SVG inherits them): the page stays small with a year of weeks. */}
        <g className="bf" fillOpacity=".85">
          {weeks.map((w, i) => (
            <rect
              key={w.week}
              x={(pad + i * bw + gap / 2).toFixed(1)}
              y={y(w.views).toFixed(1)}
              width={(bw - gap).toFixed(1)}
              height={(H - pad - y(w.views)).toFixed(1)}
              rx="3"
            />
          ))}
        </g>
        <polyline fill="none" stroke="#111418" strokeWidth="2" points={weeks.map((w, i) => `${cx(i)},${yl(w.leads).toFixed(1)}`).join(" ")} />
        <g fill="#111418" stroke="#fff" strokeWidth="2">
          {weeks.map((w, i) => (
            <circle key={w.week} cx={cx(i)} cy={yl(w.leads).toFixed(1)} r="5" />
          ))}
        </g>
        <g textAnchor="middle" fontSize="13" fontWeight="700" fill="#111418" stroke="#fff" strokeWidth="3" paintOrder="stroke">
          {weeks.map((w, i) =>
            w.leads > 0 ? (
              <text key={w.week} x={cx(i)} y={(yl(w.leads) - 10).toFixed(1)}>
                {w.leads}
              </text>
            ) : null,
          )}
        </g>
      </svg>
      <figcaption>
        <span className="key bar-key"></span>
        {t("share.reportLegendViews")} <span className="key dot-key"></span>
        {t("share.reportLegendLeads")}{" "}
        <span className="muted small">
          {first} – {last}
        </span>
      </figcaption>
      <table className="sr-only">
        <caption>{t("share.reportChart")}</caption>
        <thead>
          <tr>
            <th scope="col">{t("share.reportWeek")}</th>
            <th scope="col">{t("share.reportViews")}</th>
            <th scope="col">{t("share.reportLeads")}</th>
          </tr>
        </thead>
        <tbody>
          {weeks.map((w) => (
            <tr key={w.week}>
              <th scope="row">{day(w.week)}</th>
              <td>{w.views}</td>
              <td>{w.leads}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}

/** The seller's report: views, interested buyers and days on market, the weekly chart, then the listing. */
export function SellerReportView({ view }: { view: ShareView }) {
  const { t, locale } = view;
  const e = view.answer.entity;
  const stats = obj(e.stats);
  const days = num(stats.daysOnMarket);
  const tiles: [string, string][] = [
    [formatNumber(locale, num(stats.views) ?? 0), t("share.reportViews")],
    [formatNumber(locale, num(stats.leads) ?? 0), t("share.reportLeads")],
    [days === null ? "–" : formatNumber(locale, days), days === null ? `${t("share.reportDays")} (${t("share.reportNoDays")})` : t("share.reportDays")],
  ];
  const weeks = arr(stats.timeline)
    .map(obj)
    .map((w) => ({ week: str(w.week), views: num(w.views) ?? 0, leads: num(w.leads) ?? 0 }));
  const doc = obj(e.listing);
  return (
    <>
      <div className="pad">
        <p className="eyebrow">{t("share.reportTitle")}</p>
        <h1 className="title">{localized(doc, "title", locale)}</h1>
        <ul className="tiles">
          {tiles.map(([v, l]) => (
            <li key={l}>
              <b>{v}</b>
              <span>{l}</span>
            </li>
          ))}
        </ul>
        <section className="block" aria-labelledby="chart-title">
          <h2 id="chart-title">{t("share.reportChart")}</h2>
          <TimelineChart view={view} weeks={weeks} />
        </section>
        <h2>{t("share.reportProperty")}</h2>
      </div>
      <ListingView view={view} doc={doc} property={obj(e.property)} medias={arr(e.medias)} agent={agentOf(e)} action={view.base} hideTitle />
    </>
  );
}
