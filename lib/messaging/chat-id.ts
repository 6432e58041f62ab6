import { z } from "zod";
import { emailAddressOfChatId, maskAddress } from "./email/address";

/**
 * Chat ids travel in queries and bodies, never in paths (they contain `@`). Any text up to 200
 * characters is accepted as a lookup key: an id that names no stored conversation is simply not
 * found, and ids only reach a gateway URL encoded as one path segment.
 */
export const ChatIdSchema = z
  .string()
  .min(1)
  .max(200)
  .meta({ description: "Chat id as returned in `conversations[].key.chatId` (for example `5511987654321@c.us`).", example: "5511987654321@c.us" });

/** The digits of a phone-form chat id (`<digits>@c.us`), else null. */
export function phoneDigitsOf(chatId: string): string | null {
  const m = /^(\d{6,20})@(c\.us|s\.whatsapp\.net)$/.exec(chatId);
  return m ? m[1] : null;
}

/**
 * `+55 •••• ••• 4321`: the country code, masked digits and the last four (spec 1 §2.5). Groups
 * and `@lid` ids have no phone to show: only their last four characters. E-mail chats: `c•••@example.com`.
 */
export function maskHandle(chatId: string): string {
  const address = emailAddressOfChatId(chatId);
  if (address) return maskAddress(address);
  const digits = phoneDigitsOf(chatId);
  if (!digits) {
    const local = chatId.split("@")[0] ?? "";
    return `•••${local.slice(-4)}`;
  }
  const cc = digits.startsWith("55") ? "55" : digits.startsWith("1") ? "1" : digits.slice(0, 2);
  const rest = digits.slice(cc.length);
  return `+${cc} ${"•".repeat(Math.max(0, rest.length - 4))}${rest.slice(-4)}`;
}

export function chatKind(chatId: string): "contact" | "group" {
  return chatId.endsWith("@g.us") ? "group" : "contact";
}
