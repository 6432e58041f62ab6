import { request as httpRequest } from "node:http";
import type http from "node:http";

type PathTokenRoute = (req: Request, segment: { params: Promise<{ pathToken: string }> }) => Promise<Response>;

/**
 * A Node request listener in front of a `/api/webhooks/<kind>/[pathToken]` route, as production
 * serves it: the exact bytes, method and headers become a web `Request`, the token comes from the
 * path, and the route's answer is written back as JSON (with `answerHeaders`).
 */
export function pathTokenListener(post: PathTokenRoute, answerHeaders: Record<string, string> = {}): http.RequestListener {
  return (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const token = url.pathname.split("/")[4] ?? "";
      const request = new Request(url, { method: req.method, headers: req.headers as Record<string, string>, body: Buffer.concat(chunks) });
      const answer = await post(request, { params: Promise.resolve({ pathToken: token }) });
      res.writeHead(answer.status, { "content-type": "application/json", ...answerHeaders }).end(await answer.text());
    });
  };
}

/**
 * Posts a lead to a lead server on 127.0.0.1 (a fresh connection each time) and resolves with the
 * status, or 0 when no answer came (refused, reset, 10 s without one): what a portal would retry.
 */
export function postLead(port: number, pathToken: string, body: string): Promise<number> {
  return new Promise((resolve) => {
    const req = httpRequest({ host: "127.0.0.1", port, path: `/api/webhooks/channels/${pathToken}`, method: "POST", headers: { "content-type": "application/json" }, agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", () => resolve(0));
    req.setTimeout(10_000, () => req.destroy());
    req.end(body);
  });
}
