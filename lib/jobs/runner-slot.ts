import { processGlobal } from "../util/process-global";

/** The embedded job runner of this process, if started: the graceful shutdown stops it. */
export const runnerSlot = () => processGlobal("embedded-runner", () => ({ runner: undefined as { stop: () => Promise<void> } | undefined }));
