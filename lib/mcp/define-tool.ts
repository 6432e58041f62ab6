import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "pino";
import type { z } from "zod";
import type { MemberCtx } from "../context/verb-context";
import type { ToolOutcome } from "./result";

/** What every tool receives: the key's member as verb context (the same as a REST route's). */
export type ToolEnv = { ctx: MemberCtx; log: Logger; requestId: string };

/**
 * One tool: a strict zod input schema (the SDK answers bad arguments with a tool error before
 * `run`), a description written for an agent (what it does, when to use it, what refusals mean),
 * and the MCP hints. The annotations are hints to clients; the gates in `run` are the enforcement.
 */
export type ToolDefinition<S extends z.ZodObject = z.ZodObject> = {
  name: string;
  title: string;
  description: string;
  input: S;
  annotations: Required<Pick<ToolAnnotations, "readOnlyHint" | "destructiveHint" | "idempotentHint" | "openWorldHint">>;
  run(env: ToolEnv, args: z.output<S>): Promise<ToolOutcome>;
};

export function defineTool<S extends z.ZodObject>(t: ToolDefinition<S>): ToolDefinition<S> {
  return t;
}

export const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;
