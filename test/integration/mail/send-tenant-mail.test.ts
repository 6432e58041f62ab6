/**
 * The service's transactional mail: through the tenant's e-mail channel when it has one (its SMTP
 * server, its address), else through SMTP_URL from MAIL_FROM, as the tenant's brand; real SMTP
 * servers on 127.0.0.1 receive the messages, headers and attachments.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../../db/client";
import { resetConfigForTests } from "../../../lib/config";
import { MailNotConfiguredError, sendTenantMail } from "../../../lib/mail/send-tenant-mail";
import { GatewayError } from "../../../lib/messaging/providers/gateway-http";
import { startFakeSmtp, type FakeSmtp } from "../../fakes/smtp-server";
import { makeTenant, type TestTenant } from "../../helpers/factories";
import { makeEmailChannel } from "../../helpers/messaging";

let service: FakeSmtp;
let own: FakeSmtp;
let plain: TestTenant;
let withChannel: TestTenant;

const setEnv = (vars: Record<string, string | undefined>) => {
  for (const [k, v] of Object.entries(vars)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetConfigForTests();
};

beforeAll(async () => {
  service = await startFakeSmtp({ user: "service", password: "service-pass" });
  own = await startFakeSmtp();
  plain = await makeTenant("Imobiliária Sol");
  withChannel = await makeTenant("Imobiliária Lua");
  await makeEmailChannel(withChannel, own, { mock: false });
});
afterAll(async () => {
  setEnv({ SMTP_URL: undefined, MAIL_FROM: undefined });
  await Promise.all([service.close(), own.close()]);
});
afterEach(() => {
  service.state.switches.rejectData = false;
  service.state.switches.hang = false;
});

const serviceUrl = () => `smtp://service:service-pass@${service.host}:${service.port}`;

describe("sendTenantMail", () => {
  it("without a channel nor SMTP_URL, says mail is not configured", async () => {
    setEnv({ SMTP_URL: undefined, MAIL_FROM: undefined });
    await expect(sendTenantMail(await getDb(), plain.tenantId, { to: "ana@cliente.test", subject: "x", text: "x" })).rejects.toBeInstanceOf(
      MailNotConfiguredError,
    );
  });

  it("sends through SMTP_URL from MAIL_FROM with the brand's name, headers, HTML and an attachment", async () => {
    setEnv({ SMTP_URL: serviceUrl(), MAIL_FROM: "alertas@crm.test" });
    const before = service.state.received.length;
    const sent = await sendTenantMail(await getDb(), plain.tenantId, {
      to: "ana@cliente.test",
      subject: "Visita confirmada",
      text: "Sua visita está confirmada.",
      html: "<p>Sua visita está <b>confirmada</b>.</p>",
      headers: { "List-Unsubscribe": "<https://site.test/alertas/sair/abc>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
      attachments: [{ filename: "visita.ics", content: "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n", contentType: "text/calendar; method=REQUEST" }],
    });
    expect(sent.via).toBe("service");
    expect(service.state.received.length).toBe(before + 1);
    const got = service.state.received.at(-1)!;
    expect(got.to).toEqual(["ana@cliente.test"]);
    expect(got.from).toBe("alertas@crm.test");
    expect(got.parsed.from?.value[0]).toEqual({ name: "Imobiliária Sol", address: "alertas@crm.test" });
    expect(got.parsed.subject).toBe("Visita confirmada");
    expect(got.parsed.text?.trim()).toBe("Sua visita está confirmada.");
    expect(got.parsed.html).toContain("<b>confirmada</b>");
    expect(String(got.raw)).toContain("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
    expect(String(got.raw)).toContain("List-Unsubscribe: <https://site.test/alertas/sair/abc>");
    expect(got.parsed.attachments.map((a) => [a.filename, a.contentType])).toEqual([["visita.ics", "text/calendar"]]);
    expect(got.parsed.messageId).toBe(sent.messageId);
  });

  it("sends a burst through SMTP_URL over a few pooled connections, closed once the burst is over", async () => {
    setEnv({ SMTP_URL: serviceUrl(), MAIL_FROM: "alertas@crm.test" });
    const [before, connections] = [service.state.received.length, service.state.connections.total];
    const db = await getDb();
    const sent = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        sendTenantMail(db, plain.tenantId, { to: `comprador-${i}@cliente.test`, subject: `Alerta ${i}`, text: "Novos imóveis" }),
      ),
    );
    expect(new Set(sent.map((s) => s.messageId)).size).toBe(40);
    expect(
      service.state.received
        .slice(before)
        .map((m) => m.to[0])
        .sort(),
    ).toEqual(Array.from({ length: 40 }, (_, i) => `comprador-${i}@cliente.test`).sort());
    // Fewer connections than messages: the pool's (at most 8), not one per message.
    const opened = service.state.connections.total - connections;
    expect(opened).toBeGreaterThan(0);
    expect(opened).toBeLessThanOrEqual(8);
    // Idle for a second, the pool lets its connections go.
    await expect.poll(() => service.state.connections.open, { timeout: 5000 }).toBe(0);
  });

  it("prefers the tenant's own e-mail channel: its server and address", async () => {
    setEnv({ SMTP_URL: serviceUrl(), MAIL_FROM: undefined });
    const [ownBefore, serviceBefore] = [own.state.received.length, service.state.received.length];
    const sent = await sendTenantMail(await getDb(), withChannel.tenantId, { to: "bia@cliente.test", subject: "Olá", text: "Oi" });
    expect(sent).toMatchObject({ via: "channel", from: "vendas@imobiliaria.test" });
    expect(own.state.received.length).toBe(ownBefore + 1);
    expect(service.state.received.length).toBe(serviceBefore);
    expect(own.state.received.at(-1)!.parsed.from?.value[0]).toEqual({ name: "Imobiliária Lua", address: "vendas@imobiliaria.test" });
  });

  it("a refusal of the server is a GatewayError naming its answer", async () => {
    setEnv({ SMTP_URL: serviceUrl() });
    service.state.switches.rejectData = true;
    const err = await sendTenantMail(await getDb(), plain.tenantId, { to: "ana@cliente.test", subject: "x", text: "x" }).catch((e) => e);
    expect(err).toBeInstanceOf(GatewayError);
    expect(err).toMatchObject({ kind: "http", status: 554 });
  });

  it("a server that never answers is a timeout within MESSAGING_SEND_TIMEOUT_MS, and the next message goes through", async () => {
    setEnv({ SMTP_URL: serviceUrl(), MESSAGING_SEND_TIMEOUT_MS: "300" });
    try {
      service.state.switches.hang = true;
      const started = performance.now();
      const err = await sendTenantMail(await getDb(), plain.tenantId, { to: "ana@cliente.test", subject: "x", text: "x" }).catch((e) => e);
      expect(err).toMatchObject({ kind: "timeout" });
      expect(performance.now() - started).toBeLessThan(3000);
      service.state.switches.hang = false;
      const sent = await sendTenantMail(await getDb(), plain.tenantId, { to: "bia@cliente.test", subject: "y", text: "y" });
      expect(sent.via).toBe("service");
      expect(service.state.received.at(-1)?.to).toEqual(["bia@cliente.test"]);
    } finally {
      setEnv({ MESSAGING_SEND_TIMEOUT_MS: undefined });
    }
  });
});
