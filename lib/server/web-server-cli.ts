/**
 * One web process: `npm start` runs one per core through its launcher (lib/server/start-cli.ts),
 * `npm run dev` one in development mode. Boots first (database check, migrations, operator token,
 * rate-limit store, job runner), then serves; a launcher hears "booted" only once it listens.
 *
 *   tsx lib/server/web-server-cli.ts [-p PORT] [-H HOSTNAME] [--dev]
 */
import cluster from "node:cluster";

function option(names: string[]): string | undefined {
  const args = process.argv.slice(2);
  for (let i = 0; i < args.length; i++) {
    const [flag, inline] = args[i].split("=", 2);
    if (names.includes(flag)) return inline ?? args[i + 1];
  }
  return undefined;
}

const dev = process.argv.includes("--dev");
// Before anything reads them (the modules below are loaded after this): what `next start` and
// `next dev` set, and our graceful shutdown (lib/server/shutdown.ts) instead of Next.js's.
(process.env as Record<string, string>).NODE_ENV = dev ? "development" : "production";
process.env.NEXT_MANUAL_SIG_HANDLE ??= "true";

async function main() {
  const [{ config }, { bootOrExit }, { startWebServer }] = await Promise.all([import("../config"), import("./boot"), import("./web-server")]);
  await bootOrExit();
  const port = Number(option(["-p", "--port"]) ?? config().PORT);
  const hostname = option(["-H", "--hostname"]);
  const started = Date.now();
  await startWebServer({ dev, port, hostname });
  console.log(`✓ Ready on http://${hostname ?? "localhost"}:${port} in ${Date.now() - started} ms${dev ? " (development)" : ""}`);
  // Under `npm start`'s launcher: serving, so the other processes may start.
  if (cluster.isWorker) process.send?.({ crmBooted: true });
}

main().catch((err) => {
  console.error(`Server not started: ${(err as Error).message}`);
  process.exit(1);
});
