type Handler<P> = (req: Request, segment?: { params: Promise<P> }) => Promise<Response>;

export type CallOptions<P> = {
  key?: string | null;
  body?: unknown;
  rawBody?: string;
  params?: P;
  query?: Record<string, string | string[]>;
  headers?: Record<string, string>;
};

/** Calls an exported route handler with a real Request, as Next.js would. */
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
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
}
