import type { SiteView } from "../context";

type PixelEvent = "viewContent" | "search" | "lead";
const NAMES: Record<PixelEvent, string> = { viewContent: "ViewContent", search: "Search", lead: "Lead" };

const safe = (v: unknown) => JSON.stringify(v).replace(/</g, "\\u003c");

/**
 * Meta Pixel, only when the site configures one (`metaPixel.pixelId`): the base code with
 * PageView. Without it no third-party script is on any page.
 */
export function MetaPixelBase({ site }: { site: SiteView }) {
  const pixel = site.config.metaPixel;
  if (!pixel || site.preview) return null;
  const code = `!function(f,b,e,v,n,t,s){if(f.fbq)return;n=f.fbq=function(){n.callMethod?n.callMethod.apply(n,arguments):n.queue.push(arguments)};if(!f._fbq)f._fbq=n;n.push=n;n.loaded=!0;n.version='2.0';n.queue=[];t=b.createElement(e);t.async=!0;t.src=v;s=b.getElementsByTagName(e)[0];s.parentNode.insertBefore(t,s)}(window,document,'script','https://connect.facebook.net/en_US/fbevents.js');fbq('init',${safe(pixel.pixelId)});fbq('track','PageView');`;
  return <script dangerouslySetInnerHTML={{ __html: code }} />;
}

/** One standard event (`ViewContent`, `Search`, `Lead`) when the site enables it. */
export function MetaPixelEvent({ site, event, data }: { site: SiteView; event: PixelEvent; data?: Record<string, unknown> }) {
  const pixel = site.config.metaPixel;
  if (!pixel || site.preview || !pixel.events[event]) return null;
  const code = `window.fbq&&fbq('track',${safe(NAMES[event])}${data ? `,${safe(data)}` : ""});`;
  return <script dangerouslySetInnerHTML={{ __html: code }} />;
}
