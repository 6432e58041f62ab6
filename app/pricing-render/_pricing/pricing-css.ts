/**
 * The pricing tool's only stylesheet, inlined: system fonts, one column, the brand colours from
 * custom properties (`--brand`, `--on-brand`, `--brand-ink`, see lib/brand), the brand band of the
 * share pages.
 */
export const PRICING_CSS = `*{box-sizing:border-box}body{margin:0;font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1c2430;background:#f4f6f9}
a{color:var(--brand-ink)}.wrap{max-width:640px;margin:0 auto;padding:0 16px}
.skip{position:absolute;left:-999px}.skip:focus{left:8px;top:8px;background:#fff;padding:8px;z-index:2}
.brand{background:var(--brand);color:var(--on-brand)}.brand .in{max-width:640px;margin:0 auto;display:flex;align-items:center;gap:10px;min-height:60px;flex-wrap:wrap;padding:8px 16px}
.logo{height:40px;width:auto;max-width:160px;object-fit:contain;background:#fff;border-radius:6px;padding:2px}
.mark{width:40px;height:40px;border-radius:8px;background:var(--on-brand);color:var(--brand);display:grid;place-items:center;font-weight:700}
.brand-name{font-weight:700;font-size:1.1rem;margin-right:auto}
.langs{display:flex;gap:4px}.langs a{color:var(--on-brand);padding:8px;min-width:44px;text-align:center;border-radius:6px;font-size:.9rem;font-weight:600;text-decoration:none}.langs a[aria-current=true]{outline:2px solid var(--on-brand);outline-offset:-4px}
main.wrap{padding:20px 16px 40px}.card{background:#fff;border:1px solid #dfe4ea;border-radius:12px;padding:20px;margin:0 0 16px}
h1{font-size:1.5rem;line-height:1.25;margin:0 0 8px}h2{font-size:1.15rem;margin:0 0 8px}h1:focus,#dym:focus{outline:none}.errors:focus{outline:3px solid var(--brand-ink);outline-offset:4px}
.by,.muted,.hint{color:#4f5b6b}.hint{font-size:.9rem;margin:2px 0 6px}
.steps{display:flex;gap:4px;list-style:none;padding:0;margin:12px 0 16px;font-size:.8rem;color:#4f5b6b}.steps li{flex:1;border-top:4px solid #cfd6de;padding-top:4px}.steps li.done,.steps li[aria-current=step]{border-color:var(--brand-ink)}.steps li[aria-current=step]{color:#1c2430;font-weight:700}
fieldset{border:0;padding:0;margin:0 0 16px}legend{font-weight:700;margin-bottom:6px;padding:0}label{display:block;font-weight:600}
.choices{display:grid;gap:8px;grid-template-columns:repeat(auto-fill,minmax(150px,1fr))}.choice{display:flex;align-items:center;gap:10px;border:1px solid #cfd6de;border-radius:8px;padding:10px 12px;font-weight:500;min-height:48px;background:#fff}
.choice input{width:20px;height:20px;margin:0;accent-color:var(--brand-ink);flex:none}.choice.wide{grid-column:1/-1}.choices.one{grid-template-columns:1fr}
input[type=text],input[type=email],input[type=tel],input[type=number],input:not([type]),select{display:block;width:100%;font:inherit;padding:10px 12px;border:1px solid #6b7785;border-radius:8px;min-height:48px;background:#fff;color:#1c2430}
input:focus,select:focus,button:focus,a:focus{outline:3px solid var(--brand-ink);outline-offset:2px}
.field{margin:0 0 14px}.row{display:grid;grid-template-columns:repeat(3,1fr);gap:10px}.row2{display:grid;grid-template-columns:2fr 1fr;gap:10px}
[aria-invalid=true]{border-color:#b3261e!important;border-width:2px!important}.err{color:#b3261e;font-weight:600;margin:4px 0 6px;font-size:.95rem}
.errors{border:2px solid #b3261e;border-radius:10px;padding:12px 16px;background:#fff5f5;margin:0 0 16px}.errors ul{margin:6px 0 0;padding-left:20px}.errors a{color:#b3261e}
.notice{border-left:4px solid var(--brand-ink);background:#fff;padding:10px 14px;border-radius:6px;margin:0 0 16px}
.actions{display:flex;gap:12px;align-items:center;justify-content:space-between;margin-top:8px;flex-wrap:wrap}
.btn{display:inline-flex;align-items:center;justify-content:center;background:var(--brand);color:var(--on-brand);border:0;border-radius:8px;padding:12px 22px;font:inherit;font-weight:700;cursor:pointer;text-decoration:none;min-height:48px}
.result .value{font-size:2.1rem;font-weight:800;margin:0;line-height:1.2}.result .label{margin:0;color:#4f5b6b;font-weight:600}
.conf{border-radius:8px;padding:10px 12px;background:#f4f6f9}.conf strong{display:block}
dl{display:grid;grid-template-columns:auto 1fr;gap:4px 12px;margin:0}dt{color:#4f5b6b}dd{margin:0;font-weight:600}
ul.comps{padding-left:20px;margin:8px 0 0}.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
footer{padding:0 16px 32px;text-align:center;font-size:.85rem;color:#4f5b6b}`;
