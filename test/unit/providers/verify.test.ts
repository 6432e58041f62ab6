import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { parseNotification } from "../../../lib/providers/payloads";
import { verifyProviderRequest } from "../../../lib/providers/verify";

const secret = "prvsec_test";
const raw = Buffer.from('{"event":"sign","data":{"envelope":{"key":"e1"},"signer":{"key":"s1"}}}');
const sig = createHmac("sha256", secret).update(raw).digest("hex");
const h = (o: Record<string, string>) => new Headers(o);

describe("verifyProviderRequest", () => {
  it("accepts the hex HMAC of the exact bytes, with or without sha256=, in any case, in the configured header", () => {
    expect(verifyProviderRequest(secret, "x-signature", h({ "x-signature": sig }), raw)).toBe(true);
    expect(verifyProviderRequest(secret, "x-signature", h({ "x-signature": `sha256=${sig}` }), raw)).toBe(true);
    expect(verifyProviderRequest(secret, "x-signature", h({ "x-signature": `SHA256=${sig.toUpperCase()}` }), raw)).toBe(true);
    expect(verifyProviderRequest(secret, "x-custom", h({ "x-custom": sig }), raw)).toBe(true);
    expect(verifyProviderRequest(secret, "x-custom", h({ "x-signature": sig }), raw)).toBe(false);
  });

  it("refuses another body, another secret, a truncated or missing signature", () => {
    expect(verifyProviderRequest(secret, "x-signature", h({ "x-signature": sig }), Buffer.concat([raw, Buffer.from(" ")]))).toBe(false);
    expect(verifyProviderRequest("other", "x-signature", h({ "x-signature": sig }), raw)).toBe(false);
    expect(verifyProviderRequest(secret, "x-signature", h({ "x-signature": sig.slice(0, 40) }), raw)).toBe(false);
    expect(verifyProviderRequest(secret, "x-signature", h({}), raw)).toBe(false);
  });

  it("accepts Authorization: Bearer <secret> and nothing close to it", () => {
    expect(verifyProviderRequest(secret, "x-signature", h({ authorization: `Bearer ${secret}` }), raw)).toBe(true);
    expect(verifyProviderRequest(secret, "x-signature", h({ authorization: `Bearer ${secret}x` }), raw)).toBe(false);
    expect(verifyProviderRequest(secret, "x-signature", h({ authorization: `Basic ${secret}` }), raw)).toBe(false);
  });
});

describe("parseNotification", () => {
  it("names what a payment or e-signature notification is about", () => {
    const p = parseNotification("payment", { event: { log: { type: "invoice", invoice: { id: 42, status: "PAID", amount: 10 } } } });
    expect(p).toMatchObject({ event: "invoice.paid", subjectKey: "invoice:42" });
    const e = parseNotification("esignature", JSON.parse(raw.toString()));
    expect(e).toMatchObject({ event: "sign", subjectKey: "envelope:e1/signer:s1" });
    expect(parseNotification("esignature", { event: "document_closed", data: { document: { key: "d1" } } }).subjectKey).toBe("document:d1");
  });

  it("refuses payloads without what matching needs", () => {
    expect(() => parseNotification("payment", { event: { log: { type: "boleto", invoice: { id: "1", status: "paid" } } } })).toThrow();
    expect(() => parseNotification("payment", { event: "boleto" })).toThrow();
    expect(() => parseNotification("esignature", { event: "refusal", data: { envelope: { key: "e" } } })).toThrow();
    expect(() => parseNotification("esignature", { event: "cancel", data: {} })).toThrow();
  });
});
