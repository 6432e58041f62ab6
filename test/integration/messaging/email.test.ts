/**
 * E-mail channels end to end: created with SMTP settings (password sealed, never returned), real
 * MIME messages posted to the channel's webhook with its secret (plain, HTML-only, multipart with
 * an attachment, ISO-8859-1, a reply in a thread, inbound-parse JSON and forms), threaded into one
 * conversation per correspondent and thread, and replies and sends delivered to a real SMTP server
 * on 127.0.0.1 with the headers that thread them in the client.
 */
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as listRoute from "../../../app/api/v1/messaging/conversations/route";
import * as detailRoute from "../../../app/api/v1/messaging/conversations/detail/route";
import * as replyRoute from "../../../app/api/v1/messaging/reply/route";
import * as sendRoute from "../../../app/api/v1/messaging/send/route";
import * as channelsRoute from "../../../app/api/v1/settings/messaging-channels/route";
import * as channelRoute from "../../../app/api/v1/settings/messaging-channels/[id]/route";
import { getDb } from "../../../db/client";
import { events, messagingChannels, messagingConversations, messagingEmailMessages } from "../../../db/schema";
import { authenticateApiKey } from "../../../lib/auth/authenticate-key";
import { resetConfigForTests } from "../../../lib/config";
import { memberCtx } from "../../../lib/context/verb-context";
import { sendMessage } from "../../../lib/messaging/send/send-message";
import { startFakeSmtp, type FakeSmtp } from "../../fakes/smtp-server";
import { makeMember, makeTenant, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { makeListing } from "../../helpers/share";
import { makeEmailChannel, postWebhook, processNow, type TestChannel, type TestMember } from "../../helpers/messaging";

let smtp: FakeSmtp;
let t: TestTenant;
let other: TestTenant;
let ana: TestMember;
let ch: TestChannel;

beforeAll(async () => {
  smtp = await startFakeSmtp();
  t = await makeTenant();
  other = await makeTenant();
  ana = await makeMember(t, "broker");
  ch = await makeEmailChannel(t, smtp, { ownerId: ana.userId });
});
afterAll(() => smtp.close());

/** Posts a body to the channel's webhook as an inbound-parse service would. */
function postEmail(body: string | Buffer, opts: { type?: string; secret?: string | null; token?: string; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { "content-type": opts.type ?? "message/rfc822", ...opts.headers };
  if (opts.secret !== null) headers["x-webhook-secret"] = opts.secret ?? ch.secret;
  return postWebhook(opts.token ?? ch.token, { body: body as string, headers });
}

let seq = 0;
/** A real RFC 5322 message (CRLF line ends) with the given headers and body. */
function mime(o: { from?: string; subject?: string; id?: string; date?: Date; inReplyTo?: string; references?: string; headers?: string[]; body: string }) {
  const id = o.id ?? `<m${++seq}.${Date.now()}@cliente.example>`;
  // One second apart, in the past: the history orders by the Date header.
  const date = o.date ?? new Date(Date.now() - 600_000 + ++seq * 1000);
  return [
    `From: ${o.from ?? '"Carla Souza" <carla@cliente.example>'}`,
    "To: vendas@imobiliaria.test",
    `Subject: ${o.subject ?? "Apartamento na Vila Mariana"}`,
    `Date: ${date.toUTCString()}`,
    `Message-ID: ${id}`,
    ...(o.inReplyTo ? [`In-Reply-To: ${o.inReplyTo}`] : []),
    ...(o.references ? [`References: ${o.references}`] : []),
    "MIME-Version: 1.0",
    ...(o.headers ?? ['Content-Type: text/plain; charset="utf-8"', "Content-Transfer-Encoding: 8bit"]),
    "",
    o.body,
  ].join("\r\n");
}

const conversationOf = async (chatId: string) =>
  (
    await (
      await getDb()
    )
      .select()
      .from(messagingConversations)
      .where(and(eq(messagingConversations.channelId, ch.id), eq(messagingConversations.chatId, chatId)))
  )[0];
const storedOf = async (messageId: string) =>
  (
    await (
      await getDb()
    )
      .select()
      .from(messagingEmailMessages)
      .where(and(eq(messagingEmailMessages.channelId, ch.id), eq(messagingEmailMessages.messageId, messageId)))
  )[0];
const detail = (chatId: string, key = ana.key) => call(detailRoute.GET, "GET", "/x", { key, query: { channelId: ch.id, chatId } });

describe("e-mail channel settings", () => {
  it("keeps the SMTP password sealed, answers the address and SMTP host, and is connected after the login check", async () => {
    const res = await call(channelRoute.GET, "GET", "/x", { key: t.key, params: { id: ch.id } });
    expect(res.body).toMatchObject({
      transport: "email",
      provider: "smtp",
      connectionState: "connected",
      gatewayHost: `127.0.0.1:${smtp.port}`,
      email: { address: "vendas@imobiliaria.test", smtp: { host: "127.0.0.1", port: smtp.port, tls: "none", user: smtp.user } },
    });
    expect(JSON.stringify(res.body)).not.toContain(smtp.password);
    const [row] = await (await getDb()).select().from(messagingChannels).where(eq(messagingChannels.id, ch.id));
    expect(row.credentials).not.toContain(smtp.password);
  });

  it("a wrong SMTP password leaves the channel expired; bad settings are 400s naming the field", async () => {
    const bad = await makeEmailChannel(t, smtp, { smtp: { host: smtp.host, port: smtp.port, tls: "none", user: smtp.user, password: "wrong" } });
    expect((await call(channelRoute.GET, "GET", "/x", { key: t.key, params: { id: bad.id } })).body.connectionState).toBe("expired");
    const base = { name: "E-mail", transport: "email", address: "x@imobiliaria.test", smtp: { host: smtp.host, port: smtp.port, tls: "none" } };
    const cases: [unknown, string][] = [
      [{ ...base, address: "not-an-address" }, "address"],
      [{ ...base, smtp: { ...base.smtp, host: "smtp://x" } }, "smtp.host"],
      [{ ...base, smtp: { ...base.smtp, port: 70000 } }, "smtp.port"],
      [{ ...base, baseUrl: "https://x.example" }, "baseUrl"],
    ];
    for (const [body, field] of cases) {
      const res = await call(channelsRoute.POST, "POST", "/x", { key: t.key, body });
      expect(res.status, field).toBe(400);
      expect(JSON.stringify(res.body.error), field).toContain(field.split(".").pop());
    }
  });

  it("refuses tiktok and voip with a clear 400 until they have an adapter", async () => {
    for (const transport of ["tiktok", "voip"]) {
      const res = await call(channelsRoute.POST, "POST", "/x", { key: t.key, body: { name: "x", transport, provider: "waha" } });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: "transport_unsupported" });
      expect(res.body.error.message).toContain(transport);
    }
  });

  it("refuses a private SMTP host and a clear connection in production unless WEBHOOKS_ALLOW_PRIVATE_URLS=true", async () => {
    vi.stubEnv("NODE_ENV", "production");
    resetConfigForTests();
    try {
      const body = (smtpOver: Record<string, unknown>) => ({
        name: "E-mail",
        transport: "email",
        address: "x@imobiliaria.test",
        smtp: { host: "10.0.0.5", port: 587, tls: "starttls", ...smtpOver },
      });
      for (const over of [{}, { host: "localhost" }, { host: "smtp.example.com", tls: "none" }]) {
        const res = await call(channelsRoute.POST, "POST", "/x", { key: t.key, body: body(over) });
        expect(res.status, JSON.stringify(over)).toBe(400);
        expect(res.body.error.message).toMatch(/smtp\.(host|tls)/);
      }
    } finally {
      vi.unstubAllEnvs();
      resetConfigForTests();
    }
  });

  it("changes the SMTP settings on PATCH, keeping the password when it is left out; gateway fields are refused", async () => {
    const c = await makeEmailChannel(t, smtp);
    const res = await call(channelRoute.PATCH, "PATCH", "/x", {
      key: t.key,
      params: { id: c.id },
      body: { address: "Novo@Imobiliaria.test", smtp: { host: smtp.host, port: smtp.port, tls: "none", user: smtp.user } },
    });
    expect(res.status).toBe(200);
    expect(res.body.email.address).toBe("novo@imobiliaria.test");
    expect((await call(channelRoute.PATCH, "PATCH", "/x", { key: t.key, params: { id: c.id }, body: { apiKey: "x" } })).status).toBe(400);
  });
});

