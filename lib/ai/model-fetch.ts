import { config } from "../config";
import { outboundRequest } from "../outbound-fetch/outbound-request";

/** A chat-completions answer larger than this is refused (a runaway reply, or not a model server). */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

function headerRecord(h: HeadersInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(h).forEach((v, k) => {
    out[k] = v;
  });
  return out;
}

/**
 * The `fetch` handed to the AI SDK provider: every model call goes through the outbound guard
 * (`outboundRequest`, purpose `model`), so a tenant's base URL can never reach a private or
 * metadata address in production, redirects are not followed, the answer is capped at 4 MB and
 * one request ends within AI_TIMEOUT_MS (or earlier on the caller's abort signal). The answer is
 * read whole: the SDK's non-streaming `generateText` is what the service uses.
 */
export const modelFetch: typeof fetch = async (input, init) => {
  const url = input instanceof Request ? input.url : String(input);
  const body = init?.body;
  if (body != null && typeof body !== "string") throw new TypeError("model calls send a JSON string body");
  const res = await outboundRequest(url, {
    purpose: "model",
    method: (init?.method ?? "GET").toUpperCase() as "POST",
    headers: headerRecord(init?.headers),
    body: body ?? undefined,
    timeoutMs: config().AI_TIMEOUT_MS,
    signal: init?.signal ?? undefined,
    maxBytes: MAX_ANSWER_BYTES,
  });
  const headers = new Headers();
  for (const [k, v] of Object.entries(res.headers)) {
    if (v === undefined) continue;
    for (const one of [v].flat()) headers.append(k, one);
  }
  const empty = res.status === 204 || res.status === 304;
  return new Response(empty ? null : new Uint8Array(res.body), { status: res.status, headers });
};
