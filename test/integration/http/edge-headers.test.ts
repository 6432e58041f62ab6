import { afterAll, describe, expect, it } from "vitest";
import * as tenantsRoute from "../../../app/api/admin/tenants/route";
import * as inngestRoute from "../../../app/api/inngest/route";
import * as dealsRoute from "../../../app/api/v1/crm/deals/route";
import * as settingsRoute from "../../../app/api/v1/settings/route";
import { resetConfigForTests } from "../../../lib/config";
import { makeTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";

const saved = { ...process.env };
afterAll(() => {
  process.env = saved;
  resetConfigForTests();
});

describe("headers of authenticated answers", () => {
  it("401 says how to authenticate (WWW-Authenticate: Bearer), with invalid_token when a key was sent", async () => {
    const none = await call(dealsRoute.GET, "GET", "/x");
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toBe('Bearer realm="api"');
    const bad = await call(dealsRoute.GET, "GET", "/x", { key: "crm_not_a_real_key" });
    expect(bad.status).toBe(401);
    expect(bad.headers.get("www-authenticate")).toBe('Bearer realm="api", error="invalid_token"');
    const operator = await call(tenantsRoute.POST, "POST", "/x", { body: {} });
    expect(operator.status).toBe(401);
    expect(operator.headers.get("www-authenticate")).toMatch(/^Bearer /);
  });

  it("answers with personal data are never cached: Cache-Control no-store on success and error", async () => {
    const t = await makeTenant();
    for (const res of [
      await call(settingsRoute.GET, "GET", "/x", { key: t.key }),
      await call(dealsRoute.GET, "GET", "/x", { key: t.key }),
      await call(dealsRoute.POST, "POST", "/x", { key: t.key, body: { title: "" } }),
      await call(dealsRoute.GET, "GET", "/x"),
    ]) {
      expect(res.headers.get("cache-control")).toBe("no-store");
    }
  });
});

describe("/api/inngest when Inngest does not run the background work", () => {
  it.each(["off", "embedded"])("JOBS_RUNNER=%s: GET, PUT and POST answer a JSON 404 saying Inngest is off", async (mode) => {
    process.env.JOBS_RUNNER = mode;
    resetConfigForTests();
    for (const [handler, method] of [
      [inngestRoute.GET, "GET"],
      [inngestRoute.PUT, "PUT"],
      [inngestRoute.POST, "POST"],
    ] as const) {
      const res = await call(handler as never, method, "/api/inngest", method === "GET" ? {} : { body: {} });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("not_found");
      expect(res.body.error.message).toMatch(/^Inngest is off in this installation/);
    }
  });
});
