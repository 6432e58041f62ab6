import ipaddr from "ipaddr.js";
import { isPublicAddress, privateTargetsAllowed } from "../webhooks/url-guard";

/**
 * Why a gateway base URL is not acceptable, or null. Where private targets are not allowed
 * (production without WEBHOOKS_ALLOW_PRIVATE_URLS=true) it must be https to a public host; names
 * that resolve to private addresses are refused again at connect time (gateway-http.ts).
 */
export function gatewayUrlProblem(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "must be an absolute URL such as https://waha.example.com";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "must be an http(s) URL";
  if (url.username || url.password) return "must not contain credentials; send the gateway key in `apiKey`";
  if (url.search || url.hash) return "must not have a query or fragment";
  if (privateTargetsAllowed()) return null;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const local = host === "localhost" || host.endsWith(".localhost") || (ipaddr.isValid(host) && !isPublicAddress(host));
  if (local) return "must not be a private or loopback address (set WEBHOOKS_ALLOW_PRIVATE_URLS=true for a gateway on an internal network)";
  if (url.protocol !== "https:") return "must use https";
  return null;
}
