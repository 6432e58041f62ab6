import { getDb } from "@/db/client";
import { closePreviewSession, sessionCookie } from "@/lib/auth/preview-sessions";
import { checkedPost, formOf, secureCookies, seeOther } from "@/app/preview/_preview/responses";

/** `POST /preview/share/sign-out`: the session row is deleted and the cookie cleared. */
export async function POST(req: Request): Promise<Response> {
  const form = await formOf(req);
  const checked = await checkedPost(req, form);
  if (checked instanceof Response) return checked;
  await closePreviewSession(await getDb(), checked.token);
  return seeOther("/preview/share?signed_out=1", { "set-cookie": sessionCookie(null, secureCookies()) });
}