describe("inbound e-mail", () => {
  it("refuses a missing or wrong secret (401) and an unknown token (404), storing nothing", async () => {
    const db = await getDb();
    const before = (await db.select().from(messagingEmailMessages).where(eq(messagingEmailMessages.channelId, ch.id))).length;
    const body = mime({ body: "Olá" });
    expect((await postEmail(body, { secret: null })).status).toBe(401);
    expect((await postEmail(body, { secret: "wrong" })).status).toBe(401);
    expect((await postEmail(body, { secret: `${ch.secret}x` })).status).toBe(401);
    expect((await postEmail(body, { token: `msg_${"A".repeat(32)}` })).status).toBe(404);
    expect((await db.select().from(messagingEmailMessages).where(eq(messagingEmailMessages.channelId, ch.id))).length).toBe(before);
  });

  it("accepts the secret as a Bearer token or a Basic auth password", async () => {
    const bearer = await postEmail(mime({ body: "via bearer" }), { secret: null, headers: { authorization: `Bearer ${ch.secret}` } });
    expect(bearer.status).toBe(200);
    const basic = Buffer.from(`inbound:${ch.secret}`).toString("base64");
    expect((await postEmail(mime({ body: "via basic" }), { secret: null, headers: { authorization: `Basic ${basic}` } })).status).toBe(200);
  });

  it("malformed MIME, an e-mail without a sender, bad JSON and other types are 4xx, never 500", async () => {
    const cases: [string, string, number][] = [
      ["this is not an e-mail at all\r\n\r\njust words", "message/rfc822", 400],
      ["Subject: sem remetente\r\n\r\nOlá", "message/rfc822", 400],
      ["From: nobody\r\nSubject: x\r\n\r\nOlá", "message/rfc822", 400],
      ["", "message/rfc822", 400],
      ["{nope", "application/json", 400],
      ["[1,2]", "application/json", 400],
      ['{"Subject":"sem remetente"}', "application/json", 400],
      ["\u0000\u0001binary", "image/png", 415],
    ];
    for (const [body, type, status] of cases) {
      const res = await postEmail(body, { type });
      expect(res.status, body.slice(0, 30)).toBe(status);
      expect(res.body.error.message.length).toBeGreaterThan(10);
    }
  });

  it("answers 413 past 10 MB", async () => {
    const res = await postEmail(mime({ body: "x".repeat(10_000_100) }));
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe("payload_too_large");
  });

  it("stores a plain message before answering, trims quotes and signature from the preview, and raises one received event", async () => {
    const id = `<plain.${Date.now()}@cliente.example>`;
    const body = [
      "Bom dia! O apartamento ainda está disponível?",
      "Posso visitar no sábado.",
      "",
      "-- ",
      "Carla Souza",
      "Analista financeira",
      "",
      "Em seg., 10 de nov. de 2026 às 09:12, Vendas <vendas@imobiliaria.test> escreveu:",
      "> Segue o anúncio.",
    ].join("\r\n");
    const res = await postEmail(mime({ id, body }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, duplicate: false });
    const stored = await storedOf(id.slice(1, -1));
    expect(stored).toMatchObject({ correspondent: "carla@cliente.example", fromMe: false, subject: "Apartamento na Vila Mariana", senderName: "Carla Souza" });
    expect(stored.text).toBe("Bom dia! O apartamento ainda está disponível?\nPosso visitar no sábado.");
    expect(stored.chatId).toMatch(/^carla@cliente\.example#[0-9a-f]{12}$/);

    await processNow();
    expect(await conversationOf(stored.chatId)).toMatchObject({
      displayName: "Carla Souza",
      handleMasked: "c•••@cliente.example",
      lastPreview: "Bom dia! O apartamento ainda está disponível?\nPosso visitar no sábado.",
      unreadCount: 1,
      awaitingReply: true,
    });
    const evs = await (await getDb())
      .select()
      .from(events)
      .where(eq(events.entityId, id.slice(1, -1)));
    expect(evs).toHaveLength(1);
    expect(evs[0]).toMatchObject({ eventName: "channel.message.received" });
    expect(evs[0].data).toMatchObject({ channelId: ch.id, channelType: "email", chatId: stored.chatId, direction: "inbound", hasMedia: false });
    expect(JSON.stringify(evs[0].data)).not.toContain("Bom dia");

    // The same Message-ID again: the first id, nothing new.
    const again = await postEmail(mime({ id, body }));
    expect(again.body).toEqual({ ok: true, id: res.body.id, duplicate: true });
    await processNow();
    expect(
      await (await getDb())
        .select()
        .from(events)
        .where(eq(events.entityId, id.slice(1, -1))),
    ).toHaveLength(1);
    expect((await conversationOf(stored.chatId)).unreadCount).toBe(1);

    // The list shows it beside the other transports, with the e-mail transport.
    const list = await call(listRoute.GET, "GET", "/x", { key: ana.key, query: { transports: "email" } });
    const item = list.body.conversations.find((c: any) => c.key.chatId === stored.chatId);
    expect(item).toMatchObject({ channel: { transport: "email" }, participant: { displayName: "Carla Souza", handleMasked: "c•••@cliente.example" } });
  });

  it("reads an HTML-only message as text", async () => {
    const id = `<html.${Date.now()}@cliente.example>`;
    const html = "<html><head><style>p{color:red}</style></head><body><p>Quero <b>agendar</b> uma visita.</p><p>Obrigado&nbsp;&amp; até logo</p></body></html>";
    const res = await postEmail(mime({ id, from: "joao@cliente.example", headers: ['Content-Type: text/html; charset="utf-8"'], body: html }));
    expect(res.status).toBe(200);
    const stored = await storedOf(id.slice(1, -1));
    expect(stored.text).toContain("Quero agendar uma visita.");
    expect(stored.text).toContain("Obrigado & até logo");
    expect(stored.text).not.toContain("<");
    expect(stored.text).not.toContain("color");
  });

  it("keeps attachments of a multipart message as descriptors only", async () => {
    const id = `<att.${Date.now()}@cliente.example>`;
    const pdf = Buffer.from("%PDF-1.4 fake contract bytes").toString("base64");
    const body = [
      "--b1",
      'Content-Type: text/plain; charset="utf-8"',
      "",
      "Segue a proposta assinada.",
      "--b1",
      'Content-Type: application/pdf; name="proposta.pdf"',
      'Content-Disposition: attachment; filename="proposta.pdf"',
      "Content-Transfer-Encoding: base64",
      "",
      pdf,
      "--b1--",
      "",
    ].join("\r\n");
    const res = await postEmail(mime({ id, from: "pedro@cliente.example", headers: ['Content-Type: multipart/mixed; boundary="b1"'], body }));
    expect(res.status).toBe(200);
    const stored = await storedOf(id.slice(1, -1));
    expect(stored.media).toEqual([{ kind: "document", mimeType: "application/pdf", available: false }]);
    expect(stored.text).toBe("Segue a proposta assinada.");
    await processNow();
    const d = await detail(stored.chatId);
    expect(d.body.history.messages).toEqual([
      expect.objectContaining({
        id: id.slice(1, -1),
        direction: "inbound",
        text: "Segue a proposta assinada.",
        media: { kind: "document", mimeType: "application/pdf", available: false },
      }),
    ]);
    expect(JSON.stringify(d.body)).not.toContain(pdf);
  });

  it("decodes an ISO-8859-1 message", async () => {
    const id = `<latin1.${Date.now()}@cliente.example>`;
    const raw = Buffer.from(
      mime({
        id,
        from: "=?ISO-8859-1?Q?Jos=E9_Ara=FAjo?= <jose@cliente.example>",
        subject: "=?ISO-8859-1?Q?Im=F3vel_na_Sa=FAde?=",
        headers: ['Content-Type: text/plain; charset="ISO-8859-1"', "Content-Transfer-Encoding: 8bit"],
        body: "Olá, gostaria de saber o preço do imóvel. Atenção: só à tarde.",
      }),
      "latin1",
    );
    expect(raw.includes(Buffer.from("imóvel", "utf8"))).toBe(false);
    const res = await postEmail(raw);
    expect(res.status).toBe(200);
    expect(await storedOf(id.slice(1, -1))).toMatchObject({
      text: "Olá, gostaria de saber o preço do imóvel. Atenção: só à tarde.",
      senderName: "José Araújo",
      subject: "Imóvel na Saúde",
    });
  });

  it("threads replies by In-Reply-To/References (also out of order) and by a Re: subject, one conversation per correspondent and thread", async () => {
    const root = `<root.${Date.now()}@cliente.example>`;
    const from = "marina@cliente.example";
    await postEmail(mime({ id: root, from, subject: "Casa em Pinheiros", body: "Primeira mensagem" }));
    const r1 = `<r1.${Date.now()}@cliente.example>`;
    await postEmail(mime({ id: r1, from, subject: "Re: Casa em Pinheiros", inReplyTo: root, references: root, body: "Segunda" }));
    // A reply to a message we never saw, in the same thread: its References root names the thread.
    const r3 = `<r3.${Date.now()}@cliente.example>`;
    await postEmail(
      mime({ id: r3, from, subject: "Re: Casa em Pinheiros", inReplyTo: "<r2-missing@x>", references: `${root} <r2-missing@x>`, body: "Terceira" }),
    );
    // A client that dropped the headers: the subject keeps it in the thread.
    const r4 = `<r4.${Date.now()}@cliente.example>`;
    await postEmail(mime({ id: r4, from, subject: "RES: Casa em Pinheiros", body: "Quarta" }));
    // A new subject from the same person, and the same subject from someone else: other threads.
    const n1 = `<n1.${Date.now()}@cliente.example>`;
    await postEmail(mime({ id: n1, from, subject: "Outro assunto", body: "Outra conversa" }));
    const n2 = `<n2.${Date.now()}@cliente.example>`;
    await postEmail(mime({ id: n2, from: "outra@cliente.example", subject: "Re: Casa em Pinheiros", inReplyTo: root, body: "Outra pessoa" }));

    const chatOf = async (id: string) => (await storedOf(id.slice(1, -1))).chatId;
    const thread = await chatOf(root);
    expect([await chatOf(r1), await chatOf(r3), await chatOf(r4)]).toEqual([thread, thread, thread]);
    expect(await chatOf(n1)).not.toBe(thread);
    expect(await chatOf(n2)).not.toBe(thread);
    expect(await chatOf(n2)).toMatch(/^outra@cliente\.example#/);

    await processNow();
    expect(await conversationOf(thread)).toMatchObject({ unreadCount: 4, lastPreview: "Quarta" });
    const d = await detail(thread);
    expect(d.body.history.messages.map((m: any) => m.text)).toEqual(["Quarta", "Terceira", "Segunda", "Primeira mensagem"]);
  });

  it("accepts the JSON of inbound-parse services: Postmark fields, Mailgun fields and a raw message field", async () => {
    const pm = await postEmail(
      JSON.stringify({
        FromFull: { Email: "Lucia@Cliente.example", Name: "Lúcia" },
        Subject: "Interesse",
        TextBody: "Tenho interesse.\n\nOn Mon, Nov 10, 2026 at 9:00 AM Vendas wrote:\n> antigo",
        Headers: [{ Name: "Message-ID", Value: "<pm.1@cliente.example>" }],
        Attachments: [{ Name: "foto.jpg", ContentType: "image/jpeg", ContentLength: 1234, Content: "AAAA" }],
      }),
      { type: "application/json" },
    );
    expect(pm.status).toBe(200);
    expect(await storedOf("pm.1@cliente.example")).toMatchObject({
      correspondent: "lucia@cliente.example",
      senderName: "Lúcia",
      text: "Tenho interesse.",
      media: [{ kind: "image", mimeType: "image/jpeg", available: false }],
    });

    const mg = await postEmail(
      new URLSearchParams({
        sender: "rafa@cliente.example",
        from: "Rafa <rafa@cliente.example>",
        subject: "Visita",
        "body-plain": "Pode ser amanhã?",
        "Message-Id": "<mg.1@cliente.example>",
      }).toString(),
      { type: "application/x-www-form-urlencoded" },
    );
    expect(mg.status).toBe(200);
    expect(await storedOf("mg.1@cliente.example")).toMatchObject({ correspondent: "rafa@cliente.example", senderName: "Rafa", text: "Pode ser amanhã?" });

    const form = new FormData();
    form.set("email", mime({ id: "<sg.1@cliente.example>", from: "bia@cliente.example", body: "Enviado pelo SendGrid" }));
    const req = new Request("http://x", { method: "POST", body: form });
    const res = await postEmail(Buffer.from(await req.arrayBuffer()), { type: req.headers.get("content-type")! });
    expect(res.status).toBe(200);
    expect(await storedOf("sg.1@cliente.example")).toMatchObject({ correspondent: "bia@cliente.example", text: "Enviado pelo SendGrid" });
  });

  it("another tenant sees none of the channel's conversations", async () => {
    const mine = await call(listRoute.GET, "GET", "/x", { key: ana.key, query: { channelId: ch.id } });
    expect(mine.body.conversations.length).toBeGreaterThan(0);
    const otherMember = await makeMember(other, "owner");
    for (const key of [other.key, otherMember.key]) {
      const list = await call(listRoute.GET, "GET", "/x", { key, query: { channelId: ch.id } });
      expect(list.body.conversations).toEqual([]);
      const d = await detail(mine.body.conversations[0].key.chatId, key);
      expect(d.body).toMatchObject({ rejection: "not_found_or_inaccessible", history: null });
    }
  });
});

describe("sending e-mail", () => {
  const reply = (body: unknown, key = ana.key) => call(replyRoute.POST, "POST", "/x", { key, body });

  it("a reply goes through SMTP with In-Reply-To and References; the client's answer to it lands in the same conversation", async () => {
    const root = `<send.${Date.now()}@cliente.example>`;
    await postEmail(mime({ id: root, from: "paulo@cliente.example", subject: "Cobertura", body: "Qual o valor do condomínio?" }));
    await processNow();
    const chatId = (await storedOf(root.slice(1, -1))).chatId;
    const before = smtp.state.received.length;
    const res = await reply({ channelId: ch.id, chatId, body: { kind: "text", text: "O condomínio é R$ 1.200." }, idempotencyKey: `reply-${root}` });
    expect(res.body).toMatchObject({ status: "sent", reason: null, handle: "p•••@cliente.example" });
    expect(smtp.state.received.length).toBe(before + 1);
    const got = smtp.state.received.at(-1)!;
    expect(got.to).toEqual(["paulo@cliente.example"]);
    expect(got.parsed.subject).toBe("Re: Cobertura");
    expect(got.parsed.inReplyTo).toBe(root);
    expect(got.parsed.references).toBe(root);
    expect(got.parsed.messageId).toBe(`<${res.body.messageId}>`);
    expect(got.parsed.text?.trim()).toBe("O condomínio é R$ 1.200.");
    expect(got.parsed.from?.value[0]).toMatchObject({ address: "vendas@imobiliaria.test", name: "E-mail Vendas" });

    // The same key again sends nothing.
    const again = await reply({ channelId: ch.id, chatId, body: { kind: "text", text: "O condomínio é R$ 1.200." }, idempotencyKey: `reply-${root}` });
    expect(again.body).toMatchObject({ status: "sent", idempotent: true, messageId: res.body.messageId });
    expect(smtp.state.received.length).toBe(before + 1);

    const sent = await (await getDb())
      .select()
      .from(events)
      .where(and(eq(events.entityId, res.body.messageId), eq(events.eventName, "channel.message.sent")));
    expect(sent).toHaveLength(1);
    expect(sent[0].data).toMatchObject({ channelType: "email", direction: "outbound", chatId });
    expect(await conversationOf(chatId)).toMatchObject({ lastFromMe: true, awaitingReply: false, unreadCount: 0 });

    // The client answers our message (its References carry the root and our id).
    const back = `<back.${Date.now()}@cliente.example>`;
    await postEmail(
      mime({
        id: back,
        from: "paulo@cliente.example",
        subject: "Re: Cobertura",
        inReplyTo: `<${res.body.messageId}>`,
        references: `${root} <${res.body.messageId}>`,
        date: new Date(Date.now() + 2000),
        body: "Obrigado!",
      }),
    );
    expect((await storedOf(back.slice(1, -1))).chatId).toBe(chatId);
    await processNow();
    const d = await detail(chatId);
    expect(d.body.history.messages.map((m: any) => [m.direction, m.text, m.authorId])).toEqual([
      ["inbound", "Obrigado!", null],
      ["outbound", "O condomínio é R$ 1.200.", ana.userId],
      ["inbound", "Qual o valor do condomínio?", null],
    ]);
  });

  it("a proactive send opens a thread to a new address; the answer joins it; SMTP failures are acks, not errors", async () => {
    const send = (body: unknown) => call(sendRoute.POST, "POST", "/x", { key: ana.key, body });
    const res = await send({
      channelId: ch.id,
      chatId: "Novo.Cliente@Example.com",
      text: "Olá! Temos novidades.\nVeja abaixo.",
      idempotencyKey: "proactive-email-1",
    });
    expect(res.body).toMatchObject({ status: "sent", handle: "n•••@example.com" });
    const got = smtp.state.received.at(-1)!;
    expect(got.to).toEqual(["novo.cliente@example.com"]);
    expect(got.parsed.subject).toBe("Olá! Temos novidades.");
    expect(await conversationOf("novo.cliente@example.com")).toMatchObject({ lastFromMe: true });

    const back = `<pro.${Date.now()}@example.com>`;
    await postEmail(
      mime({
        id: back,
        from: "novo.cliente@example.com",
        subject: "Re: Olá! Temos novidades.",
        inReplyTo: `<${res.body.messageId}>`,
        body: "Quero saber mais",
      }),
    );
    expect((await storedOf(back.slice(1, -1))).chatId).toBe("novo.cliente@example.com");

    // Not an address on an e-mail channel: no conversation to open.
    expect((await send({ channelId: ch.id, chatId: "5511987654321@c.us", text: "x", idempotencyKey: "proactive-email-2" })).body).toMatchObject({
      status: "rejected",
      reason: "not_found_or_inaccessible",
    });

    smtp.state.switches.rejectData = true;
    try {
      const failed = await send({ channelId: ch.id, chatId: "outro@example.com", text: "Olá", idempotencyKey: "proactive-email-3" });
      expect(failed.body).toMatchObject({ status: "rejected", reason: "channel_unreachable" });
    } finally {
      smtp.state.switches.rejectData = false;
    }
    expect(await conversationOf("outro@example.com")).toBeUndefined();
  });

  it("an address on the tenant's opt-out list blocks replies and sends until it is removed", async () => {
    const optOuts = await import("../../../app/api/v1/settings/messaging/opt-outs/route");
    const added = await call(optOuts.POST, "POST", "/x", { key: t.key, body: { email: "Novo.Cliente@example.com", reason: "pediu" } });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ phone: null, email: "novo.cliente@example.com" });
    const before = smtp.state.received.length;
    const res = await reply({ channelId: ch.id, chatId: "novo.cliente@example.com", body: { kind: "text", text: "Oi" } });
    expect(res.body).toMatchObject({ status: "blocked", reason: "opt_out" });
    expect(smtp.state.received.length).toBe(before);
    expect((await call(optOuts.POST, "POST", "/x", { key: t.key, body: { email: "a@b.example", phone: "+5511987654321" } })).status).toBe(400);
    // Removing it opens the address again.
    expect((await call(optOuts.DELETE, "DELETE", "/x", { key: t.key, query: { email: "novo.cliente@example.com" } })).status).toBe(204);
    expect((await reply({ channelId: ch.id, chatId: "novo.cliente@example.com", body: { kind: "text", text: "Oi" } })).body).toMatchObject({ status: "sent" });
  });

  it("listing cards are one e-mail each, the second answering the first; each is kept in the history", async () => {
    const root = `<cards.${Date.now()}@cliente.example>`;
    await postEmail(mime({ id: root, from: "rita@cliente.example", subject: "Opções", body: "Tem casas?" }));
    await processNow();
    const chatId = (await storedOf(root.slice(1, -1))).chatId;
    const a = await makeListing(t, { title: "Casa com quintal", price: "750000.00" });
    const b = await makeListing(t, { title: "Sobrado na Lapa", price: "980000.00" });
    const before = smtp.state.received.length;
    const res = await reply({ channelId: ch.id, chatId, body: { kind: "listing_cards", listingIds: [a.id, b.id] } });
    expect(res.body).toMatchObject({ status: "sent" });
    const [first, second] = smtp.state.received.slice(before);
    expect(first.parsed.inReplyTo).toBe(root);
    expect(second.parsed.inReplyTo).toBe(first.parsed.messageId);
    expect(second.parsed.references).toEqual([root, first.parsed.messageId]);
    expect(second.parsed.subject).toBe("Re: Opções");
    for (const m of [first, second]) expect(await storedOf(m.parsed.messageId!.slice(1, -1))).toMatchObject({ chatId, fromMe: true });
  });

  it("a sent e-mail's history row is written with its record: when the record fails, no orphan row is left", async () => {
    const db = await getDb();
    // A database refusal after SMTP took the message: the sent record's insert fails for this chat.
    await db.execute(
      sql.raw(`create function refuse_sent() returns trigger language plpgsql as $$
        begin if new.chat_id = 'falha@cliente.example' then raise exception 'refused by the test'; end if; return new; end $$`),
    );
    await db.execute(sql.raw("create trigger refuse_sent before insert on messaging_sent_messages for each row execute function refuse_sent()"));
    try {
      const ctx = memberCtx(db, await authenticateApiKey(db, ana.key));
      const before = smtp.state.received.length;
      await expect(
        sendMessage(ctx, { mode: "send", channelId: ch.id, chatId: "falha@cliente.example", content: { kind: "text", text: "Olá" } }),
      ).rejects.toThrow(/messaging_sent_messages/);
      expect(smtp.state.received.length).toBe(before + 1);
      const id = smtp.state.received.at(-1)!.parsed.messageId!.slice(1, -1);
      expect(await storedOf(id)).toBeUndefined();
      expect(await conversationOf("falha@cliente.example")).toBeUndefined();
    } finally {
      await db.execute(sql.raw("drop trigger refuse_sent on messaging_sent_messages"));
      await db.execute(sql.raw("drop function refuse_sent()"));
    }
    // The same send once the record can be written: row and record together.
    const ok = await call(sendRoute.POST, "POST", "/x", {
      key: ana.key,
      body: { channelId: ch.id, chatId: "falha@cliente.example", text: "Olá de novo", idempotencyKey: "email-record-ok" },
    });
    expect(ok.body).toMatchObject({ status: "sent" });
    expect(await storedOf(ok.body.messageId)).toMatchObject({ fromMe: true, text: "Olá de novo" });
    expect(await conversationOf("falha@cliente.example")).toMatchObject({ lastMessageId: ok.body.messageId });
  });

  it("a member without access to the channel cannot reply", async () => {
    const bruno = await makeMember(t, "broker");
    const res = await reply({ channelId: ch.id, chatId: "novo.cliente@example.com", body: { kind: "text", text: "x" } }, bruno.key);
    expect(res.body).toMatchObject({ status: "forbidden" });
  });
});
