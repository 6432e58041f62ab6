/**
 * The WhatsApp Cloud channel's status check reads the phone number's `status` from the Graph API
 * (a real HTTP server on 127.0.0.1 standing in for it) instead of calling any answer "connected".
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cloudAdapter } from "../../../lib/messaging/providers/whatsapp-cloud";
import { startFakeCloud, type FakeCloud } from "../../fakes/cloud-gateway";

let cloud: FakeCloud;
beforeAll(async () => {
  cloud = await startFakeCloud();
});
afterAll(async () => {
  await cloud.close();
});

const status = (apiKey = cloud.token) => cloudAdapter(cloud.url, { apiKey, sessionName: cloud.phoneNumberId }).status(AbortSignal.timeout(2000));

describe("WhatsApp Cloud status", () => {
  it.each([
    ["CONNECTED", "connected"],
    ["FLAGGED", "connected"],
    ["PENDING", "awaiting_auth"],
    ["UNVERIFIED", "awaiting_auth"],
    ["BANNED", "error"],
    ["RESTRICTED", "error"],
    ["DISCONNECTED", "error"],
    ["MIGRATED", "error"],
    [null, "connected"],
  ])("the number's status %s is %s", async (phoneStatus, expected) => {
    cloud.state.switches.phoneStatus = phoneStatus;
    expect(await status()).toBe(expected);
  });

  it("an expired or revoked token (401) is `expired`; a 403 or a failing gateway throws (the caller records `error`)", async () => {
    cloud.state.switches.phoneStatus = "CONNECTED";
    expect(await status("revoked-token")).toBe("expired");
    try {
      for (const failure of [500, 403]) {
        // A failing gateway, or a permission the token lacks (a new token would not help), throws.
        cloud.state.switches.failStatus = failure;
        await expect(status()).rejects.toThrow();
      }
    } finally {
      cloud.state.switches.failStatus = 0;
    }
  });
});
