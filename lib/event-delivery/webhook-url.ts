import net from "node:net";
import { isLocalName, isPublicAddress, privateTargetsAllowed } from "../outbound-fetch/address-policy";

const isLoopbackOrPrivateHost = (hostname: string) => {
  const host = hostname.replace(/^\[|\]$/g, "");
  return isLocalName(host) || (net.isIP(host) !== 0 && !isPublicAddress(host));
};

/**
 * Why a webhook URL's form is not acceptable, or null. https everywhere; plain http only to a
 * loopback or private host, and only where private targets are allowed (development, test, or
 * WEBHOOKS_ALLOW_PRIVATE_URLS=true). Where the host's addresses may point is checked by
 * `assertPublicUrl` when saved and by the outbound guard on every connection.
 */
export function webhookUrlProblem(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "must be an absolute URL such as https://example.com/webhooks";
  }
  if (url.username || url.password) return "must not contain credentials; use the bearer option instead";
  if (url.protocol === "https:") return null;
  // Only mention plain http where this installation would accept it: production never does.
  if (url.protocol !== "http:" || !privateTargetsAllowed()) return "must use https: give an https:// address your server answers on";
  if (!isLoopbackOrPrivateHost(url.hostname)) return "must use https (this development installation accepts plain http only for a loopback or private address)";
  return null;
}
