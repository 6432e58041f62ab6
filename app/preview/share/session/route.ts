import { getDb } from "@/db/client";
import { DomainError } from "@/lib/errors/domain-errors";
import { openPreviewSession, sameOrigin, sessionCookie } from "@/lib/auth/preview-sessions";
import { formOf, messagePage, secureCookies, seeOther } from "@/app/preview/_preview/responses";

/**
 * `POST /preview/share/session`: the broker's API key (typed once in the sign-in form) becomes a
 * session cookie; the key itself is never stored in the browser. Same-origin posts only (no
 * signing someone into another's session from a foreign page).
 */
export async function POST(req: Request): Promise<Response> {
  if (!sameOrigin(req.headers)) return messagePage(403, "Request refused", "Sign in from the share preview's own page (cross-site requests are refused).");
  const form = await formOf(req);
  try {
    const { token } = await openPreviewSession(await getDb(), form.get("apiKey") ?? "");
    return seeOther("/preview/share", { "set-cookie": sessionCookie(token, secureCookies()) });
  } catch (err) {
    if (err instanceof DomainError && err.kind === "unauthorized") return seeOther("/preview/share?error=invalid_key");
    throw err;
  }
}
