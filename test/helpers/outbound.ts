import dns from "node:dns";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { vi } from "vitest";
import { resetConfigForTests } from "../../lib/config";

/** A 1×1 transparent PNG: what the listener answers for an image. */
export const PNG_1PX = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=", "base64");

export type Listener = { port: number; origin: string; connections: number; requests: string[]; close: () => Promise<void> };

/**
 * An HTTP server on `host` (127.0.0.1 by default) that counts TCP connections as they are
 * accepted, before any byte is read, and answers what each sink expects: an image under `/img`,
 * a Nominatim hit under `/search`, JSON otherwise. `respond` may answer first (a redirect).
 */
export async function startListener(host = "127.0.0.1", respond?: (req: http.IncomingMessage, res: http.ServerResponse) => boolean): Promise<Listener> {
  const l = { connections: 0, requests: [] as string[] } as Listener;
  const server = http.createServer((req, res) => {
    l.requests.push(req.url ?? "");
    if (respond?.(req, res)) return;
    if (req.url?.startsWith("/img")) return res.writeHead(200, { "content-type": "image/png" }).end(PNG_1PX);
    if (req.url?.startsWith("/search")) return res.writeHead(200, { "content-type": "application/json" }).end('[{"lat":"-23.5","lon":"-46.6"}]');
    res.writeHead(200, { "content-type": "application/json" }).end('{"status":"WORKING","messages":[{"id":"wamid.1"}]}');
  });
  server.on("connection", () => l.connections++);
  server.keepAliveTimeout = 500;
  await new Promise<void>((ok) => server.listen(0, host, ok));
  l.port = (server.address() as AddressInfo).port;
  l.origin = `http://${host}:${l.port}`;
  l.close = () =>
    new Promise<void>((ok) => {
      server.closeAllConnections();
      server.close(() => ok());
    });
  return l;
}

/** NODE_ENV=production semantics with WEBHOOKS_ALLOW_PRIVATE_URLS as given (the switch). */
export function production(allowPrivate: boolean) {
  vi.stubEnv("NODE_ENV", "production");
  vi.stubEnv("WEBHOOKS_ALLOW_PRIVATE_URLS", allowPrivate ? "true" : "false");
  resetConfigForTests();
}

/**
 * Names that resolve offline: `answers` maps a host to the addresses dns.lookup gives for it (the
 * guard's lookup and the save-time check both ask dns.lookup); other names resolve as usual, and a
 * host mapped to `null` does not resolve. Undo with vi.restoreAllMocks().
 */
export function fakeDns(answers: Record<string, string[] | null>) {
  const real = dns.lookup.bind(dns);
  const realPromise = dns.promises.lookup.bind(dns.promises);
  const answer = (host: string) => {
    const list = answers[host];
    if (list === null) return Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
    return list.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
  vi.spyOn(dns, "lookup").mockImplementation(((host: string, options: unknown, callback: unknown) => {
    const cb = (typeof options === "function" ? options : callback) as (e: Error | null, a?: unknown, f?: number) => void;
    const opts = (typeof options === "object" && options) || {};
    if (!(host in answers)) return (real as (...a: unknown[]) => void)(host, opts, cb);
    const r = answer(host);
    setImmediate(() => {
      if (r instanceof Error) return cb(r);
      if ((opts as dns.LookupOptions).all) return cb(null, r);
      cb(null, r[0].address, r[0].family);
    });
  }) as never);
  vi.spyOn(dns.promises, "lookup").mockImplementation((async (host: string, options?: dns.LookupOptions) => {
    if (!(host in answers)) return realPromise(host, options ?? {});
    const r = answer(host);
    if (r instanceof Error) throw r;
    return options?.all ? r : r[0];
  }) as never);
}
