import { Agent } from "undici";
import { guardedLookup } from "./guarded-lookup";
import { processGlobal } from "../util/process-global";

/** Who is calling out: each purpose keeps its own keep-alive pool so one cannot starve another. */
export type OutboundPurpose = "webhook" | "gateway" | "geocoder" | "image" | "model";

/** Connections per origin: webhook delivery serves up to 256 tenants at once, gateways 128, model calls 256 (agents of many tenants often share one hosted provider). */
const CONNECTIONS: Record<OutboundPurpose, number> = { webhook: 256, gateway: 128, geocoder: 16, image: 32, model: 256 };

/** The purpose's pool, created once per process; every socket it opens goes through the lookup guard. */
export function agentFor(purpose: OutboundPurpose): Agent {
  const agents = processGlobal("outbound-agents", () => new Map<OutboundPurpose, Agent>());
  let a = agents.get(purpose);
  if (!a) {
    a = new Agent({ connect: { lookup: guardedLookup as never }, keepAliveTimeout: 10_000, connections: CONNECTIONS[purpose] });
    agents.set(purpose, a);
  }
  return a;
}
