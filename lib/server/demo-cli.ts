/**
 * `npm run demo`: build, migrate and seed the embedded database, then serve, saying what each step
 * does and how long it took. Each step is its own process (the embedded database admits one at a
 * time, so the seed closes it before the server opens it).
 */
import { spawn } from "node:child_process";
import { config } from "../config";

const steps: { name: string; seconds: number }[] = [];
const seconds = (since: number) => Math.round((Date.now() - since) / 100) / 10;

function run(name: string, cmd: string, args: string[], env: Record<string, string> = {}): Promise<void> {
  console.log(`\n== ${name}`);
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: "inherit", env: { ...process.env, ...env } });
    child.on("exit", (code, signal) => {
      if (code === 0) {
        steps.push({ name, seconds: seconds(started) });
        console.log(`== ${name}: done in ${seconds(started)} s`);
        resolve();
      } else reject(new Error(`${name} failed (${signal ?? `exit code ${code}`}); see the output above.`));
    });
  });
}

async function waitUntilServing(url: string, started: number, child: ReturnType<typeof spawn>): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) return;
    try {
      const res = await fetch(url);
      if (res.status < 500) break;
    } catch {
      // not listening yet
    }
    await new Promise((ok) => setTimeout(ok, 250));
  }
  console.log(
    `== Serving at ${url} (ready in ${seconds(started)} s; ${steps.map((s) => `${s.name.toLowerCase()} ${s.seconds} s`).join(", ")}). Ctrl-C stops it.`,
  );
}

async function main() {
  // Share links of `{type: 'auto'}` live at {slug}.{SHARE_DOMAIN}: on the port this demo serves,
  // so the links the seed prints open when PORT is not 3000. The seed and server inherit it.
  process.env.SHARE_DOMAIN ||= `share.localhost:${config().PORT}`;
  const bin = (name: string) => `node_modules/.bin/${name}`;
  await run("Build (next build)", bin("next"), ["build"], { NEXT_TELEMETRY_DISABLED: "1" });
  await run("Migrate and seed the demo tenant", bin("tsx"), ["db/cli/seed.ts"]);
  console.log("\n== Serve (npm start)");
  const started = Date.now();
  // As `npm start`: the launcher and our server (one web process on the embedded database).
  const server = spawn(bin("tsx"), ["lib/server/start-cli.ts"], { stdio: "inherit", env: process.env });
  // The server shuts down gracefully on these; pass them on and leave with its exit code.
  for (const sig of ["SIGINT", "SIGTERM"] as const) process.on(sig, () => server.kill(sig));
  server.on("exit", (code) => process.exit(code ?? 0));
  await waitUntilServing(`http://localhost:${config().PORT}/`, started, server);
}

main().catch((err) => {
  console.error(`\nnpm run demo stopped: ${(err as Error).message}`);
  process.exit(1);
});
