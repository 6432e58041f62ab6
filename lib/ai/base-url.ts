import { privateTargetsAllowed } from "../outbound-fetch/address-policy";

/**
 * Why a model provider's base URL (the part before `/chat/completions`, such as
 * `https://api.openai.com/v1`) is not acceptable, or null. Where private targets are not allowed
 * (production without WEBHOOKS_ALLOW_PRIVATE_URLS=true) it must be https; where its host points is
 * checked by `assertPublicUrl` when saved and by the outbound guard on every call.
 */
export function aiBaseUrlProblem(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "must be an absolute URL such as https://api.openai.com/v1";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "must be an http(s) URL";
  if (url.username || url.password) return "must not contain credentials; send the key in `apiKey`";
  if (url.search || url.hash) return "must not have a query or fragment";
  if (/\/chat\/completions\/?$/.test(url.pathname)) return "must stop before `/chat/completions` (the client adds it), such as https://api.openai.com/v1";
  if (!privateTargetsAllowed() && url.protocol !== "https:") return "must use https";
  return null;
}

/** `host[:port]` of a stored base URL, as settings show it (never the path, which may carry an account id). */
export function baseUrlHost(raw: string | null | undefined): string | null {
  if (!raw) return null;
  try {
    return new URL(raw).host;
  } catch {
    return null;
  }
}
