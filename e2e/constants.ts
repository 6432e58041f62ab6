export const E2E_OPERATOR_TOKEN = "e2e-operator-token-0123456789";

/** Where the fake tile and SMTP servers listen, from the suite's port. */
const TILES_OFFSET = 1000;
const SMTP_OFFSET = 1001;

/**
 * The e2e server's MAP_TILES_URL points here (playwright.config.ts): a test that looks at the maps
 * starts its fake tile server on this port of 127.0.0.1; other tests never reach a real tile server.
 */
export const E2E_TILES_PORT = Number(process.env.E2E_PORT ?? 3100) + TILES_OFFSET;

/** The e2e server's SMTP_URL points here (playwright.config.ts): e2e/saved-search-alerts.spec.ts starts its fake SMTP server on it. */
export const E2E_SMTP_PORT = Number(process.env.E2E_PORT ?? 3100) + SMTP_OFFSET;
export const E2E_SMTP_USER = "e2e";
export const E2E_SMTP_PASSWORD = "e2e-smtp-pass";

/**
 * What every server the suite talks to runs with, for the suite's port (`E2E_PORT`, from which the
 * fake tile and SMTP servers' ports follow): `npm start` of playwright.config.ts, and each node of
 * `npm run test:e2e:cluster` (scripts/e2e-cluster.ts, which gives its own port). One list, so a
 * setting a new test needs reaches both (the cluster run once missed SMTP_URL).
 */
export function e2eServerEnv(port = Number(process.env.E2E_PORT ?? 3100)): Record<string, string> {
  return {
    OPERATOR_TOKEN: E2E_OPERATOR_TOKEN,
    NEXT_TELEMETRY_DISABLED: "1",
    LOG_LEVEL: "warn",
    // The e2e receiver listens on 127.0.0.1, a private address a production server refuses by default.
    WEBHOOKS_ALLOW_PRIVATE_URLS: "true",
    // Map tiles from the fake tile server e2e/maps.spec.ts starts (nothing answers there otherwise: blank tiles, no third party).
    MAP_TILES_URL: `http://127.0.0.1:${port + TILES_OFFSET}/tiles/{z}/{x}/{y}.png`,
    MAP_TILES_ATTRIBUTION: "Tiles: e2e",
    // Operator mail to the fake SMTP server e2e/saved-search-alerts.spec.ts starts (other tests' mail fails to connect and is logged).
    SMTP_URL: `smtp://${E2E_SMTP_USER}:${E2E_SMTP_PASSWORD}@127.0.0.1:${port + SMTP_OFFSET}`,
    MAIL_FROM: "alertas@e2e.test",
  };
}
