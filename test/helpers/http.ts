import { checkResponse } from "./contract";

type Handler<P> = (req: Request, segment?: { params: Promise<P> }) => Promise<Response>;

export type CallOptions<P> = {
  key?: string | null;
  body?: unknown;
  rawBody?: string;
  params?: P;
  query?: Record<string, string | string[]>;
  headers?: Record<string, string>;
  /**
   * `false` for a handler a test builds itself (`apiRoute(...)` around a stub), which serves no
   * documented operation; every route handler's answer is checked.
   */
  contract?: false;
};

/**
 * Calls an exported route handler with a real Request, as Next.js would, and checks the response
 * against the handler's operation in the OpenAPI description (`./contract.ts`): an undocumented
 * status, or a body its schema does not describe, makes the call throw.
 */
export async function call<P = Record<string, never>>(
  handler: Handler<P>,
  method: string,
  path: string,
  opts: CallOptions<P> = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const url = new URL(path, "http://localhost");
  for (const [k, v] of Object.entries(opts.query ?? {})) for (const one of [v].flat()) url.searchParams.append(k, one);
  const headers = new Headers(opts.headers);
  if (opts.key) headers.set("authorization", `Bearer ${opts.key}`);
  let body: string | undefined;
  if (opts.rawBody !== undefined) body = opts.rawBody;
  else if (opts.body !== undefined) body = JSON.stringify(opts.body);
  if (body !== undefined && !headers.has("content-type")) headers.set("content-type", "application/json");
  const res = await handler(new Request(url, { method, headers, body }), { params: Promise.resolve((opts.params ?? {}) as P) });
  const text = await res.text();
  if (opts.contract !== false)
    await checkResponse(handler, { method, url: url.href, params: opts.params ?? {} }, { status: res.status, headers: res.headers, text });
  return { status: res.status, body: text ? parseBody(text, res.headers) : null, headers: res.headers };
}

/** JSON bodies parsed; anything else (a text/plain challenge, HTML) returned as its text. */
function parseBody(text: string, headers: Headers): unknown {
  const type = headers.get("content-type") ?? "";
  if (/json/i.test(type)) return JSON.parse(text);
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Calls a route handler with a Request the test built itself (exact bytes or headers), checks the
 * answer against the description as `call` does, and returns the Response (its body still unread).
 */
export async function send<P = Record<string, never>>(
  handler: (req: Request, segment: { params: Promise<P> }) => Promise<Response> | Response,
  req: Request,
  params?: P,
): Promise<Response> {
  const res = await handler(req, { params: Promise.resolve((params ?? {}) as P) });
  const streamed = /event-stream/i.test(res.headers.get("content-type") ?? "");
  const text = streamed ? null : await res.clone().text();
  await checkResponse(handler, { method: req.method, url: req.url, params: params ?? {} }, { status: res.status, headers: res.headers, text });
  return res;
}
