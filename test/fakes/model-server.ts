import http from "node:http";
import type { AddressInfo } from "node:net";

/** One chat message as the OpenAI chat-completions format sends it. */
export type FakeChatMessage = {
  role: "system" | "user" | "assistant" | "tool" | string;
  content?: string | null | { type: string; text?: string }[];
  tool_calls?: { id: string; type: "function"; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
};

/** What the fake received: the parsed body's parts the scripts look at, and the whole body. */
export type FakeModelRequest = {
  model: string;
  messages: FakeChatMessage[];
  /** Tool names offered (`tools[].function.name`), in order. */
  toolNames: string[];
  tools: { type: "function"; function: { name: string; description?: string; parameters?: unknown } }[];
  stream: boolean;
  authorization: string | null;
  body: Record<string, unknown>;
};

type Usage = { inputTokens?: number; outputTokens?: number };

/** What a script answers: text, tool calls, an HTTP error, a 200 that is not JSON, or nothing ever. */
export type FakeModelReply =
  | { text: string; usage?: Usage }
  | { toolCalls: { name: string; arguments: unknown; id?: string }[]; text?: string; usage?: Usage }
  | { httpError: number; body?: unknown }
  | { garbage: string }
  | { hang: true };

/** Receives each request and its index (0 for the first the fake got) and scripts the answer. */
export type FakeModelScript = (req: FakeModelRequest, index: number) => FakeModelReply | Promise<FakeModelReply>;

export type FakeModelOptions = {
  /** The key the fake demands as `Authorization: Bearer <apiKey>` (401 otherwise); omit it to accept any or none. */
  apiKey?: string;
  /** Milliseconds every answer waits before it is sent (benchmarks use 200). */
  delayMs?: number;
  script?: FakeModelScript;
};

const DEFAULT_USAGE = { inputTokens: 12, outputTokens: 8 };

/** The last user message's text: what most scripts react to. */
export function lastUserText(req: FakeModelRequest): string {
  const m = [...req.messages].reverse().find((x) => x.role === "user");
  if (!m) return "";
  return typeof m.content === "string" ? m.content : (m.content ?? []).map((p) => p.text ?? "").join("");
}

function completion(model: string, reply: Extract<FakeModelReply, { text: string } | { toolCalls: unknown }>, n: number) {
  const usage = { ...DEFAULT_USAGE, ...reply.usage };
  const calls =
    "toolCalls" in reply
      ? reply.toolCalls.map((c, i) => ({
          id: c.id ?? `call_${n}_${i}`,
          type: "function" as const,
          function: { name: c.name, arguments: typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments ?? {}) },
        }))
      : undefined;
  return {
    message: { role: "assistant", content: reply.text ?? null, ...(calls ? { tool_calls: calls } : {}) },
    finish: calls ? "tool_calls" : "stop",
    usage: { prompt_tokens: usage.inputTokens, completion_tokens: usage.outputTokens, total_tokens: usage.inputTokens + usage.outputTokens },
    id: `chatcmpl-fake-${n}`,
    model,
  };
}

/**
 * An OpenAI-compatible chat-completions server on 127.0.0.1 (port 0) for tests and benchmarks:
 * `POST {url}/chat/completions` (url ends in `/v1`, as a provider's base URL does) answers what the
 * script says, as JSON, or as server-sent events when the request asks `stream: true`. It records
 * every request (`requests`), checks the bearer key when one is given, and can wait, hang, fail
 * with an HTTP status or answer garbage. `close` ends hanging answers too.
 */
export async function startFakeModel(opts: FakeModelOptions = {}) {
  let script: FakeModelScript = opts.script ?? (() => ({ text: "ok" }));
  let delayMs = opts.delayMs ?? 0;
  const requests: FakeModelRequest[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (req.method !== "POST" || !req.url?.replace(/\?.*$/, "").endsWith("/v1/chat/completions")) {
      return send(404, { error: { message: `no route ${req.method} ${req.url}`, type: "invalid_request_error" } });
    }
    const authorization = req.headers.authorization ?? null;
    if (opts.apiKey !== undefined && authorization !== `Bearer ${opts.apiKey}`) {
      return send(401, { error: { message: "Incorrect API key provided.", type: "invalid_request_error", code: "invalid_api_key" } });
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      return send(400, { error: { message: "body is not JSON", type: "invalid_request_error" } });
    }
    const tools = (body.tools as FakeModelRequest["tools"] | undefined) ?? [];
    const parsed: FakeModelRequest = {
      model: String(body.model),
      messages: (body.messages as FakeChatMessage[]) ?? [],
      tools,
      toolNames: tools.map((t) => t.function.name),
      stream: body.stream === true,
      authorization,
      body,
    };
    const n = requests.push(parsed) - 1;
    let reply: FakeModelReply;
    try {
      reply = await script(parsed, n);
    } catch (err) {
      return send(500, { error: { message: `fake model script failed: ${(err as Error).message}`, type: "server_error" } });
    }
    if ("hang" in reply) return; // Never answers: the caller's timeout must end it.
    if (delayMs > 0) await new Promise((ok) => setTimeout(ok, delayMs));
    if ("httpError" in reply) return send(reply.httpError, reply.body ?? { error: { message: `scripted ${reply.httpError}`, type: "server_error" } });
    if ("garbage" in reply) {
      res.writeHead(200, { "content-type": "application/json" });
      return res.end(reply.garbage);
    }
    const c = completion(parsed.model, reply, n);
    const created = Math.floor(Date.now() / 1000);
    if (!parsed.stream) {
      return send(200, {
        id: c.id,
        object: "chat.completion",
        created,
        model: c.model,
        choices: [{ index: 0, message: c.message, finish_reason: c.finish }],
        usage: c.usage,
      });
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const event = (choices: unknown[], extra: Record<string, unknown> = {}) => {
      res.write(`data: ${JSON.stringify({ id: c.id, object: "chat.completion.chunk", created, model: c.model, choices, ...extra })}\n\n`);
    };
    event([{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }]);
    if (c.message.content) event([{ index: 0, delta: { content: c.message.content }, finish_reason: null }]);
    const calls = (c.message as { tool_calls?: { id: string; type: string; function: { name: string; arguments: string } }[] }).tool_calls ?? [];
    for (const [index, call] of calls.entries()) event([{ index: 0, delta: { tool_calls: [{ index, ...call }] }, finish_reason: null }]);
    event([{ index: 0, delta: {}, finish_reason: c.finish }]);
    event([], { usage: c.usage });
    res.end("data: [DONE]\n\n");
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return {
    /** The base URL to configure (`http://127.0.0.1:<port>/v1`). */
    url,
    requests,
    setScript(fn: FakeModelScript) {
      script = fn;
    },
    setDelay(ms: number) {
      delayMs = ms;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}

export type FakeModel = Awaited<ReturnType<typeof startFakeModel>>;
