import { getDb } from "@/db/client";
import { csrfMatches, previewSession, sameOrigin, sessionTokenOf, type PreviewSession } from "@/lib/auth/preview-sessions";
import { previewPage } from "./preview-page";

/** Small HTML answers of the preview's form posts (a refusal is a page with its status, never JSON). */
export function messagePage(status: number, title: string, text: string, back = "/preview/share"): Promise<Response> {
  return previewPage(
    title,
    <>
      <h1>{title}</h1>
      <p role="alert">{text}</p>
      <p>
        <a href={back}>Back to the share preview</a>
      </p>
    </>,
    status,
  );
}

export const seeOther = (location: string, extra: Record<string, string> = {}) =>
  new Response(null, { status: 303, headers: { location, "cache-control": "no-store", ...extra } });

/** Secure cookies in production; plain http on a developer's machine keeps working. */
export const secureCookies = () => process.env.NODE_ENV === "production";

export async function formOf(req: Request): Promise<URLSearchParams> {
  try {
    return new URLSearchParams((await req.text()).slice(0, 20_000));
  } catch {
    return new URLSearchParams();
  }
}

/**
 * A state-changing form post of a signed-in broker: same origin (Origin/Referer), the session's
 * CSRF token in the form, a live session. Otherwise the refusal page to answer.
 */
export async function checkedPost(req: Request, form: URLSearchParams): Promise<{ session: PreviewSession; token: string } | Response> {
  if (!sameOrigin(req.headers))
    return messagePage(
      403,
      "Request refused",
      "This form was not sent from the share preview's own page (cross-site requests are refused). Open the preview and try again.",
    );
  const token = sessionTokenOf(req.headers);
  const session = await previewSession(await getDb(), token);
  if (!session || !token)
    return messagePage(401, "Signed out", "Your preview session has ended (signed out, expired, or the API key was revoked). Sign in again with your API key.");
  if (!csrfMatches(token, form.get("csrf")))
    return messagePage(403, "Request refused", "The form's security token is missing or does not belong to your session. Reload the preview and try again.");
  return { session, token };
}
