import http from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import * as mcpRoute from "../../app/api/mcp/route";
import type { FakeWaha } from "../fakes/waha-gateway";
import { checkResponse } from "./contract";
import { messagingCast } from "./messaging";

type Route = Record<string, unknown>;

/**
 * A real HTTP server on 127.0.0.1 in front of a route module, as Next.js would call it: each
 * request becomes a web `Request` (method, headers including Host, body) for the exported handler
 * of its method, and the `Response` is written back. The SDK's client talks to it over HTTP.
 * Each answer is checked against the OpenAPI description (a stream only for status and content
 * type); a drift is thrown outside the request, so the uncaught error fails the run.
 */
export async function serveRoute(mod: Route = mcpRoute as Route) {
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(", ") : v);
    const method = req.method ?? "GET";
    const body = method === "GET" || method === "HEAD" || !chunks.length ? undefined : Buffer.concat(chunks);
    const handler = mod[method] as ((r: Request) => Promise<Response> | Response) | undefined;
    if (!handler) return void res.writeHead(405).end();
    const url = `http://${req.headers.host}${req.url}`;
    const r = await handler(new Request(url, { method, headers, body }));
    const streamed = /event-stream/i.test(r.headers.get("content-type") ?? "");
    const text = streamed ? null : await r.clone().text();
    checkResponse(handler, { method, url }, { status: r.status, headers: r.headers, text }).catch((e: unknown) =>
      process.nextTick(() => {
        throw e;
      }),
    );
    res.writeHead(r.status, Object.fromEntries(r.headers));
    res.end(Buffer.from(await r.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/mcp`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The SDK's own client over Streamable HTTP, authenticated as an API key (Bearer, or `x-api-key`). */
export async function connectAgent(url: string, key: string, opts: { header?: "bearer" | "x-api-key" } = {}) {
  const headers: Record<string, string> = opts.header === "x-api-key" ? { "x-api-key": key } : { authorization: `Bearer ${key}` };
  const client = new Client({ name: "test-agent", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

export type Agent = Awaited<ReturnType<typeof connectAgent>>;
export type RouteServer = Awaited<ReturnType<typeof serveRoute>>;

/** The messaging cast (gateway, tenant with ana and bruno, another tenant) and the tool route served over HTTP. */
export async function mcpCast() {
  const cast = await messagingCast();
  const srv = await serveRoute();
  return { ...cast, srv };
}

/** One SDK client per key, connected at once; a key given as `{ key, header }` picks its header. */
export function connectAgents(url: string, keys: (string | { key: string; header: "bearer" | "x-api-key" })[]) {
  return Promise.all(keys.map((k) => (typeof k === "string" ? connectAgent(url, k) : connectAgent(url, k.key, { header: k.header }))));
}

/** Tears down what mcpCast and connectAgents started: the clients, then the route server, then the gateway. */
export async function closeMcpCast(agents: (Agent | undefined)[], srv: RouteServer, gw: FakeWaha) {
  await Promise.all(agents.map((a) => a?.close()));
  await srv.close();
  await gw.close();
}

/** Calls a tool and returns its result with `structuredContent` typed loosely for assertions. */
export async function callTool(agent: Agent, name: string, args: Record<string, unknown> = {}) {
  const r = await agent.callTool({ name, arguments: args });
  return r as { isError?: boolean; structuredContent?: any; content: { type: string; text: string }[] };
}
