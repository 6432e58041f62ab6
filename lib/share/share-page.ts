import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { shareLinks } from "../../db/schema";
import { DomainError } from "../errors/domain-errors";
import { loadTenant } from "../tenants/load-tenant";
import type { Visit } from "./record-access";
import { issueGrant } from "./password-grant";
import { resolveShare } from "./resolve-share";
import { shareVisitor } from "./share-visitor";
import { SHARE_TOKEN_PATTERN } from "./secrets";
import { shareHostKind, type ShareHostKind } from "./share-host";

export type ShareBranding = { name: string; logo: string | null; primaryColor: string };

/** The resolve answer (spec 2 §2.8 plus `showFinancialSimulator`, `languages`), as the page reads it. */
export type ShareAnswer = {
  token: { id: string; entityType: string; entityId: string; dealId: string | null; createdBy: string | null };
  entity: { type: string } & Record<string, unknown>;
  branding: ShareBranding;
  tenantConfig: { propertyTypes: { id: string; label: string }[]; propertyFeatures: { id: string; label: string }[] } & Record<string, unknown>;
  site: { hasSite: boolean; domain: string | null; siteId: string | null };
  tenantId: string;
  showFinancialSimulator: boolean;
  languages: string[];
};

/** Where a protected or closed link leaves its recipient; the page shows the tenant's branding and nothing of the entity. */
export type ShareLinkState = "password_required" | "password_wrong" | "throttled" | "expired";

export type SharePage =
  /** `grant`: when a right password was sent, what the page keeps in a cookie to stand for it. */
  | { state: "open"; answer: ShareAnswer; hostKind: ShareHostKind; grant?: string }
  | { state: ShareLinkState; branding: ShareBranding; languages: string[]; retryAfterSeconds?: number }
  | { state: "not_found" };

export type OpenSharePageInput = {
  host: string | null;
  serviceHosts: ReadonlySet<string>;
  locale: string;
  visit: Visit;
  password?: string;
  grant?: string;
  /** false for the link preview image: a messaging app's crawler is not a recipient's open. */
  record?: boolean;
};

const languagesOf = (listingLanguages: string[]) => ["pt-BR", ...listingLanguages.filter((l) => l !== "pt-BR")];

/**
 * A share page (`/p/{token}`) as its recipient gets it: the same resolve as
 * `/api/sites/share/{token}` (so the page shows exactly what the endpoint gives), refused (404) on
 * a host or in a language the link's tenant does not serve it on, and each refusal of the resolve
 * turned into the page's state. States other than 404 carry the tenant's branding and nothing of
 * the entity.
 */
export async function openSharePage(db: Db, token: string, input: OpenSharePageInput): Promise<SharePage> {
  let hostKind: ShareHostKind | null = null;
  const admit = async (tenant: Parameters<typeof shareHostKind>[2] & { settings: { listingLanguages: string[] } }) => {
    if (!languagesOf(tenant.settings.listingLanguages).includes(input.locale)) return false;
    hostKind = await shareHostKind(db, input.host, tenant, input.serviceHosts);
    return hostKind !== null;
  };
  try {
    const ctx = await shareVisitor(db, token);
    const answer = (await resolveShare(ctx, {
      body: input.password !== undefined ? { password: input.password } : undefined,
      visit: input.visit,
      grant: input.grant,
      admit,
      record: input.record,
    })) as unknown as ShareAnswer;
    const grant = input.password ? issueGrant(ctx.actor.link) : undefined;
    return { state: "open", answer, hostKind: hostKind ?? "service", ...(grant ? { grant } : {}) };
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    const states: Partial<Record<DomainError["kind"], ShareLinkState>> = {
      unauthorized: "password_required",
      forbidden: "password_wrong",
      gone: "expired",
      rate_limited: "throttled",
    };
    const state = states[err.kind];
    if (!state) return { state: "not_found" };
    if (!SHARE_TOKEN_PATTERN.test(token)) return { state: "not_found" };
    const [link] = await db.select({ tenantId: shareLinks.tenantId, active: shareLinks.active }).from(shareLinks).where(eq(shareLinks.token, token)).limit(1);
    if (!link?.active) return { state: "not_found" };
    const tenant = await loadTenant(db, link.tenantId);
    if (!(await admit(tenant))) return { state: "not_found" };
    const b = tenant.settings.branding;
    const retry = state === "throttled" ? /in (\d+) s/.exec(err.message)?.[1] : undefined;
    return {
      state,
      branding: { name: b.name, logo: b.logo, primaryColor: b.primaryColor },
      languages: languagesOf(tenant.settings.listingLanguages),
      ...(retry ? { retryAfterSeconds: Number(retry) } : {}),
    };
  }
}
