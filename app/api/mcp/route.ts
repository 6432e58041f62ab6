import { otherMethods } from "@/lib/http/method-not-allowed";
import { handleMcpRequest } from "@/lib/mcp/handle-request";

/**
 * The tool-calling (MCP) interface: Streamable HTTP, stateless, JSON answers. Only POST carries
 * messages: without sessions there is no server-to-client stream to open (GET) or session to end
 * (DELETE), and the MCP transport spec lets a server answer both with 405, which its clients expect.
 */
export const POST = (req: Request) => handleMcpRequest(req);

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, GET, HEAD, PUT, PATCH, DELETE } = otherMethods("POST");
