/**
 * A site visitor's favourites in this browser (issue 37), shared by the hearts, the bar, the lead
 * form and the compare view: localStorage per site (`crm-fav:{siteId}`) and one random visitor id
 * per browser (`crm-visitor`, which the chat widget sends too). Every change is synced to
 * `POST /api/sites/{siteId}/visitors/{visitorId}/favourites`, so that when the visitor identifies
 * (lead form, chat, saved search, booking) the agency finds what they liked.
 */
type State = { ids: string[]; synced?: boolean; identified?: boolean };
type Extra = { viewed?: string[]; compared?: string[] };

const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const EVENT = "crm-favourites";
const MAX = 50;
const key = (siteId: string) => `crm-fav:${siteId}`;

function read(siteId: string): State {
  try {
    const s = JSON.parse(localStorage.getItem(key(siteId)) ?? "null") as State | null;
    return { ...s, ids: Array.isArray(s?.ids) ? s.ids.filter((v) => typeof v === "string" && ID.test(v)).slice(0, MAX) : [] };
  } catch {
    return { ids: [] };
  }
}

function write(siteId: string, s: State) {
  try {
    localStorage.setItem(key(siteId), JSON.stringify(s));
  } catch {
    /* private mode: this page only */
  }
  window.dispatchEvent(new CustomEvent(EVENT, { detail: siteId }));
}

export function visitorId(): string {
  let id: string | null = null;
  try {
    id = localStorage.getItem("crm-visitor");
  } catch {
    /* no storage */
  }
  if (id && ID.test(id)) return id;
  id = crypto.randomUUID();
  try {
    localStorage.setItem("crm-visitor", id);
  } catch {
    /* this page only */
  }
  return id;
}

export const favourites = (siteId: string) => read(siteId).ids;
export const isIdentified = (siteId: string) => Boolean(read(siteId).identified);

/** Calls `fn` whenever this site's list changes (in this tab or another). */
export function subscribe(siteId: string, fn: () => void): () => void {
  const own = (e: Event) => (e as CustomEvent).detail === siteId && fn();
  const other = (e: StorageEvent) => e.key === key(siteId) && fn();
  window.addEventListener(EVENT, own);
  window.addEventListener("storage", other);
  return () => {
    window.removeEventListener(EVENT, own);
    window.removeEventListener("storage", other);
  };
}

const timers = new Map<string, ReturnType<typeof setTimeout>>();

export function toggle(siteId: string, listingId: string) {
  const s = read(siteId);
  const ids = s.ids.includes(listingId) ? s.ids.filter((x) => x !== listingId) : [listingId, ...s.ids].slice(0, MAX);
  write(siteId, { ...s, ids });
  clearTimeout(timers.get(siteId));
  timers.set(
    siteId,
    setTimeout(() => void sync(siteId), 800),
  );
}

/** The visitor sends a form with its id: it is identified from now on, and the list goes first. */
export function identify(siteId: string) {
  clearTimeout(timers.get(siteId));
  write(siteId, { ...read(siteId), identified: true });
  void sync(siteId);
}

/**
 * Sends the list (and what was compared or viewed). A visitor with nothing to say sends nothing.
 * A listing the site no longer shows (400 `listing_not_available` naming `field.N`) leaves the
 * list and the rest is sent again, once.
 */
export async function sync(siteId: string, extra: Extra = {}, retried = false): Promise<void> {
  const s = read(siteId);
  if (!s.ids.length && !s.synced && !extra.viewed?.length && !extra.compared?.length) return;
  try {
    const res = await fetch(`/api/sites/${siteId}/visitors/${visitorId()}/favourites`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ listingIds: s.ids, ...extra }),
      keepalive: true,
    });
    const body = (await res.json().catch(() => null)) as { identified?: boolean; error?: { code?: string; message?: string } } | null;
    if (res.ok) {
      write(siteId, { ...read(siteId), synced: true, ...(body?.identified ? { identified: true } : {}) });
      return;
    }
    const m = body?.error?.code === "listing_not_available" ? /`(listingIds|viewed|compared)\.(\d+)`/.exec(body.error.message ?? "") : null;
    if (!m || retried) return;
    const list = m[1] === "listingIds" ? s.ids : (extra[m[1] as keyof Extra] ?? []);
    const gone = list[Number(m[2])];
    const now = read(siteId);
    write(siteId, { ...now, ids: now.ids.filter((x) => x !== gone) });
    const rest: Extra = {
      ...(extra.viewed ? { viewed: extra.viewed.filter((x) => x !== gone) } : {}),
      ...(extra.compared ? { compared: extra.compared.filter((x) => x !== gone) } : {}),
    };
    await sync(siteId, rest, true);
  } catch {
    /* offline: the next change syncs */
  }
}
