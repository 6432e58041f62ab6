import { afterEach, describe, expect, it, vi } from "vitest";
import { resetConfigForTests } from "../../../lib/config";
import { webhookUrlProblem } from "../../../lib/event-delivery/webhook-url";

afterEach(() => {
  vi.unstubAllEnvs();
  resetConfigForTests();
});

const production = (allowPrivate = false) => {
  vi.stubEnv("NODE_ENV", "production");
  vi.stubEnv("WEBHOOKS_ALLOW_PRIVATE_URLS", allowPrivate ? "true" : "false");
  resetConfigForTests();
};

describe("webhook URL form", () => {
  it("takes http to loopback in test mode but not in production", () => {
    expect(webhookUrlProblem("http://127.0.0.1:8080/x")).toBeNull();
    expect(webhookUrlProblem("http://localhost:8080/x")).toBeNull();
    expect(webhookUrlProblem("http://[::ffff:127.0.0.1]:8080/x")).toBeNull();
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

  it("refuses credentials and non-URLs", () => {
    expect(webhookUrlProblem("https://user:pw@example.com/x")).toMatch(/credentials/);
    expect(webhookUrlProblem("not a url")).toMatch(/absolute URL/);
  });
});
