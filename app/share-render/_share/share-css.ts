/**
 * The share pages' only stylesheet, inlined (about 5 KB): system fonts, mobile first, the brand
 * colours from custom properties (`--brand`, `--on-brand`, `--brand-ink`, see lib/brand). No
 * external CSS, font or script is requested, so the first paint waits for nothing but the HTML.
 * It styles the shared components (listing card, key facts, map, simulator, broker card) by the
 * same class names the sites' stylesheet uses, in the share pages' own phone-first layout.
 */
export const SHARE_CSS = `
*{box-sizing:border-box}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:#1c2430;background:#f4f6f9;line-height:1.5;-webkit-text-size-adjust:100%}
a{color:var(--brand-ink)}
img{max-width:100%;height:auto;display:block}
h1,h2{line-height:1.2;margin:0 0 .4em}
h1{font-size:1.55rem}h2{font-size:1.2rem}
.sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
.page{max-width:760px;margin:0 auto;background:#fff;min-height:100vh;padding-bottom:88px}
.brand{background:var(--brand);color:var(--on-brand)}
.brand .in{display:flex;align-items:center;gap:10px;padding:10px 16px;min-height:60px}
.logo{width:40px;height:40px;object-fit:contain;border-radius:8px;background:#fff}
.mark{width:40px;height:40px;border-radius:8px;background:var(--on-brand);color:var(--brand);display:grid;place-items:center;font-weight:700}
.brand-name{font-weight:700;font-size:1.05rem;margin-right:auto}
.langs{display:flex;gap:2px}
.langs a{color:var(--on-brand);text-decoration:none;font-weight:600;font-size:.85rem;padding:10px 8px;min-width:44px;text-align:center;border-radius:6px}
.langs a[aria-current]{outline:2px solid var(--on-brand);outline-offset:-6px}
.pad{padding:0 16px}
.gallery .cover{width:100%;aspect-ratio:3/2;object-fit:cover;background:#e9eef2}
.strip{display:flex;gap:6px;overflow-x:auto;scroll-snap-type:x mandatory;list-style:none;margin:6px 0 0;padding:0 16px 4px}
.strip li{flex:0 0 42%;scroll-snap-align:start}
.strip img{width:100%;aspect-ratio:3/2;object-fit:cover;border-radius:8px;background:#e9eef2}
.eyebrow{margin:16px 0 4px;color:#4f5b6b;font-size:.85rem;font-weight:600;text-transform:uppercase;letter-spacing:.03em}
.title{margin-top:0}
.pad>h1:first-child{margin-top:16px}
.place,.muted{color:#4f5b6b;margin:0 0 6px}
.small{font-size:.85rem}
.lead{font-size:1.05rem}
.price{font-size:1.45rem;font-weight:700;margin:8px 0 12px}
.keyfacts{display:flex;flex-wrap:wrap;gap:8px;list-style:none;margin:0 0 8px;padding:0}
.keyfacts li{background:#f4f6f9;border-radius:10px;padding:8px 12px;display:flex;flex-direction:column;font-size:.95rem}
.keyfacts span{color:#4f5b6b;font-size:.8rem}
.block{margin:24px 0}
.block p{margin:0 0 .8em}
.box{border:1px solid #dfe4ea;border-radius:12px;padding:16px}
.tags{display:flex;flex-wrap:wrap;gap:6px;list-style:none;margin:0;padding:0}
.tags li{border:1px solid #dfe4ea;border-radius:999px;padding:4px 12px;font-size:.9rem}
.map{margin:0;border-radius:12px;overflow:hidden;border:1px solid #dfe4ea}
.map>svg{display:block;width:100%;height:auto}
.map-live{width:100%;aspect-ratio:5/2;background:#e9eef2}
.map figcaption{padding:10px 14px;font-size:.9rem}
.bf{fill:var(--brand)}.bs{stroke:var(--brand)}.of{fill:var(--on-brand)}.ink{fill:#111418}.wf{fill:#fff}
.btn{display:inline-flex;align-items:center;justify-content:center;min-height:48px;padding:12px 20px;border-radius:10px;border:0;background:var(--brand);color:var(--on-brand);font:inherit;font-weight:700;text-decoration:none;cursor:pointer}
.btn.secondary{background:#fff;color:var(--brand-ink);border:2px solid var(--brand-ink)}
.actions{display:flex;gap:8px;flex-wrap:wrap;margin:14px 0 0}
.broker{display:flex;gap:12px;align-items:center}
.broker img{width:56px;height:56px;border-radius:50%;object-fit:cover}
.broker p{margin:0}.name{font-weight:700;margin:0}
.broker-card h2{font-size:1.05rem}
.sim form{display:grid;gap:8px}
.sim .row{display:grid;grid-template-columns:1fr 1fr 1fr;gap:8px;align-items:end}
.sim label{display:flex;flex-direction:column;font-size:.8rem;font-weight:600;color:#4f5b6b;gap:2px}
input{font:inherit;border:1px solid #8a96a3;border-radius:8px;padding:10px;min-height:48px;width:100%;color:#1c2430;background:#fff}
table{border-collapse:collapse;width:100%;margin:12px 0;font-size:.8rem;table-layout:fixed}
th,td{text-align:left;padding:6px 2px;border-bottom:1px solid #dfe4ea}
td{white-space:nowrap;font-variant-numeric:tabular-nums}
th[scope=row]{width:30%}
.notice{background:#fdecea;color:#8a1c12;border-radius:8px;padding:10px 12px;font-weight:600}
.cards,.stops{list-style:none;margin:0;padding:0 16px;display:grid;gap:14px}
.card{border:1px solid #dfe4ea;border-radius:12px;overflow:hidden;background:#fff}
.card a{display:grid;grid-template-columns:38% 1fr;color:inherit;text-decoration:none;min-height:120px}
.card-media{position:relative;background:#e9eef2;min-height:100%}
.card-media img{width:100%;height:100%;object-fit:cover;aspect-ratio:3/2}
.badge{position:absolute;left:6px;top:6px;background:#fff;color:#1c2430;border-radius:6px;padding:1px 6px;font-size:.75rem;font-weight:700}
.card-body{display:flex;flex-direction:column;gap:2px;padding:10px 12px}
.card-title{font-size:1rem;font-weight:700;line-height:1.3;margin:0}
.card-place{color:#4f5b6b;margin:0}
.card .price{font-size:1.05rem;margin:2px 0}
.card .facts{display:flex;flex-wrap:wrap;gap:0 4px;list-style:none;margin:0;padding:0;color:#4f5b6b;font-size:.85rem}.card .facts li+li::before{content:"· "}
.stops li{display:flex;gap:10px;align-items:flex-start}
.stops .card{flex:1}
.num{flex:0 0 32px;height:32px;border-radius:50%;background:var(--brand);color:var(--on-brand);display:grid;place-items:center;font-weight:700;margin-top:10px}
.stop-meta{font-size:.9rem}
.tiles{display:grid;grid-template-columns:repeat(3,1fr);gap:8px;list-style:none;margin:12px 0;padding:0}
.tiles li{background:#f4f6f9;border-radius:12px;padding:12px;display:flex;flex-direction:column}
.tiles b{font-size:1.5rem}
.tiles span{font-size:.8rem;color:#4f5b6b}
.chart{margin:0}.chart svg{width:100%;height:auto}
.key{display:inline-block;width:12px;height:12px;border-radius:3px;vertical-align:-1px;margin:0 4px 0 0}
.bar-key{background:var(--brand)}.dot-key{background:#111418;border-radius:50%;margin-left:10px}
.pager{display:flex;gap:14px;flex-wrap:wrap;align-items:center;padding-top:12px;padding-bottom:12px}
.pager a{min-height:44px;display:inline-flex;align-items:center}
.bar{position:fixed;left:0;right:0;bottom:0;padding:10px 16px calc(10px + env(safe-area-inset-bottom));background:rgba(255,255,255,.96);border-top:1px solid #dfe4ea;display:flex;justify-content:center}
.bar .btn{width:100%;max-width:728px}
.state{padding:32px 16px}
.state form{display:grid;gap:10px;max-width:360px;margin-top:16px}
.state label{font-weight:600}
footer.foot{padding:24px 16px;color:#4f5b6b;font-size:.85rem}
@media (min-width:700px){h1{font-size:2rem}.strip li{flex-basis:30%}.page{padding-bottom:96px}.card a{grid-template-columns:240px 1fr}}
`.replace(/\n/g, "");
