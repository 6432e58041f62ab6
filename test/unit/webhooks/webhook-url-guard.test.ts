import { afterEach, describe, expect, it, vi } from "vitest";
import { resetConfigForTests } from "../../../lib/config";
import { postWebhook } from "../../../lib/webhooks/send-webhook";
import { isPublicAddress, webhookUrlProblem } from "../../../lib/webhooks/url-guard";
import { startReceiver } from "../../helpers/receiver";

afterEach(() => {
  vi.unstubAllEnvs();
  resetConfigForTests();
});

const production = (allowPrivate = false) => {
  vi.stubEnv("NODE_ENV", "production");
  vi.stubEnv("WEBHOOKS_ALLOW_PRIVATE_URLS", allowPrivate ? "true" : "false");
  resetConfigForTests();
};

describe("webhook URL guard", () => {
  it("classifies addresses", () => {
    for (const ip of ["127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "::1", "fc00::1", "::ffff:127.0.0.1", "0.0.0.0", "::7f00:1", "64:ff9b::7f00:1", "64:ff9b:1::a00:1"]) {
      expect(isPublicAddress(ip), ip).toBe(false);
    }
    for (const ip of ["8.8.8.8", "2001:4860:4860::8888", "200.147.67.142"]) expect(isPublicAddress(ip), ip).toBe(true);
  });

  it("takes http to loopback in test mode but not in production", () => {
    expect(webhookUrlProblem("http://127.0.0.1:8080/x")).toBeNull();
    expect(webhookUrlProblem("http://example.com/x")).toMatch(/https/);
    production();
    // Production never takes plain http, so its message does not suggest that it might.
    expect(webhookUrlProblem("http://127.0.0.1:8080/x")).toMatch(/must use https/);
    expect(webhookUrlProblem("http://127.0.0.1:8080/x")).not.toMatch(/http is accepted|plain http/);
    expect(webhookUrlProblem("http://example.com/x")).not.toMatch(/plain http/);
    expect(webhookUrlProblem("https://example.com/x")).toBeNull();
    production(true);
    expect(webhookUrlProblem("http://127.0.0.1:8080/x")).toBeNull();
  });

  it("refuses to connect to a private address in production, resolving the host first", async () => {
    const r = await startReceiver();
    try {
      production();
      for (const url of [r.url, r.url.replace("127.0.0.1", "localhost")]) {
        const res = await postWebhook(url, {}, "{}", 2000);
        expect(res.statusCode).toBeNull();
        expect(res.error).toMatch(/non-public address/);
      }
      expect(r.received).toHaveLength(0);
      production(true);
      expect((await postWebhook(r.url, {}, "{}", 2000)).statusCode).toBe(200);
    } finally {
      await r.close();
    }
  });

  it("does not follow redirects", async () => {
    const r = await startReceiver(() => ({ status: 302 }));
    try {
      const res = await postWebhook(r.url, {}, "{}", 2000);
      expect(res.statusCode).toBe(302);
      expect(res.error).toMatch(/not followed/);
      expect(r.received).toHaveLength(1);
    } finally {
      await r.close();
    }
  });
});
