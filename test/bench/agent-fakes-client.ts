import { fork } from "node:child_process";
import path from "node:path";
import { performance } from "node:perf_hooks";

/** Wall-clock milliseconds comparable with the fakes' process (`agent-fakes.ts`). */
export const wallNow = () => performance.timeOrigin + performance.now();

type Ready = { modelUrl: string; hookUrl: string; gateways: { url: string; apiKey: string; session: string }[] };
export type BenchGateway = Ready["gateways"][number] & {
  /** A signed WAHA `message` webhook for a new inbound message (stored in the gateway's chat history). */
  inbound(secret: string, chatId: string, text: string, extra?: object): Promise<{ body: string; headers: Record<string, string> }>;
};

/**
 * Starts the model, `gateways` WAHA gateways and a webhook receiver in a child process (see
 * `agent-fakes.ts` for why) and answers their addresses; `onSent` hears each reply a gateway gets,
 * with its wall-clock time, `received()` asks how many webhooks the receiver got, `cpuMs()` its CPU.
 */
export async function startAgentFakes(opts: { gateways: number; modelDelayMs: number }) {
  const child = fork(path.join(import.meta.dirname, "agent-fakes.ts"), [], {
    execArgv: ["--import", "tsx"],
    env: { ...process.env, BENCH_GATEWAYS: String(opts.gateways), BENCH_MODEL_DELAY_MS: String(opts.modelDelayMs) },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const pending = new Map<number, (m: Record<string, unknown>) => void>();
  const sentListeners: ((s: { gateway: number; chatId: string; at: number }) => void)[] = [];
  let ids = 0;
  const ask = <T>(m: object) =>
    new Promise<T>((resolve) => {
      const id = ++ids;
      pending.set(id, resolve as (m: Record<string, unknown>) => void);
      child.send({ id, ...m });
    });
  const ready = await new Promise<Ready>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the bench's fakes exited with ${code}`)));
    child.on("message", (m: { ready?: Ready; id?: number; sent?: { gateway: number; chatId: string; at: number } }) => {
      if (m.ready) resolve(m.ready);
      else if (m.sent) for (const l of sentListeners) l(m.sent);
      else if (m.id !== undefined) {
        pending.get(m.id)?.(m as Record<string, unknown>);
        pending.delete(m.id);
      }
    });
  });
  const gateways: BenchGateway[] = ready.gateways.map((g, gateway) => ({
    ...g,
    inbound: (secret, chatId, text, extra) => ask({ inbound: { gateway, secret, chatId, text, extra } }),
  }));
  return {
    modelUrl: ready.modelUrl,
    hookUrl: ready.hookUrl,
    gateways,
    onSent: (l: (s: { gateway: number; chatId: string; at: number }) => void) => sentListeners.push(l),
    received: async () => (await ask<{ count: number }>({ received: true })).count,
    /** CPU milliseconds the fakes' process used so far. */
    cpuMs: async () => (await ask<{ ms: number }>({ cpu: true })).ms,
    close: () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.disconnect();
      }),
  };
}
