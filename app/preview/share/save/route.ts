import { getDb } from "@/db/client";
import { memberCtx } from "@/lib/context/verb-context";
import { DomainError } from "@/lib/errors/domain-errors";
import { draftFromForm, saveDraft } from "@/lib/share/share-preview";
import { checkedPost, formOf, messagePage, seeOther } from "@/app/preview/_preview/responses";

/**
 * `POST /preview/share/save`: the draft branding and share configuration become the tenant's
 * settings (owner or admin broad keys only: everyone else gets a 403 page saying so).
 */
export async function POST(req: Request): Promise<Response> {
  const form = await formOf(req);
  const checked = await checkedPost(req, form);
  if (checked instanceof Response) return checked;
  const back = new URLSearchParams();
  for (const k of ["pick"]) if (form.get(k)) back.set(k, form.get(k)!);
  try {
    await saveDraft(memberCtx(await getDb(), checked.session.actor), draftFromForm(form));
  } catch (err) {
    if (err instanceof DomainError && err.kind === "forbidden")
      return messagePage(403, "Not allowed to save", err.message, `/preview/share?${form.toString().replace(/(^|&)csrf=[^&]*/, "")}`);
    if (err instanceof DomainError && (err.kind === "invalid" || err.kind === "conflict"))
      return messagePage(400, "Not saved", `The draft is not valid: ${err.message}`);
    throw err;
  }
  back.set("saved", "1");
  return seeOther(`/preview/share?${back.toString()}`);
}
