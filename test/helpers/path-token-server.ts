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
