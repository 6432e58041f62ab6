import { and, eq } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../db/client";
import { messagingChannels, type ChatHours } from "../../db/schema";
import { invalid } from "../errors/domain-errors";
import { TimeZoneSchema } from "../schemas/time-zone";

const Time = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "must be HH:MM (24 h)");

export const ChatHoursSchema = z
  .strictObject({
    timeZone: TimeZoneSchema.default("America/Sao_Paulo"),
    weekly: z
      .array(
        z.strictObject({
          days: z.array(z.number().int().min(0).max(6)).min(1).max(7).meta({ description: "0 = Sunday … 6 = Saturday." }),
          from: Time,
          to: Time,
        }),
      )
      .max(14),
  })
  .meta({ description: "When someone answers. Outside these hours the widget shows `offlineMessage` (and still takes messages)." });

/** A site's chat (`chat` on the site): which web-chat channel answers, and what the widget says. */
export const SiteChatSchema = z
  .strictObject({
    channelId: z
      .uuid()
      .transform((v) => v.toLowerCase())
      .meta({ description: "A `web_chat` messaging channel of the tenant." }),
    greeting: z.string().trim().max(500).nullable().default(null).meta({ description: "First words of the widget; null: the default greeting." }),
    offlineMessage: z.string().trim().max(500).nullable().default(null).meta({ description: "Shown outside `hours`; null: the default message." }),
    hours: ChatHoursSchema.nullable().default(null).meta({ description: "Null: always shown as online." }),
  })
  .meta({ id: "SiteChat" });

/** A web chat must name one of the tenant's own `web_chat` channels (400 naming the field otherwise). */
export async function assertWebChatChannel(db: DbOrTx, tenantId: string, channelId: string, field: string): Promise<void> {
  const [c] = await db
    .select({ transport: messagingChannels.transport })
    .from(messagingChannels)
    .where(and(eq(messagingChannels.id, channelId), eq(messagingChannels.tenantId, tenantId)))
    .limit(1);
  if (!c) throw invalid(`${field}: '${channelId}' is not one of this tenant's messaging channels.`);
  if (c.transport !== "web_chat") throw invalid(`${field}: channel '${channelId}' is a '${c.transport}' channel, not 'web_chat'.`);
}

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

/** Whether `at` falls in the opening hours (no hours: always). A range whose `to` is before `from` runs past midnight. */
export function chatOnline(hours: ChatHours | null, at: Date = new Date()): boolean {
  if (!hours) return true;
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: hours.timeZone,
    weekday: "short",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(at);
  const day = WEEKDAYS.indexOf(parts.find((p) => p.type === "weekday")?.value ?? "");
  const now = Number(parts.find((p) => p.type === "hour")?.value) * 60 + Number(parts.find((p) => p.type === "minute")?.value);
  return hours.weekly.some((r) => {
    const from = minutes(r.from);
    const to = minutes(r.to);
    if (from <= to) return r.days.includes(day) && now >= from && now < to;
    return (r.days.includes(day) && now >= from) || (r.days.includes((day + 6) % 7) && now < to);
  });
}
