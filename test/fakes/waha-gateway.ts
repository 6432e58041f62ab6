import { createHmac, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A real HTTP server on 127.0.0.1 that behaves like a WAHA gateway (WhatsApp HTTP API): session
 * status, chats with paged message history (`filter.timestamp.lte` inclusive, whole seconds,
 * newest first), `POST /api/sendText`, labels, `@lid` lookups, and signed webhooks. Switches make it
 * slow (`delayMs`), hang (`hang`), fail (`failStatus`) or answer empty history (`emptyHistory`).
 * Used by the tests and startable by hand (`npm run fake:gateway`, see the README).
 */
export type FakeMessage = {
  id: string;
  timestamp: number;
  fromMe: boolean;
  body: string;
  from: string;
  to: string;
  pushName?: string;
  hasMedia?: boolean;
  media?: { url: string; mimetype: string } | null;
};

export type FakeWahaOptions = {
  apiKey?: string;
  session?: string;
  port?: number;
  host?: string;
  /**
   * The server's keep-alive (its `Keep-Alive: timeout` hint). undici drops a connection after each
   * request when the hint is at most its 2 s threshold, so at the default 1 s every call opens a new
   * connection; benchmarks pass Node's default 5 s, which a real gateway (a Node server) answers.
   */
  keepAliveMs?: number;
};

export async function startFakeWaha(opts: FakeWahaOptions = {}) {
  const apiKey = opts.apiKey ?? "waha-test-key";
  const session = opts.session ?? "default";
  const state = {
    status: "WORKING",
    chats: new Map<string, FakeMessage[]>(),
    labels: new Map<string, { id: string; name: string; color: number; colorHex: string }>(),
    chatLabels: new Map<string, string[]>(),
    lids: new Map<string, string>(),
    sent: [] as { chatId: string; text: string }[],
    requests: [] as { method: string; path: string }[],
    switches: { delayMs: 0, hang: false, failStatus: 0, emptyHistory: false, failTimes: 0 },
  };
  let n = 0;
  const me = "5511900000000@c.us";

  function addMessage(chatId: string, m: Partial<FakeMessage> & { body: string }): FakeMessage {
    const msg: FakeMessage = {
      id: m.id ?? `${m.fromMe ? "true" : "false"}_${chatId}_${(++n).toString(16).padStart(8, "0")}${randomBytes(4).toString("hex")}`,
      timestamp: m.timestamp ?? Math.floor(Date.now() / 1000),
      fromMe: m.fromMe ?? false,
      body: m.body,
      from: m.fromMe ? me : chatId,
      to: m.fromMe ? chatId : me,
      pushName: m.pushName,
      hasMedia: m.hasMedia ?? false,
      media: m.media ?? null,
    };
    const list = state.chats.get(chatId) ?? [];
    list.push(msg);
    state.chats.set(chatId, list);
    return msg;
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://x");
      state.requests.push({ method: req.method ?? "GET", path: url.pathname });
      const answer = (status: number, body: unknown) => {
        if (!res.destroyed) res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
      };
      const act = () => {
        if (req.headers["x-api-key"] !== apiKey) return answer(401, { message: "Unauthorized" });
        if (state.switches.failTimes > 0) {
          state.switches.failTimes--;
          return answer(502, { message: "Bad gateway (fake, failTimes)" });
        }
        if (state.switches.failStatus) return answer(state.switches.failStatus, { message: "fake failure" });
        route(req.method ?? "GET", url, Buffer.concat(chunks).toString("utf8"), answer);
      };
      if (state.switches.hang) return; // never answers: the client's budget must end the wait
      if (state.switches.delayMs) setTimeout(act, state.switches.delayMs).unref();
      else act();
    });
  });

  function route(method: string, url: URL, raw: string, answer: (s: number, b: unknown) => void) {
    const parts = url.pathname.split("/").slice(1).map(decodeURIComponent);
    const body = raw ? JSON.parse(raw) : {};
    // GET /api/sessions/{session}
    if (method === "GET" && parts[0] === "api" && parts[1] === "sessions" && parts.length === 3) {
      return parts[2] === session ? answer(200, { name: session, status: state.status }) : answer(404, { message: "no session" });
    }
    if (method === "POST" && url.pathname === "/api/sendText") {
      if (body.session !== session) return answer(404, { message: "no session" });
      const msg = addMessage(body.chatId, { body: body.text, fromMe: true });
      state.sent.push({ chatId: body.chatId, text: body.text });
      return answer(201, { id: msg.id, timestamp: msg.timestamp });
    }
    if (parts[0] !== "api" || parts[1] !== session) return answer(404, { message: "not found" });
    const rest = parts.slice(2);
    // GET /api/{session}/chats/{chatId}/messages
    if (method === "GET" && rest[0] === "chats" && rest[2] === "messages" && rest.length === 3) {
      if (state.switches.emptyHistory) return answer(200, []);
      const limit = Number(url.searchParams.get("limit") ?? 100);
      const lte = url.searchParams.get("filter.timestamp.lte");
      const list = (state.chats.get(rest[1]) ?? [])
        .filter((m) => lte === null || m.timestamp <= Number(lte))
        .sort((a, b) => b.timestamp - a.timestamp || (a.id < b.id ? 1 : -1))
        .slice(0, limit);
      return answer(
        200,
        list.map((m) => ({ ...m, _data: { notifyName: m.pushName } })),
      );
    }
    if (rest[0] === "labels") {
      if (method === "GET" && rest.length === 1) return answer(200, [...state.labels.values()]);
      if (method === "POST" && rest.length === 1) {
        const id = String(state.labels.size + 1);
        const label = { id, name: String(body.name), color: 0, colorHex: String(body.colorHex ?? "#ff9485") };
        state.labels.set(id, label);
        return answer(201, label);
      }
      if (method === "DELETE" && rest.length === 2) return answer(state.labels.delete(rest[1]) ? 200 : 404, {});
      if (rest[1] === "chats" && rest.length === 3) {
        if (method === "GET") return answer(200, (state.chatLabels.get(rest[2]) ?? []).map((id) => state.labels.get(id)).filter(Boolean));
        if (method === "PUT") {
          state.chatLabels.set(
            rest[2],
            (body.labels ?? []).map((l: { id: string }) => String(l.id)),
          );
          return answer(200, {});
        }
      }
    }
    if (method === "GET" && rest[0] === "lids" && rest[1] === "pn" && rest.length === 3) {
      const lid = [...state.lids.entries()].find(([, pn]) => pn === `${rest[2]}@c.us`)?.[0];
      return answer(200, { lid: lid ?? null, pn: `${rest[2]}@c.us` });
    }
    if (method === "GET" && rest[0] === "lids" && rest.length === 2) {
      const pn = state.lids.get(rest[1]);
      return answer(200, { lid: rest[1], pn: pn ?? null });
    }
    return answer(404, { message: "not found" });
  }

  server.keepAliveTimeout = opts.keepAliveMs ?? 1000;
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, opts.host ?? "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  /** A webhook exactly as WAHA posts it: `{event, session, payload}` signed with HMAC-SHA512. */
  function webhook(secret: string, event: string, payload: Record<string, unknown>) {
    const body = JSON.stringify({ id: `evt_${randomBytes(8).toString("hex")}`, timestamp: Date.now(), event, session, engine: "WEBJS", payload });
    return {
      body,
      headers: {
        "content-type": "application/json",
        "x-webhook-hmac": createHmac("sha512", secret).update(body).digest("hex"),
        "x-webhook-hmac-algorithm": "sha512",
      } as Record<string, string>,
    };
  }

  /** An inbound message: stored in the chat's history and returned as its `message` webhook. */
  function inbound(secret: string, chatId: string, text: string, extra: Partial<FakeMessage> = {}) {
    const msg = addMessage(chatId, { body: text, fromMe: false, ...extra });
    return { msg, ...webhook(secret, "message", { ...msg, _data: { notifyName: msg.pushName } }) };
  }

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    apiKey,
    session,
    state,
    addMessage,
    webhook,
    inbound,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type FakeWaha = Awaited<ReturnType<typeof startFakeWaha>>;
