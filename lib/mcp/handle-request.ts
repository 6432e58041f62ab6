import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { noteLogContext } from "../log/log-context";
import { authenticateApiKey, readApiKey } from "../auth/authenticate-key";
import { memberCtx } from "../context/verb-context";
import { requestIdFrom } from "../http/request-id";
import { consume, rateLimitedBody, setRateHeaders, type Decision } from "../http/messaging-route";
import { privateHeaders } from "../http/route";
import { json, run } from "../http/run";
import { mcpRequestProblem } from "./host-guard";
import { createMcpServer } from "./server";

const finish = privateHeaders("mcp");

/**
 * `POST /api/mcp`: one tool-interface message (or batch) over the SDK's web-standard Streamable
 * HTTP transport, stateless and answered as JSON. In order: the Host/Origin guard (before the
 * database is touched), the API key (`Authorization: Bearer` or `x-api-key`; missing, unknown or
 * revoked is a 401 JSON error and no MCP message is read), then a fresh server and transport for
 * this request only, whose tools act as the key's member. Each POST counts against the key's
 * messaging budget (1000 per hour, shared with `/api/v1/messaging`, `RateLimit` headers, 429). Nothing is kept between requests, so any
 * process can answer any request.
 */
export async function handleMcpRequest(req: Request): Promise<Response> {
  const problem = mcpRequestProblem(req);
  if (problem) {
    return finish(req, json({ error: { code: "forbidden_origin", message: problem } }, 403, { "x-request-id": requestIdFrom(req.headers) }));
  }
  let decision: Decision | null = null;
  const finishWithRate = (r: Request, res: Response) => {
    if (decision) setRateHeaders(res, decision);
    return finish(r, res);
  };
  return run(req, undefined, finishWithRate, async (c) => {
    const actor = await authenticateApiKey(c.db, readApiKey(req.headers, true));
    // The same budget as the messaging REST endpoints: 1000 requests per hour per key.
    decision = await consume(c.db, actor.keyId);
    if (decision && !decision.allowed) return json(rateLimitedBody(decision), 429);
    noteLogContext({ tenantId: actor.tenantId });
    const log = c.log.child({ userId: actor.userId, surface: "mcp" });
    const server = createMcpServer({ ctx: memberCtx(c.db, actor), log, requestId: c.requestId });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await transport.handleRequest(req);
    } finally {
      // The JSON answer is complete here; notifications (202) need nothing after it.
      await server.close();
    }
  });
}
