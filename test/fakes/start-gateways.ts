/**
 * Starts the fake WAHA gateway and the fake WhatsApp Cloud API by hand, to try the messaging API
 * against them (see the README): `npm run fake:gateway`. Ports: FAKE_WAHA_PORT (default 3325) and
 * FAKE_CLOUD_PORT (3326). Create a channel with the printed values (the service needs
 * WEBHOOKS_ALLOW_PRIVATE_URLS=true for a gateway on 127.0.0.1), then type a line
 * `<chatId> <text>` to receive a message (delivered signed to the webhook URL given with
 * `webhook <url> <hmacSecret>`).
 */
import readline from "node:readline";
import { startFakeCloud } from "./cloud-gateway";
import { startFakeWaha } from "./waha-gateway";

async function main() {
  const waha = await startFakeWaha({ port: Number(process.env.FAKE_WAHA_PORT ?? 3325) });
  const cloud = await startFakeCloud({ port: Number(process.env.FAKE_CLOUD_PORT ?? 3326) });
  console.log(`WAHA-like gateway: baseUrl ${waha.url}  apiKey ${waha.apiKey}  sessionName ${waha.session}`);
  console.log(`Cloud-API-like gateway: baseUrl ${cloud.url}  apiKey ${cloud.token}  sessionName ${cloud.phoneNumberId}`);
  console.log("Commands: `webhook <url> <hmacSecret>`, then `<chatId> <text>` to receive a message; `sent` lists what was sent.");
  let hook: { url: string; secret: string } | null = null;
  const rl = readline.createInterface({ input: process.stdin });
  rl.on("line", async (line) => {
    const [cmd, ...rest] = line.trim().split(/\s+/);
    if (cmd === "webhook" && rest.length === 2) hook = { url: rest[0], secret: rest[1] };
    else if (cmd === "sent") console.log(JSON.stringify({ waha: waha.state.sent, cloud: cloud.state.sent }, null, 2));
    else if (cmd && rest.length && hook) {
      const wh = waha.inbound(hook.secret, cmd, rest.join(" "), { pushName: "Cliente" });
      const res = await fetch(hook.url, { method: "POST", headers: wh.headers, body: wh.body });
      console.log(`delivered: ${res.status}`);
    } else console.log("?");
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
