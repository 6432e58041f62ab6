import { Inngest } from "inngest";

/**
 * The Inngest client. Functions (one per file in `inngest/functions/`) stay thin wrappers over
 * `lib/`; when no Inngest server is configured, `lib/jobs` runs the same work in-process.
 */
export const inngest = new Inngest({ id: "imobi-crm" });
