import client from "prom-client";
import { config } from "../config";
import { processGlobal } from "../util/process-global";

/**
 * This process's metrics. One registry per process (`processGlobal`): Next.js bundles `lib/` more
 * than once and our server loads it unbundled too, and each copy of prom-client would otherwise
 * count in a registry of its own. Labels are bounded sets (route groups, methods, status classes,
 * job ids, policy names): never raw paths, hosts or tenant ids, which would grow without end.
 * Every series carries `node` and `pid`: under the Node cluster a scrape reaches one process.
 */
function create() {
  const registry = new client.Registry();
  registry.setDefaultLabels({ node: config().NODE_NAME, pid: String(process.pid) });
  client.collectDefaultMetrics({ register: registry, prefix: "crm_process_" });
  const r = [registry];
  return {
    registry,
    httpRequests: new client.Counter({
      name: "crm_http_requests_total",
      help: "HTTP requests answered, by route group, method and status class",
      labelNames: ["group", "method", "status"] as const,
      registers: r,
    }),
    httpDuration: new client.Histogram({
      name: "crm_http_request_duration_seconds",
      help: "Time to answer an HTTP request, by route group",
      labelNames: ["group"] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: r,
    }),
    jobRuns: new client.Counter({ name: "crm_job_runs_total", help: "Runs of background jobs in this process", labelNames: ["job"] as const, registers: r }),
    jobFailures: new client.Counter({
      name: "crm_job_failures_total",
      help: "Runs of background jobs in this process that failed",
      labelNames: ["job"] as const,
      registers: r,
    }),
    rateLimitRefusals: new client.Counter({
      name: "crm_rate_limit_refusals_total",
      help: "Requests refused by a rate limit, by policy",
      labelNames: ["policy"] as const,
      registers: r,
    }),
    // Read from the database at each scrape (lib/metrics/database-gauges.ts): the same on every node.
    leads: new client.Gauge({ name: "crm_inbound_leads", help: "Inbound leads stored, by processing status", labelNames: ["status"] as const, registers: r }),
    eventsPending: new client.Gauge({ name: "crm_event_deliveries_pending", help: "Outbound events waiting for delivery", registers: r }),
    eventsOldestAge: new client.Gauge({
      name: "crm_event_oldest_pending_age_seconds",
      help: "Age of the oldest undelivered outbound event (0 when none waits)",
      registers: r,
    }),
    eventsOldestAgeTop: new client.Gauge({
      name: "crm_event_oldest_pending_age_seconds_top_tenants",
      help: "Age of the oldest undelivered event of the 5 tenants whose oldest waits longest (bounded)",
      labelNames: ["tenant"] as const,
      registers: r,
    }),
    searchDuration: new client.Histogram({
      name: "crm_search_duration_seconds",
      help: "Time to answer a listing search (the result cache included), by engine",
      labelNames: ["engine"] as const,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: r,
    }),
    dbPoolMax: new client.Gauge({ name: "crm_db_pool_max_connections", help: "Connections this process's PostgreSQL pool may open", registers: r }),
  };
}

export type Metrics = ReturnType<typeof create>;

const slot = processGlobal("metrics", () => ({ metrics: undefined as Metrics | undefined }));

export function metrics(): Metrics {
  slot.metrics ??= create();
  return slot.metrics;
}
