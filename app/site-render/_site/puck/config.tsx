import type { Config } from "@puckeditor/core";
import { cache } from "react";
import { CmsListBlock, ContactBlock, CtaBlock, guarded, HeroBlock, ImageBlock, ListingGridBlock, RichTextBlock, TextBlock, type BlockCtx } from "./blocks";

/**
 * The Puck configuration of rendered sites: the components a page editor can place and their
 * fields. Rendering happens on the server (`Render` from `@puckeditor/core`'s react-server build);
 * each block gets the request's site through Puck's `metadata`. Rich text is declared as a
 * `textarea` holding HTML and rendered through our allow-list (components/rich-text.tsx), never
 * as raw HTML.
 */
type Any = Record<string, unknown> & { id?: string; puck?: { metadata?: Record<string, unknown> } };
/** The block contexts of this request (React `cache` is per request on the server). */
export const blockContexts = cache(() => new Map<string, BlockCtx>());
const ctxOf = (props: Any) => blockContexts().get(String(props.puck?.metadata?.ctxKey)) as BlockCtx;
const firstId = (props: Any) => props.puck?.metadata?.firstId as string | undefined;

const text = { type: "text" } as const;
const textarea = { type: "textarea" } as const;
const num = { type: "number" } as const;

export const siteBlocks = {
  Hero: {
    fields: {
      title: text,
      subtitle: textarea,
      showSearch: {
        type: "radio",
        options: [
          { label: "Yes", value: true },
          { label: "No", value: false },
        ],
      },
    },
    render: (p: Any) => guarded("Hero", ctxOf(p).site, async () => <HeroBlock p={p} ctx={ctxOf(p)} first={firstId(p) === p.id} />),
  },
  ListingGrid: {
    fields: {
      title: text,
      businessType: {
        type: "select",
        options: [
          { label: "Any", value: "" },
          { label: "Sale", value: "sale" },
          { label: "Rental", value: "rental" },
        ],
      },
      propertyType: text,
      city: text,
      limit: num,
      sort: {
        type: "select",
        options: [
          { label: "Newest", value: "newest" },
          { label: "Price ascending", value: "price_asc" },
          { label: "Price descending", value: "price_desc" },
        ],
      },
    },
    render: (p: Any) => guarded("ListingGrid", ctxOf(p).site, async () => <ListingGridBlock p={p} ctx={ctxOf(p)} featured={false} />),
  },
  FeaturedListings: {
    fields: { title: text, listingCodes: text, limit: num },
    render: (p: Any) => guarded("FeaturedListings", ctxOf(p).site, async () => <ListingGridBlock p={p} ctx={ctxOf(p)} featured />),
  },
  Text: { fields: { title: text, text: textarea }, render: (p: Any) => <TextBlock p={p} /> },
  RichText: { fields: { content: textarea }, render: (p: Any) => <RichTextBlock p={p} /> },
  Image: { fields: { src: text, alt: text, width: num, height: num, caption: text }, render: (p: Any) => <ImageBlock p={p} /> },
  CmsList: {
    fields: { title: text, collection: text, limit: num },
    render: (p: Any) => guarded("CmsList", ctxOf(p).site, async () => <CmsListBlock p={p} ctx={ctxOf(p)} />),
  },
  CallToAction: { fields: { title: text, text: textarea, buttonLabel: text, buttonHref: text }, render: (p: Any) => <CtaBlock p={p} ctx={ctxOf(p)} /> },
  ContactForm: {
    fields: { title: text },
    render: (p: Any) => guarded("ContactForm", ctxOf(p).site, async () => <ContactBlock p={p} ctx={ctxOf(p)} />),
  },
};

export const BLOCK_TYPES = new Set(Object.keys(siteBlocks));

export const puckConfig = { components: siteBlocks } as unknown as Config;
