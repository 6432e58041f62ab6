import { createHmac, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A real HTTP server on 127.0.0.1 that behaves like Meta's Graph API for one Page or Instagram
 * account: `GET /{accountId}?fields=id,name` (the status check) and the Send API
 * `POST /{accountId}/messages` (`{recipient:{id}, messaging_type, message:{text}}` →
 * `{recipient_id, message_id}`), Bearer token auth (401 code 190 otherwise), and signed webhooks
 * (`X-Hub-Signature-256`) for Messenger (`object: "page"`) and Instagram (`object: "instagram"`).
 * Switches: `failStatus`.
 */
export async function startFakeGraph(opts: { token?: string; accountId?: string; object?: "page" | "instagram" } = {}) {
  const token = opts.token ?? "graph-page-token";
  const accountId = opts.accountId ?? "17841400000000001";
  const object = opts.object ?? "instagram";
  const state = {
    sent: [] as { recipient: string; messagingType: string; text: string }[],
    switches: { failStatus: 0 },
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const answer = (status: number, body: unknown) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
      if (req.headers.authorization !== `Bearer ${token}`)
        return answer(401, { error: { message: "Invalid OAuth access token.", type: "OAuthException", code: 190 } });
      if (state.switches.failStatus) return answer(state.switches.failStatus, { error: { message: "fake failure" } });
      const url = new URL(req.url ?? "/", "http://x");
      const path = url.pathname.split("/").filter(Boolean).map(decodeURIComponent);
      if (path[0] !== accountId) return answer(404, { error: { message: "Unsupported get request.", code: 100 } });
      if (req.method === "GET" && path.length === 1) return answer(200, { id: accountId, name: "Imobiliária Teste" });
      if (req.method === "POST" && path[1] === "messages" && path.length === 2) {
        let b: any;
        try {
          b = JSON.parse(Buffer.concat(chunks).toString("utf8"));
        } catch {
          return answer(400, { error: { message: "bad json" } });
        }
        if (typeof b?.recipient?.id !== "string" || typeof b?.message?.text !== "string")
          return answer(400, { error: { message: "(#100) bad request", code: 100 } });
        state.sent.push({ recipient: b.recipient.id, messagingType: b.messaging_type, text: b.message.text });
        return answer(200, { recipient_id: b.recipient.id, message_id: `m_${randomBytes(16).toString("base64url")}` });
      }
      return answer(404, { error: { message: "Unknown path" } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  const sign = (secret: string, body: string) => ({
    "content-type": "application/json",
    "x-hub-signature-256": `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`,
  });

  /** A direct message from `senderId` as Meta posts it (or our echo, with `echo`), signed with the secret. */
  function inbound(secret: string, senderId: string, message: { text?: string; attachments?: { type: string; payload: { url: string } }[]; echo?: boolean }) {
    const mid = `m_${randomBytes(16).toString("base64url")}`;
    const [sender, recipient] = message.echo ? [accountId, senderId] : [senderId, accountId];
    const body = JSON.stringify({
      object,
      entry: [
        {
          id: accountId,
          time: Date.now(),
          messaging: [
            {
              sender: { id: sender },
              recipient: { id: recipient },
              timestamp: Date.now(),
              message: {
                mid,
                ...(message.text ? { text: message.text } : {}),
                ...(message.attachments ? { attachments: message.attachments } : {}),
                ...(message.echo ? { is_echo: true } : {}),
              },
            },
          ],
        },
      ],
    });
    return { mid, body, headers: sign(secret, body) };
  }

  /** A delivery receipt: no message, stored only. */
  function delivery(secret: string, senderId: string) {
    const body = JSON.stringify({
      object,
      entry: [
        {
          id: accountId,
          time: Date.now(),
          messaging: [{ sender: { id: senderId }, recipient: { id: accountId }, delivery: { mids: ["m_x"], watermark: Date.now() } }],
        },
      ],
    });
    return { body, headers: sign(secret, body) };
  }

  return {
    url: `http://127.0.0.1:${port}`,
    token,
    accountId,
    state,
    inbound,
    delivery,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type FakeGraph = Awaited<ReturnType<typeof startFakeGraph>>;
