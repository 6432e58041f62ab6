import type { MessagingChannelRow } from "../../../db/schema";
import { config } from "../../config";
import { GatewayError } from "../providers/gateway-http";
import { adapterFor } from "../providers/adapter-for";
import type { ProviderMessage } from "../providers/types";

export const UNAVAILABLE_REASONS = [
  "feed_timeout",
  "feed_transport_unreachable",
  "feed_empty_pending_sync",
  "feed_history_not_on_provider",
  "feed_channel_not_connected",
  "feed_not_supported_on_channel",
  "conversation_feed_unavailable",
] as const;
export type UnavailableReason = (typeof UNAVAILABLE_REASONS)[number];

/** Spec 1 §8: an empty first page is "pending sync" while the last activity is younger than this. */
export const HISTORY_AGE_THRESHOLD_MS = 48 * 3600_000;
const NOT_CONNECTED = new Set(["error", "expired", "awaiting_auth"]);

export type HistoryPage =
  | { ok: true; messages: ProviderMessage[]; hasMore: boolean; nextBefore: string | null }
  | { ok: false; reason: UnavailableReason; retryable: boolean; retryAfterSeconds: number | null };

const fail = (reason: UnavailableReason, retryable: boolean, retryAfterSeconds: number | null): HistoryPage => ({
  ok: false,
  reason,
  retryable,
  retryAfterSeconds,
});

const newestFirst = (a: ProviderMessage, b: ProviderMessage) => b.timestamp - a.timestamp || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/**
 * One page of live history, strictly older than `before`, within the read budget (one internal
 * retry included). WAHA filters by whole seconds, inclusively: a page never splits the messages of
 * one second, so `nextBefore` (that second) followed as "strictly older" neither repeats nor skips
 * a message at the edge. When more than a page shares the page's last second, the whole second is
 * returned (a page may then exceed `limit`).
 */
export async function readHistory(
  channel: MessagingChannelRow,
  feedChatId: string,
  opts: { limit: number; before?: Date; lastActivityAt: Date },
): Promise<HistoryPage> {
  if (NOT_CONNECTED.has(channel.connectionState)) return fail("feed_channel_not_connected", false, null);
  const adapter = adapterFor(channel);
  if (!adapter.supportsHistory) return fail("feed_not_supported_on_channel", false, null);
  const budget = config().MESSAGING_HISTORY_BUDGET_MS;
  const deadline = Date.now() + budget;
  const beforeMs = opts.before?.getTime();
  const lte = beforeMs === undefined ? undefined : Math.ceil(beforeMs / 1000) - 1;

  // First attempt gets 60% of the budget so the retry still has time when the gateway hangs.
  const fetchPage = async (limit: number, lteSeconds: number | undefined): Promise<ProviderMessage[]> => {
    let lastErr: unknown;
    for (let attempt = 0; attempt < 2; attempt++) {
      const remaining = deadline - Date.now();
      if (remaining <= 20) break;
      const slice = attempt === 0 ? Math.max(50, Math.floor(remaining * 0.6)) : remaining;
      try {
        const list = await adapter.history(feedChatId, { limit, lteSeconds }, AbortSignal.timeout(slice));
        return list.filter((m) => beforeMs === undefined || m.timestamp * 1000 < beforeMs).sort(newestFirst);
      } catch (err) {
        lastErr = err;
        if (err instanceof GatewayError && err.kind === "not_found") return [];
      }
    }
    throw lastErr ?? new GatewayError("timeout", "budget spent");
  };

  let list: ProviderMessage[];
  try {
    list = await fetchPage(opts.limit + 1, lte);
    let messages = list.slice(0, opts.limit);
    const hasMore = list.length > opts.limit;
    if (hasMore && list[opts.limit].timestamp === messages[messages.length - 1].timestamp) {
      const edge = messages[messages.length - 1].timestamp;
      const newer = messages.filter((m) => m.timestamp > edge);
      messages = newer.length ? newer : (await fetchPage(1000, edge)).filter((m) => m.timestamp === edge);
    }
    if (!messages.length && beforeMs === undefined) {
      const recent = Date.now() - opts.lastActivityAt.getTime() < HISTORY_AGE_THRESHOLD_MS;
      return recent ? fail("feed_empty_pending_sync", true, 60) : fail("feed_history_not_on_provider", false, null);
    }
    const oldest = messages[messages.length - 1];
    return { ok: true, messages, hasMore: hasMore && Boolean(oldest), nextBefore: hasMore && oldest ? new Date(oldest.timestamp * 1000).toISOString() : null };
  } catch (err) {
    if (err instanceof GatewayError && err.kind === "timeout") return fail("feed_timeout", true, 5);
    return fail("feed_transport_unreachable", true, 30);
  }
}
