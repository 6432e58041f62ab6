import { OutboundError } from "../../outbound-fetch/outbound-error";
import { outboundRequest } from "../../outbound-fetch/outbound-request";

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
/** The caller's signal carries the real budget; this only bounds a caller that forgot one. */
const CAP_MS = 120_000;

/** An outbound failure as the history classification and the send acks know it. */
function gatewayFailure(err: unknown, signal: AbortSignal): GatewayError {
  if (signal.aborted) return new GatewayError("timeout", "the gateway did not answer within the budget");
  if (!(err instanceof OutboundError)) return new GatewayError("unreachable", (err as Error).message);
  if (err.kind === "timeout") return new GatewayError("timeout", "the gateway did not answer within the budget");
  if (err.kind === "too_large") return new GatewayError("http", "the gateway's answer is too large", err.status);
  return new GatewayError("unreachable", err.message);
}

/**
 * One JSON call to a gateway through the outbound guard (the gateway pool): no redirect followed,
 * no non-public address where private targets are not allowed. The caller's signal carries the budget.
 */
export async function gatewayJson(
  method: "GET" | "POST" | "PUT" | "DELETE",
  url: string,
  headers: Record<string, string>,
  body: unknown,
  signal: AbortSignal,
): Promise<unknown> {
  let res: Awaited<ReturnType<typeof outboundRequest>>;
  try {
    res = await outboundRequest(url, {
      purpose: "gateway",
      method,
      headers: { accept: "application/json", ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
      timeoutMs: CAP_MS,
      signal,
      maxBytes: MAX_ANSWER_BYTES,
    });
  } catch (err) {
    throw gatewayFailure(err, signal);
  }
  const text = res.body.toString("utf8");
  if (res.status === 401 || res.status === 403) throw new GatewayError("unauthorized", `gateway answered ${res.status}`, res.status);
  if (res.status === 404) throw new GatewayError("not_found", "gateway answered 404", 404);
  if (res.status < 200 || res.status >= 300) throw new GatewayError("http", `gateway answered ${res.status}`, res.status);
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    throw new GatewayError("http", "the gateway's answer is not JSON", res.status);
  }
}
