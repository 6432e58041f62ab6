import { AsyncLocalStorage } from "node:async_hooks";
import { processGlobal } from "../util/process-global";

/** Fields every log line written in this async context carries (the logger's mixin reads them). */
export type LogFields = { reqId?: string; tenantId?: string };

// One store per process, shared by every bundle that imports this file (as the logger is).
const slot = processGlobal("log-context", () => ({ als: new AsyncLocalStorage<LogFields>() }));

/** Runs `fn` with `fields` added to every log line it writes, however deep (lines of jobs, verbs, hooks). */
export function withLogContext<T>(fields: LogFields, fn: () => T): T {
  return slot.als.run({ ...slot.als.getStore(), ...fields }, fn);
}

/** Adds fields to the current context (a request learns its tenant once its key is checked). */
export function noteLogContext(fields: LogFields): void {
  const store = slot.als.getStore();
  if (store) Object.assign(store, fields);
}

export function logContext(): LogFields {
  return slot.als.getStore() ?? {};
}
