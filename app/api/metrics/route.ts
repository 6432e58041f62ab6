import { run } from "@/lib/http/run";
import { privateHeaders } from "@/lib/http/route";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { verifyMetricsReader } from "@/lib/metrics/authorize";
import { collectDatabaseGauges } from "@/lib/metrics/database-gauges";
import { metrics } from "@/lib/metrics/registry";

/** Prometheus text format of this process's metrics (one process of one node: see the README). */
export function GET(req: Request): Promise<Response> {
  return run(req, undefined, privateHeaders("api"), async ({ db }) => {
    verifyMetricsReader(req.headers);
    const m = metrics();
    await collectDatabaseGauges(db, m);
    return new Response(await m.registry.metrics(), { headers: { "content-type": m.registry.contentType } });
  });
}

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods("GET");
