import { defineConfig } from "@playwright/test";
import { e2eServerEnv } from "./e2e/constants";

const PORT = Number(process.env.E2E_PORT ?? 3100);

/**
 * Drives Debian's Chromium (never a downloaded browser) against `next start` of the production
 * build, on an embedded database of its own that starts empty each run.
 */
export default defineConfig({
  testDir: "e2e",
  timeout: 60_000,
  retries: 0,
  workers: 1,
  reporter: [["list"]],
  use: {
    baseURL: `http://localhost:${PORT}`,
    locale: "pt-BR",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-sync", "--disable-background-networking"],
    },
  },
  projects: [{ name: "chromium", use: { browserName: "chromium" } }],
  // E2E_EXTERNAL=1: the suite runs against a server already listening on E2E_PORT (npm run
  // test:e2e:cluster, through nginx to two nodes) instead of starting its own.
  webServer: process.env.E2E_EXTERNAL
    ? undefined
    : {
        // Default bind (never -H 127.0.0.1: next-intl redirect loop, see STACK-NOTES).
        // `npm start`, as users run it: the launcher with its one web process on the embedded database.
        command: `rm -rf .e2e-data && npm start -- -p ${PORT}`,
        // Ready means migrated, database answering and the job runner started: no test races the boot.
        url: `http://localhost:${PORT}/api/health/ready`,
        reuseExistingServer: false,
        timeout: 180_000,
        stdout: "pipe",
        gracefulShutdown: { signal: "SIGTERM", timeout: 5_000 },
        env: { ...e2eServerEnv(PORT), DATA_DIR: ".e2e-data", DATABASE_URL: "" },
      },
});
