import { timingSafeEqual } from "node:crypto";
import type { MarketingChannelInstanceRow } from "../../db/schema";
import { unauthorized } from "../errors/domain-errors";
import { hashToken } from "./channel-tokens";

/** The feeds of a channel take its feed token as Bearer; only its SHA-256 is stored, compared in constant time. */
export function verifyFeedToken(channel: MarketingChannelInstanceRow, headers: Headers): void {
  const sent = headers.get("authorization")?.match(/^Bearer\s+(\S+)$/)?.[1];
  const ok = Boolean(sent && channel.feedTokenHash) && timingSafeEqual(Buffer.from(hashToken(sent!)), Buffer.from(channel.feedTokenHash!));
  if (!ok) throw unauthorized("This feed needs the channel's feed token: Authorization: Bearer <feedToken> (rotate it in the channel's settings).");
}
