/**
 * What a page's render tells the page cache about itself (lib/page-cache/page-lane.ts): the tags
 * of what it shows, and the listing view it counted. Our server puts a random token in a request
 * header it owns on every request it may cache; the site layout and the listing page note under
 * it; the server reads the note when the answer ends. Same process, same request, one map per
 * process (`processGlobal`: the pages are another bundle than our server). Only a page that
 * noted is stored, so route handlers (alert links, lead posts) and the 404 page never are.
 */
import { inArray } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { networkMembers } from "../../db/schema";
import { memberNetworkIds } from "../networks/networks";
import { processGlobal } from "../util/process-global";
import { siteTag, tenantTag } from "./invalidate";

export const RENDER_NOTE_HEADER = "x-page-render";

export type RenderNote = {
  tags: Set<string>;
  view?: { tenantId: string; listingId: string };
  /** The page shows something that changes with the clock alone: kept until then at most (epoch ms). */
  until?: number;
};

const notes = processGlobal("page-render-notes", () => new Map<string, RenderNote>());

/** Opens the note of a request our server may cache. */
export function openNote(token: string): void {
  notes.set(token, { tags: new Set() });
}

/** The note, removed (the answer ended). */
export function takeNote(token: string): RenderNote | undefined {
  const n = notes.get(token);
  notes.delete(token);
  return n;
}

/**
 * The site layout: the page shows this site and its tenant's data, and its partners' listings
 * when the site shows the network's (their changes must reach this page too).
 */
export async function noteSitePage(
  token: string | null,
  db: DbOrTx,
  site: { id: string; tenantId: string; includeNetworkListings?: boolean | null; chat?: { hours?: unknown } | null },
  now = Date.now(),
): Promise<void> {
  const note = token ? notes.get(token) : undefined;
  if (!note) return;
  note.tags.add(siteTag(site.id)).add(tenantTag(site.tenantId));
  // The chat launcher says online or offline by the chat's hours, which turn at a minute's start.
  if (site.chat?.hours) note.until = Math.min(note.until ?? Infinity, Math.floor(now / 60_000 + 1) * 60_000);
  if (!site.includeNetworkListings) return;
  const networks = await memberNetworkIds(db, site.tenantId);
  if (!networks.length) return;
  const partners = await db.selectDistinct({ id: networkMembers.tenantId }).from(networkMembers).where(inArray(networkMembers.networkId, networks));
  for (const p of partners) note.tags.add(tenantTag(p.id));
}

/** The listing page counted a view: a page served from the cache counts one too. */
export function noteListingView(token: string | null, view: { tenantId: string; listingId: string }): void {
  const note = token ? notes.get(token) : undefined;
  if (note) note.view = view;
}
