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
