import { beforeAll, describe, expect, it } from "vitest";
import * as secretRoute from "../../../app/api/v1/settings/webhooks/secret/route";
import * as webhooksRoute from "../../../app/api/v1/settings/webhooks/route";
import { makeMember, makeTenant, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";

let t: TestTenant;
const put = (body: unknown, key = t.key) => call(webhooksRoute.PUT, "PUT", "/api/v1/settings/webhooks", { key, body });
const base = { url: "https://hooks.example.com/crm", events: ["listing.updated", "deal.created"], hmac: false, bearer: false };

beforeAll(async () => {
  t = await makeTenant();
});

describe("webhook settings", () => {
  it("starts empty and keeps URL and events", async () => {
    const empty = await call(webhooksRoute.GET, "GET", "/x", { key: t.key });
    expect(empty.body).toMatchObject({ url: null, events: [], hmac: false, bearer: false, hasSecret: false });
    const res = await put(base);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ...base, hasSecret: false });
    expect(res.body).not.toHaveProperty("secret");
  });

  it("generates the secret when an option turns on, returns it once, keeps it on URL changes, erases it when both go off", async () => {
    const on = await put({ ...base, hmac: true });
    expect(on.body.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(on.body.secret, "base64url")).toHaveLength(32);
    const get = await call(webhooksRoute.GET, "GET", "/x", { key: t.key });
    expect(get.body).toMatchObject({ hasSecret: true });
    expect(get.body).not.toHaveProperty("secret");
    const moved = await put({ ...base, url: "https://other.example.com/x", hmac: true, bearer: true });
    expect(moved.body).not.toHaveProperty("secret");
    expect(moved.body.hasSecret).toBe(true);
    const rotated = await call(secretRoute.POST, "POST", "/x", { key: t.key });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(on.body.secret);
    const off = await put(base);
    expect(off.body.hasSecret).toBe(false);
    expect((await call(secretRoute.POST, "POST", "/x", { key: t.key })).status).toBe(409);
    const again = await put({ ...base, bearer: true });
    expect(again.body.secret).toBeTruthy();
    expect(again.body.secret).not.toBe(rotated.body.secret);
  });

  it("validates URL and event names", async () => {
    const cases: [unknown, RegExp][] = [
      [{ ...base, url: "ftp://x.example.com" }, /body field `url`: must use https/],
      [{ ...base, url: "http://hooks.example.com/x" }, /body field `url`: must use https/],
      [{ ...base, url: "not a url" }, /url/],
      [{ ...base, url: "https://user:pw@x.example.com" }, /credentials/],
      [{ ...base, events: ["listing.exploded"] }, /events\.0/],
      [{ ...base, hmac: "yes" }, /hmac/],
      [{ url: base.url }, /events/],
    ];
    for (const [body, msg] of cases) {
      const res = await put(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toMatch(msg);
    }
    // Plain http to loopback is fine outside production (tests run in test mode).
    expect((await put({ ...base, url: "http://127.0.0.1:9/hooks" })).status).toBe(200);
  });

  it("is for owner and admin broad keys only", async () => {
    const broker = await makeMember(t, "broker");
    expect((await call(webhooksRoute.GET, "GET", "/x", { key: broker.key })).status).toBe(403);
    expect((await put(base, broker.key)).status).toBe(403);
  });
});
