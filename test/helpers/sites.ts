import * as sitesRoute from "../../app/api/v1/sites/route";
import type { TestTenant } from "./factories";
import { call } from "./http";

let n = 0;

/** A site of the tenant made through the tenant API (active and published unless told otherwise). */
export async function makeSite(t: TestTenant, over: Record<string, unknown> = {}): Promise<{ id: string; domain: string; body: any }> {
  const domain = `site-${Date.now().toString(36)}-${++n}.example.com`;
  const res = await call(sitesRoute.POST, "POST", "/api/v1/sites", { key: t.key, body: { name: `Site ${n}`, domain, published: true, ...over } });
  if (res.status !== 201) throw new Error(`makeSite: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.id, domain: res.body.domain, body: res.body };
}
