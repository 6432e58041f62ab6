import { assertPublicUrl } from "../outbound-fetch/assert-public-url";
import { privateTargetsAllowed } from "../outbound-fetch/address-policy";

/**
 * Why a gateway base URL's form is not acceptable, or null. Where private targets are not allowed
 * (production without WEBHOOKS_ALLOW_PRIVATE_URLS=true) it must be https; where its host points is
 * checked by `assertGatewayUrl` when saved and by the outbound guard on every call.
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
  if (!privateTargetsAllowed() && url.protocol !== "https:") return "must use https";
  return null;
}

/** A 400 naming `baseUrl` when the gateway's host is, or resolves to, an address the outbound guard refuses. */
export const assertGatewayUrl = (raw: string) => assertPublicUrl("baseUrl", raw, "a gateway on an internal network");
