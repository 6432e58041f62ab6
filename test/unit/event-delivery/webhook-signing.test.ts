import { describe, expect, it } from "vitest";
import { signPayload } from "../../../lib/event-delivery/sign";
import { verifyWebhook } from "../../../lib/event-delivery/verify";

// Fixed vector, computed independently (it is also Stripe's v1 scheme with the same inputs).
const SECRET = "whsec_test_secret_123";
const TS = "1700000000";
const BODY = '{"event":"lead.created","id":"evt_1"}';
const SIG = "sha256=d8333423b1851694745fbd72974280920f1f712ff8ff83e5f52f988bf2f2ccbc";

describe("signing and verifying", () => {
  it("matches the fixed vector", () => {
    expect(signPayload(SECRET, TS, BODY)).toBe(SIG);
  });

  it("accepts within 5 minutes either way and refuses outside", () => {
    const base = { secret: SECRET, body: BODY, timestamp: TS, signature: SIG };
    expect(verifyWebhook({ ...base, nowSeconds: 1700000000 + 300 })).toEqual({ ok: true });
    expect(verifyWebhook({ ...base, nowSeconds: 1700000000 - 300 })).toEqual({ ok: true });
    expect(verifyWebhook({ ...base, nowSeconds: 1700000000 + 301 })).toEqual({ ok: false, reason: "stale_timestamp" });
    expect(verifyWebhook({ ...base, nowSeconds: 1700000000 - 301 })).toEqual({ ok: false, reason: "stale_timestamp" });
  });

  it("refuses a tampered body, a wrong secret, a bad prefix, a truncated signature and missing headers", () => {
    const base = { secret: SECRET, body: BODY, timestamp: TS, signature: SIG, nowSeconds: 1700000000 };
    expect(verifyWebhook({ ...base, body: BODY.replace("1", "2") }).ok).toBe(false);
    expect(verifyWebhook({ ...base, secret: "other" }).ok).toBe(false);
    expect(verifyWebhook({ ...base, signature: SIG.replace("sha256=", "sha1=") }).ok).toBe(false);
    expect(verifyWebhook({ ...base, signature: SIG.slice(0, 20) }).ok).toBe(false);
    expect(verifyWebhook({ ...base, signature: undefined })).toEqual({ ok: false, reason: "missing_headers" });
    expect(verifyWebhook({ ...base, timestamp: "12abc" })).toEqual({ ok: false, reason: "bad_timestamp" });
  });
});
