import { createHmac, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A real HTTP server on 127.0.0.1 that behaves like the WhatsApp Cloud API (Graph API) for one
 * phone number id: `GET /{phoneNumberId}?fields=status` (the channel's status check) and `POST
 * /{phoneNumberId}/messages` (`type` `text` or `template`), Bearer token auth, and signed webhooks
 * (`X-Hub-Signature-256`). Switches: `delayMs`, `hang`, `failStatus`. The Cloud API keeps no
 * readable history, so there is none here.
 */
export async function startFakeCloud(opts: { token?: string; phoneNumberId?: string; port?: number } = {}) {
  const token = opts.token ?? "cloud-test-token";
  const phoneNumberId = opts.phoneNumberId ?? "109876543210";
  const state = {
    sent: [] as { to: string; type: string; text?: string; template?: { name: string; language: string } }[],
    // `phoneStatus`: the number's `status` field (Graph's enum), or null to leave the field out.
    switches: { delayMs: 0, hang: false, failStatus: 0, phoneStatus: "CONNECTED" as string | null },
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const answer = (status: number, body: unknown) => {
        if (!res.destroyed) res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
      };
      const act = () => {
        if (req.headers.authorization !== `Bearer ${token}`) return answer(401, { error: { message: "Invalid OAuth access token.", code: 190 } });
        if (state.switches.failStatus) return answer(state.switches.failStatus, { error: { message: "fake failure" } });
        const path = new URL(req.url ?? "/", "http://x").pathname.split("/").filter(Boolean).map(decodeURIComponent);
        if (path[0] !== phoneNumberId) return answer(404, { error: { message: "Unknown path" } });
        if (req.method === "GET" && path.length === 1) {
          const fields = new URL(req.url ?? "/", "http://x").searchParams.get("fields")?.split(",") ?? [];
          const status = fields.includes("status") && state.switches.phoneStatus !== null ? { status: state.switches.phoneStatus } : {};
          return answer(200, { id: phoneNumberId, display_phone_number: "+55 11 90000-0000", ...status });
        }
        if (req.method === "POST" && path[1] === "messages" && path.length === 2) {
          const b = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
          if (b.messaging_product !== "whatsapp" || typeof b.to !== "string") return answer(400, { error: { message: "bad request" } });
          state.sent.push({
            to: b.to,
            type: b.type,
            text: b.text?.body,
            template: b.template ? { name: b.template.name, language: b.template.language?.code } : undefined,
          });
          return answer(200, {
            messaging_product: "whatsapp",
            contacts: [{ input: b.to, wa_id: b.to }],
            messages: [{ id: `wamid.${randomBytes(12).toString("hex")}` }],
          });
        }
        return answer(404, { error: { message: "Unknown path" } });
      };
      if (state.switches.hang) return;
      if (state.switches.delayMs) setTimeout(act, state.switches.delayMs).unref();
      else act();
    });
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  /** An inbound text message as the Cloud API posts it, signed with the app secret. */
  function inbound(secret: string, fromDigits: string, text: string, name = "Cliente") {
    const id = `wamid.${randomBytes(12).toString("hex")}`;
    const body = JSON.stringify({
      object: "whatsapp_business_account",
      entry: [
        {
          id: "waba",
          changes: [
            {
              field: "messages",
              value: {
                messaging_product: "whatsapp",
                metadata: { phone_number_id: phoneNumberId },
                contacts: [{ wa_id: fromDigits, profile: { name } }],
                messages: [{ id, from: fromDigits, timestamp: String(Math.floor(Date.now() / 1000)), type: "text", text: { body: text } }],
              },
            },
          ],
        },
      ],
    });
    return {
      id,
      body,
      headers: { "content-type": "application/json", "x-hub-signature-256": `sha256=${createHmac("sha256", secret).update(body).digest("hex")}` } as Record<
        string,
        string
      >,
    };
  }

  return {
    url: `http://127.0.0.1:${port}`,
    token,
    phoneNumberId,
    state,
    inbound,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type FakeCloud = Awaited<ReturnType<typeof startFakeCloud>>;
