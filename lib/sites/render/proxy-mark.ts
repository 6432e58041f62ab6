import { randomUUID } from "node:crypto";
import { processGlobal } from "../../util/process-global";

/**
 * A value only this process knows, which the proxy puts on the requests it rewrote: the 404 page
 * trusts the site headers only next to it. Paths the proxy does not see (static files: its matcher
 * skips names ending in a file type's extension) reach the 404 page with whatever headers the
 * client sent.
 */
const mark = processGlobal("proxy-mark", () => randomUUID());
export const PROXY_MARK_HEADER = "x-site-proxy";
export const proxyMark = () => mark;
