import { setJobTransport } from "../lib/jobs/dispatch";
import { inngest } from "./client";

/** Lets `lib/jobs` send trigger events to Inngest without importing this folder. */
export function installInngestTransport(): void {
  setJobTransport(async (name, data) => {
    await inngest.send({ name, data: data as Record<string, unknown> });
  });
}
