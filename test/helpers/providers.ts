import { createHmac } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import * as settingsRoute from "../../app/api/v1/settings/providers/route";
import * as receiverRoute from "../../app/api/webhooks/providers/[pathToken]/route";
import { getDb } from "../../db/client";
import { processProviderNotifications } from "../../lib/providers/process";
import type { TestTenant } from "./factories";
import { checkResponse } from "./contract";
import { call } from "./http";
import { pathTokenListener } from "./path-token-server";

export type TestProvider = { id: string; token: string; secret: string; receiverUrl: string };

export async function makeProvider(t: TestTenant, kind: "payment" | "esignature", extra: Record<string, unknown> = {}): Promise<TestProvider> {
  const r = await call(settingsRoute.POST, "POST", "/api/v1/settings/providers", { key: t.key, body: { kind, name: `${kind} provider`, ...extra } });
  if (r.status !== 201) throw new Error(`provider: ${r.status} ${JSON.stringify(r.body)}`);
  return { id: r.body.id, token: r.body.receiverUrl.split("/").pop(), secret: r.body.secret, receiverUrl: r.body.receiverUrl };
}

export const hmac = (secret: string, raw: string) => createHmac("sha256", secret).update(raw).digest("hex");

/** Posts to the receiver route with a real Request, signed like a provider (x-signature HMAC of the exact bytes). */
export async function notify(p: TestProvider, payload: unknown, opts: { raw?: string; headers?: Record<string, string>; unsigned?: boolean } = {}) {
  const raw = opts.raw ?? JSON.stringify(payload);
  const headers = { "content-type": "application/json", ...(opts.unsigned ? {} : { "x-signature": hmac(p.secret, raw) }), ...opts.headers };
  const url = `http://localhost/api/webhooks/providers/${p.token}`;
  const res = await receiverRoute.POST(new Request(url, { method: "POST", headers, body: raw }), { params: Promise.resolve({ pathToken: p.token }) });
  const text = await res.text();
  await checkResponse(receiverRoute.POST, { method: "POST", url, params: { pathToken: p.token } }, { status: res.status, headers: res.headers, text });
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

export async function processNotifications() {
  return processProviderNotifications(await getDb(), 1000);
}

/** The receiver route on a real HTTP server on 127.0.0.1, as production serves it; providers in tests post to it with fetch. */
export async function startReceiverServer(): Promise<{ url: string; close: () => Promise<void> }> {
  // One request per connection: a reused keep-alive socket the server is closing would be a flaky ECONNRESET.
  const server = http.createServer(pathTokenListener(receiverRoute.POST, { connection: "close" }));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** A provider posting over HTTP: the exact bytes it signs are the bytes it sends. */
export async function providerPost(base: string, p: TestProvider, payload: unknown, auth: "hmac" | "bearer" | "prefixed" = "hmac") {
  const raw = JSON.stringify(payload);
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (auth === "hmac") headers["x-signature"] = hmac(p.secret, raw);
  if (auth === "prefixed") headers["x-signature"] = `sha256=${hmac(p.secret, raw)}`;
  if (auth === "bearer") headers.authorization = `Bearer ${p.secret}`;
  const res = await fetch(`${base}/api/webhooks/providers/${p.token}`, { method: "POST", headers, body: raw });
  return { status: res.status, body: await res.json() };
}

export const boleto = (id: string, status: string, extra: Record<string, unknown> = {}) => ({
  event: {
    id: `evt-${id}-${status}`,
    subscription: "boleto",
    log: {
      type: "boleto",
      boleto: {
        id,
        status,
        amount: 15000,
        taxId: "012.345.678-90",
        name: "Ana Souza",
        due: "2026-12-10",
        paid: status === "paid" ? "2026-12-05T14:03:00Z" : null,
        ...extra,
      },
    },
  },
});
export const invoice = (id: string, status: string) => ({
  event: {
    log: { type: "invoice", invoice: { id, status, amount: 2500.5, name: "Rui", due: "2026-12-10", paid: status === "paid" ? "2026-12-06T10:00:00Z" : null } },
  },
});

export const esign = (event: string, envelope: string, extra: { signer?: string; document?: string; timestamp?: string } = {}) => ({
  event,
  data: {
    envelope: { key: envelope },
    document: { key: extra.document ?? `${envelope}-doc`, name: "Contrato assinado.pdf" },
    ...(extra.signer ? { signer: { key: extra.signer, name: `Signatário ${extra.signer}` } } : {}),
  },
  timestamp: extra.timestamp ?? new Date().toISOString(),
});
