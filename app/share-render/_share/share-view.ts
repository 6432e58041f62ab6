import type { Locale } from "@/lib/i18n/locales";
import type { Translator } from "@/lib/i18n/translator";
import type { BrokerInput } from "@/lib/listings/view/broker-card";
import type { ShareAnswer } from "@/lib/share/share-page";

/**
 * What every share component reads: the resolved answer (spec 2 §2.8, as `resolveShare` returns
 * it) and where the page is. Nothing else, so what a recipient sees is what the resolve gave, and
 * the brokers' preview renders the same components with draft values.
 */
export type ShareView = {
  answer: ShareAnswer;
  locale: Locale;
  t: Translator;
  /** The page's path on this host, with its locale prefix: `/en/p/{token}`. */
  base: string;
  /** Whether the financing simulator may show (the spec's rule, decided by the caller from the host). */
  simulator: boolean;
  /** The simulator's inputs from the query string. */
  query?: Record<string, string | string[] | undefined>;
  /** Query parameters every link and form within the page keeps (the brokers' preview: its pick and draft). */
  keep?: [string, string][];
};

/** A path within the page (a listing of the shortlist, the way back), with the parameters the page keeps. */
export const pageLink = (view: Pick<ShareView, "keep">, path: string) => (view.keep?.length ? `${path}?${new URLSearchParams(view.keep).toString()}` : path);

/** The entity's broker as the resolve gives it (null when the link's rules hide the card). */
export const agentOf = (e: Record<string, unknown>): BrokerInput | null => (e.agent as BrokerInput | null | undefined) ?? null;

/** A listing inside a shortlist or an itinerary: `/p/{token}/l/{listingId}`. */
export const listingHref = (base: string, listingId: string) => `${base}/l/${encodeURIComponent(listingId)}`;

/** The broker's first WhatsApp message, naming what was shared. */
export const whatsappText = (t: Translator, title: string) => (title ? t("share.whatsappText", { title }) : t("share.whatsappTextPlain"));
