import http from "node:http";
import type { AddressInfo } from "node:net";
import sharp from "sharp";

/** A photograph-like JPEG (noise, so it weighs something) of `width` × `height`, made in the test. */
export async function makeJpeg(width = 1800, height = 1200, seed = 1): Promise<Buffer> {
  return sharp({
    create: { width, height, channels: 3, background: { r: 120 + seed * 10, g: 140, b: 160 }, noise: { type: "gaussian", mean: 128, sigma: 30 } },
  })
    .jpeg({ quality: 85 })
    .toBuffer();
}

export type PhotoServer = {
  origin: string;
  hits: (path: string) => number;
  set: (path: string, answer: Answer) => void;
  /** An answer decided per request (conditional requests). */
  respond: (path: string, answer: (req: http.IncomingMessage) => Answer) => void;
  close: () => Promise<void>;
};
type Answer = { status?: number; type?: string; body?: Buffer; headers?: Record<string, string>; hang?: boolean };

/** Photos on 127.0.0.1 (port 0), each path answering what the test set, counting the requests per path. */
export async function startPhotoServer(): Promise<PhotoServer> {
  const answers = new Map<string, Answer | ((req: http.IncomingMessage) => Answer)>();
  const counts = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const path = req.url ?? "";
    counts.set(path, (counts.get(path) ?? 0) + 1);
    const given = answers.get(path);
    const a = typeof given === "function" ? given(req) : given;
    if (!a) return void res.writeHead(404).end();
    if (a.hang) return; // never answers: the fetch's deadline must end it
    res.writeHead(a.status ?? 200, { "content-type": a.type ?? "image/jpeg", ...a.headers }).end(a.body);
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits: (path) => counts.get(path) ?? 0,
    set: (path, answer) => void answers.set(path, answer),
    respond: (path, answer) => void answers.set(path, answer),
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
