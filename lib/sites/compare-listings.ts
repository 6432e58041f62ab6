import type { DbOrTx } from "../../db/client";
import type { SiteRow } from "../../db/schema";
import { UUID_PATTERN } from "../schemas/uuid";
import { findSiteListings } from "./find-site-listing";
import { toPublicDocument } from "./public-document";

export const MAX_COMPARE = 4;

/**
 * The compare view's listings from its `ids` query (comma-separated UUIDs, in the visitor's
 * order): the first 4 the site shows, as public detail documents (the allow-list). Ids that are
 * not UUIDs are ignored; `missing` counts the well-formed ones the site does not show (any more).
 */
export async function compareListings(db: DbOrTx, site: SiteRow, raw: string | undefined) {
  const ids = [
    ...new Set(
      (raw ?? "")
        .split(",")
        .map((s) => s.trim().toLowerCase())
        .filter((s) => UUID_PATTERN.test(s)),
    ),
  ];
  const wanted = ids.slice(0, MAX_COMPARE);
  const hits = await findSiteListings(db, site, wanted);
  const byId = new Map(hits.map((h) => [String(h.document.id), h]));
  const docs = wanted.flatMap((id) => {
    const h = byId.get(id);
    return h ? [toPublicDocument(h.document, { detail: true })] : [];
  });
  return { docs, missing: wanted.length - docs.length, more: ids.length > MAX_COMPARE };
}
