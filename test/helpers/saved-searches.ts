import { resetConfigForTests } from "../../lib/config";
import { candidateColumns, type SavedFilters } from "../../lib/saved-searches/filters";
import { startFakeSmtp, type FakeSmtp } from "../fakes/smtp-server";
import type { TestTenant } from "./factories";

/**
 * The row of a saved search as a confirmed visitor's (active, e-mail, instant, consent given now),
 * with its index columns derived from its filters, for tests that insert searches directly.
 * `over` replaces any field (frequency, status, times, e-mail…).
 */
export function savedSearchRow(t: TestTenant, site: { id: string; domain: string }, filters: SavedFilters, over: Record<string, unknown> = {}) {
  return {
    tenantId: t.tenantId,
    siteId: site.id,
    status: "active" as const,
    channel: "email" as const,
    frequency: "instant" as const,
    filters,
    email: "buscador@cliente.test",
    linkBase: `http://${site.domain}`,
    consentAt: new Date(),
    consentSource: { via: "test" },
    confirmedAt: new Date(),
    ...candidateColumns(filters),
    ...over,
  };
}

/** The service's mail server (`SMTP_URL`) for a test file: a fake SMTP server on 127.0.0.1 with a login. */
export async function startServiceSmtp(): Promise<FakeSmtp> {
  const smtp = await startFakeSmtp({ user: "svc", password: "svc-pass" });
  process.env.SMTP_URL = `smtp://svc:svc-pass@${smtp.host}:${smtp.port}`;
  resetConfigForTests();
  return smtp;
}

/** Undoes `startServiceSmtp`: the service has no mail server again. */
export async function stopServiceSmtp(smtp: FakeSmtp): Promise<void> {
  delete process.env.SMTP_URL;
  resetConfigForTests();
  await smtp.close();
}
