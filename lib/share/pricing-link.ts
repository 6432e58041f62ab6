import type { Db } from "../../db/client";
import { invalid } from "../errors/domain-errors";
import { cityByCode } from "./pricing-cities";

export type CityPlace = { code: string; city: string; state: string | null };

/** The city of a helper request by its code, or a 400 listing the codes this tool knows. */
export async function requireCity(db: Db, tenantId: string, code: string): Promise<CityPlace> {
  const city = await cityByCode(db, tenantId, code);
  if (city) return { code: city.code, city: city.label, state: city.state };
  throw invalid(`city: '${code.slice(0, 80)}' is not one of this pricing tool's cities (see pricingTool.cities in the share resolve).`, "unknown_city");
}
