import { describe, expect, it } from "vitest";
import { parseWahaWebhook } from "../../../lib/messaging/providers/waha";

const message = (from: unknown) => ({ event: "message", payload: { id: "m1", timestamp: 1795600000, from, body: "oi" } });

describe("parseWahaWebhook: the chat of a message", () => {
  it("is the sender's id when it is a string", () => {
    expect(parseWahaWebhook(message("5511911110000@c.us"))).toMatchObject([{ type: "message", chatId: "5511911110000@c.us" }]);
  });
  it("is no chat at all for a missing, null or object sender (not the chats 'null' or '[object Object]')", () => {
    for (const from of [undefined, null, { id: "x" }, "", ["a"]]) expect(parseWahaWebhook(message(from)), JSON.stringify(from)).toEqual([]);
  });
});
