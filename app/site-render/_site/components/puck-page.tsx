import { Render } from "@puckeditor/core";
import type { SiteView } from "../context";
import { puckConfig, BLOCK_TYPES, blockContexts } from "../puck/config";
import { renderablePage } from "../puck/page-data";

/** A page of `puck_data` rendered on the server with the site's blocks. */
export function PuckPage({
  site,
  data,
  page,
  path,
  query,
}: {
  site: SiteView;
  data: unknown;
  page: string;
  path: string;
  query: Record<string, string | string[] | undefined>;
}) {
  const { data: clean, firstId } = renderablePage(data, BLOCK_TYPES, { siteId: site.row.id, page, locale: site.locale });
  // Puck copies `metadata` into every block's props: it carries a key, the context stays in a
  // per-request store (the site view holds the database handle, which must not be walked).
  const ctxKey = `${page}:${blockContexts().size}`;
  blockContexts().set(ctxKey, { site, path, query });
  return <Render config={puckConfig} data={clean} metadata={{ ctxKey, firstId }} />;
}

/** What a site without a saved home page shows: search, featured and newest listings, a call to contact. */
export const DEFAULT_HOME = {
  root: { props: {} },
  content: [
    { type: "Hero", props: { id: "hero" } },
    { type: "FeaturedListings", props: { id: "featured", limit: 3 } },
    { type: "ListingGrid", props: { id: "latest", limit: 6 } },
    { type: "ContactForm", props: { id: "contact" } },
  ],
};

export const hasContent = (d: unknown) =>
  Boolean(d && typeof d === "object" && Array.isArray((d as { content?: unknown }).content) && (d as { content: unknown[] }).content.length);
