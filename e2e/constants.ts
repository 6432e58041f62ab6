export const E2E_OPERATOR_TOKEN = "e2e-operator-token-0123456789";

/**
 * The e2e server's MAP_TILES_URL points here (playwright.config.ts): a test that looks at the maps
 * starts its fake tile server on this port of 127.0.0.1; other tests never reach a real tile server.
 */
export const E2E_TILES_PORT = Number(process.env.E2E_PORT ?? 3100) + 1000;

/** The e2e server's SMTP_URL points here (playwright.config.ts): e2e/saved-search-alerts.spec.ts starts its fake SMTP server on it. */
export const E2E_SMTP_PORT = Number(process.env.E2E_PORT ?? 3100) + 1001;
export const E2E_SMTP_USER = "e2e";
export const E2E_SMTP_PASSWORD = "e2e-smtp-pass";

/**
 * What every server the suite talks to runs with: `npm start` of playwright.config.ts, and each node
 * of `npm run test:e2e:cluster` (scripts/e2e-cluster.ts). One list, so a setting a new test needs
 * reaches both (the cluster run once missed SMTP_URL and the alert test waited for mail in vain).
 */
export const E2E_SERVER_ENV: Record<string, string> = {
  OPERATOR_TOKEN: E2E_OPERATOR_TOKEN,
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
};
