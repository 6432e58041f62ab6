import { defineConfig } from "@playwright/test";
import { E2E_OPERATOR_TOKEN, E2E_SMTP_PASSWORD, E2E_SMTP_PORT, E2E_SMTP_USER, E2E_TILES_PORT } from "./e2e/constants";

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
        env: {
          DATA_DIR: ".e2e-data",
          OPERATOR_TOKEN: E2E_OPERATOR_TOKEN,
          DATABASE_URL: "",
          NEXT_TELEMETRY_DISABLED: "1",
          LOG_LEVEL: "warn",
          // The e2e receiver listens on 127.0.0.1, a private address a production server refuses by default.
          WEBHOOKS_ALLOW_PRIVATE_URLS: "true",
          // Map tiles from the fake tile server e2e/maps.spec.ts starts (nothing answers there otherwise: blank tiles, no third party).
          MAP_TILES_URL: `http://127.0.0.1:${E2E_TILES_PORT}/tiles/{z}/{x}/{y}.png`,
          MAP_TILES_ATTRIBUTION: "Tiles: e2e",
          // Operator mail to the fake SMTP server e2e/saved-search-alerts.spec.ts starts (other tests' mail fails to connect and is logged).
          SMTP_URL: `smtp://${E2E_SMTP_USER}:${E2E_SMTP_PASSWORD}@127.0.0.1:${E2E_SMTP_PORT}`,
          MAIL_FROM: "alertas@e2e.test",
        },
      },
});
