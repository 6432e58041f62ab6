import { z } from "zod";

/**
 * A JSON-RPC answer of `POST /api/mcp` as the SDK's transport writes it (`handle-request.ts`); the
 * tools' results are described by `tools/list`. Kept apart from the handler so the API description
 * does not load the MCP server to name it.
 */
export const McpAnswerSchema = z.object({
  jsonrpc: z.literal("2.0"),
  id: z.union([z.string(), z.number()]).nullable(),
  result: z.record(z.string(), z.unknown()).optional(),
  error: z.object({ code: z.number(), message: z.string() }).optional(),
});
