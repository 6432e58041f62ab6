import type { Db } from "../../db/client";
import type { TenantRow } from "../tenants/tenant-row";
import { invalid, unauthorized } from "../errors/domain-errors";
import { loadTenant } from "../tenants/load-tenant";
import { cityByCode } from "./pricing-cities";

export type CityPlace = { code: string; city: string; state: string | null };
import { openLink, shareNotFound } from "./resolve-share";

/**
 * The tenant behind a pricing-tool token, checked like any share link (unknown or inactive 404,
 * expired 410); a token of another kind is a 404 here, so a listing link cannot reach the helpers.
 */
export async function openPricingTool(db: Db, token: string): Promise<TenantRow> {
  const link = await openLink(db, token);
  if (link.entityType !== "pricing_tool") throw shareNotFound();
  // The helpers carry no password; a protected pricing link is opened through the resolve first.
  if (link.passwordHash) throw unauthorized("Password required", "password_required");
  return loadTenant(db, link.tenantId);
}

/** The city of a helper request by its code, or a 400 listing the codes this tool knows. */
export async function requireCity(db: Db, tenantId: string, code: string): Promise<CityPlace> {
  const city = await cityByCode(db, tenantId, code);
  if (city) return { code: city.code, city: city.label, state: city.state };
  throw invalid(`city: '${code.slice(0, 80)}' is not one of this pricing tool's cities (see pricingTool.cities in the share resolve).`, "unknown_city");
}
