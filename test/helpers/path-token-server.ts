import { request as httpRequest } from "node:http";
import type http from "node:http";
import { checkResponse } from "./contract";

type PathTokenRoute = (req: Request, segment: { params: Promise<{ pathToken: string }> }) => Promise<Response>;

/**
 * A Node request listener in front of a `/api/webhooks/<kind>/[pathToken]` route, as production
 * serves it: the exact bytes, method and headers become a web `Request`, the token comes from the
 * path, and the route's answer is written back as JSON (with `answerHeaders`). The answer is
 * checked against the OpenAPI description; a drift is thrown outside the request (an uncaught
 * error fails the run) after the answer is written, so the caller still sees what the route said.
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
      const text = await answer.text();
      res.writeHead(answer.status, { "content-type": "application/json", ...answerHeaders }).end(text);
      checkResponse(
        post,
        { method: req.method ?? "POST", url: url.href, params: { pathToken: token } },
        { status: answer.status, headers: answer.headers, text },
      ).catch((e: unknown) =>
        process.nextTick(() => {
          throw e;
        }),
      );
    });
  };
}

/**
 * Posts a lead to a lead server on 127.0.0.1 (a fresh connection each time) and resolves with the
 * status, or 0 when no answer came (refused, reset, 10 s without one): what a portal would retry.
 */
export function postLead(port: number, pathToken: string, body: string): Promise<number> {
  return new Promise((resolve) => {
    const req = httpRequest(
      { host: "127.0.0.1", port, path: `/api/webhooks/channels/${pathToken}`, method: "POST", headers: { "content-type": "application/json" }, agent: false },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", () => resolve(0));
    req.setTimeout(10_000, () => req.destroy());
    req.end(body);
  });
}
