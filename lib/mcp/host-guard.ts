import { config } from "../config";

/** Always allowed: a local agent talking to a local server. */
const LOOPBACK = ["localhost", "127.0.0.1", "[::1]"];

type Allowed = { host: string; port: string | null };

function allowedList(): Allowed[] {
  const extra = (config().MCP_ALLOWED_HOSTS ?? "")
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  return [...LOOPBACK, ...extra].map((entry) => {
    const u = safeUrl(`http://${entry}`);
    return { host: u?.hostname ?? entry, port: u?.port || (/:\d+$/.test(entry) ? entry.split(":").pop()! : null) };
  });
}

function safeUrl(s: string): URL | null {
  try {
    return new URL(s);
  } catch {
    return null;
  }
}

/** `host[:port]` against the list: an entry without a port allows any port of that host. */
function hostAllowed(hostPort: string, list: Allowed[]): boolean {
  const u = safeUrl(`http://${hostPort}`);
  if (!u || u.username || u.password || u.pathname !== "/" || u.search) return false;
  const port = u.port || "80";
  return list.some((a) => a.host === u.hostname && (a.port === null || a.port === port));
}

/**
 * The DNS-rebinding guard of `/api/mcp`, checked before anything else (the SDK's transport does
 * not): a page on `evil.example` whose name was rebound to this server's address makes the browser
 * send `Host: evil.example` and `Origin: http://evil.example`, so both must name one of our hosts.
 * No `Origin` is fine: agents and server-side clients do not send one; a browser always does on
 * a cross-origin POST. Returns why the request is refused, or null.
 */
export function mcpRequestProblem(req: Request): string | null {
  const list = allowedList();
  const host = req.headers.get("host") ?? new URL(req.url).host;
  if (!hostAllowed(host.toLowerCase(), list)) {
    return `Host '${host.slice(0, 100)}' is not served by the tool interface; add it to MCP_ALLOWED_HOSTS to allow it.`;
  }
  const origin = req.headers.get("origin");
  if (origin === null) return null;
  const o = safeUrl(origin);
  if (
    !o ||
    (o.protocol !== "http:" && o.protocol !== "https:") ||
    !hostAllowed(
      o.host || "",
      list.map((a) => ({ ...a, port: null })),
    )
  ) {
    return `Origin '${origin.slice(0, 100)}' may not call the tool interface.`;
  }
  return null;
}
