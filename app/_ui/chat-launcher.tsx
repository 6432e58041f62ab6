import type { Locale } from "@/lib/i18n/locales";
import { translator } from "@/lib/i18n/translator";

export type ChatLauncherProps = {
  /** `/api/sites/{siteId}/chat` or `/api/sites/share/{token}/chat`. */
  api: string;
  locale: Locale;
  agencyName: string;
  greeting: string | null;
  offlineMessage: string | null;
  online: boolean;
  listingId?: string | null;
  /** Above a bar fixed at the page's bottom (the share page's contact bar). */
  raised?: boolean;
};

/** The launcher's own look: fixed in a corner, at least 44 px, in the page's brand colour when it has one. */
const CSS =
  ".wc-open{position:fixed;right:16px;bottom:16px;z-index:50;min-height:48px;padding:0 18px;border:0;border-radius:24px;" +
  "background:var(--brand,#0b5cad);color:var(--on-brand,#fff);font:600 16px/1 system-ui,sans-serif;box-shadow:0 2px 8px rgba(0,0,0,.25);cursor:pointer}" +
  ".wc-open:focus-visible{outline:3px solid #111;outline-offset:3px}#wc[data-raised] .wc-open{bottom:84px}";

/**
 * The web-chat button of a site or share page: a plain button and a small deferred script
 * (`/chat/launcher.js`, under 1 KB) that loads the chat itself (`/chat/widget.js`) only when the
 * visitor opens it, so the page's first paint never waits for the chat. Every text the widget
 * shows travels here, translated, in data attributes: one translator and one message file for both.
 */
export function ChatLauncher(p: ChatLauncherProps) {
  const t = translator(p.locale, "chat");
  const name = p.agencyName;
  const texts = {
    title: t("title", { name }),
    close: t("close"),
    log: t("log"),
    you: t("you"),
    agency: t("agency", { name }),
    message: t("message"),
    send: t("send"),
    contact: t("contact"),
    name: t("name"),
    email: t("email"),
    phone: t("phone"),
    consent: t("consent", { name }),
    sending: t("sending"),
    failed: t("failed"),
    limited: t("limited"),
    newMessage: t("newMessage", { name }),
    greeting: p.greeting || t("greeting"),
    offline: p.offlineMessage || t("offline"),
  };
  return (
    <div
      id="wc"
      data-api={p.api}
      data-online={p.online ? "1" : "0"}
      data-locale={p.locale}
      data-listing={p.listingId ?? ""}
      data-raised={p.raised ? "" : undefined}
      data-text={JSON.stringify(texts)}
    >
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: our own constant CSS; share pages allow only inline styles */}
      <style dangerouslySetInnerHTML={{ __html: CSS }} />
      <button type="button" className="wc-open" aria-haspopup="dialog" aria-expanded="false" aria-controls="wc-panel" data-wc-open="">
        {t("open")}
      </button>
      <script src="/chat/launcher.js" defer />
    </div>
  );
}
