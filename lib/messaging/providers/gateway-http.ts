import ipaddr from "ipaddr.js";
import { Agent, request } from "undici";
import { guardedLookup, isPublicAddress, privateTargetsAllowed } from "../../webhooks/url-guard";

/** Why a gateway call failed: the history classification and the send acks are built from this. */
export class GatewayError extends Error {
  constructor(
    readonly kind: "timeout" | "unreachable" | "http" | "unauthorized" | "not_found",
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = "GatewayError";
  }
}

const MAX_ANSWER_BYTES = 5_000_000;
const g = globalThis as unknown as { __crmGatewayAgent?: Agent };

/** One keep-alive pool; every connection goes through the private-address guard of outbound webhooks. */
function agent(): Agent {
  g.__crmGatewayAgent ??= new Agent({ connect: { lookup: guardedLookup as never }, keepAliveTimeout: 10_000, connections: 128 });
  return g.__crmGatewayAgent;
}

/**
 * One JSON call to a gateway. Redirects are not followed; an IP literal is checked here because
 * the lookup guard never sees it. The caller's signal carries the budget.
 */
export async function gatewayJson(
  method: "GET" | "POST" | "PUT" | "DELETE",
  url: string,
  headers: Record<string, string>,
  body: unknown,
  signal: AbortSignal,
): Promise<unknown> {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, "");
  if (ipaddr.isValid(host) && !privateTargetsAllowed() && !isPublicAddress(host)) {
    throw new GatewayError("unreachable", `refused: ${host} is a non-public address`);
  }
  let res;
  try {
    res = await request(url, {
      method,
      headers: { accept: "application/json", ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
      dispatcher: agent(),
      signal,
    });
  } catch (err) {
    if (signal.aborted) throw new GatewayError("timeout", "the gateway did not answer within the budget");
    const e = err as Error & { code?: string };
    throw new GatewayError("unreachable", `${e.code ?? e.name}: ${e.message}`);
  }
  let text: string;
  try {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      size += chunk.length;
      if (size > MAX_ANSWER_BYTES) {
        res.body.destroy();
        throw new GatewayError("http", "the gateway's answer is too large", res.statusCode);
      }
      chunks.push(chunk);
    }
    text = Buffer.concat(chunks).toString("utf8");
  } catch (err) {
    if (err instanceof GatewayError) throw err;
    if (signal.aborted) throw new GatewayError("timeout", "the gateway did not answer within the budget");
    throw new GatewayError("unreachable", (err as Error).message);
  }
  if (res.statusCode === 401 || res.statusCode === 403) throw new GatewayError("unauthorized", `gateway answered ${res.statusCode}`, res.statusCode);
  if (res.statusCode === 404) throw new GatewayError("not_found", "gateway answered 404", 404);
  if (res.statusCode < 200 || res.statusCode >= 300) throw new GatewayError("http", `gateway answered ${res.statusCode}`, res.statusCode);
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    throw new GatewayError("http", "the gateway's answer is not JSON", res.statusCode);
  }
}
