import { describe, expect, it } from "vitest";
import { json } from "../../../lib/http/run";
import { writtenBody } from "../../../lib/http/written-body";

describe("json() answers carry their text for the server's lane", () => {
  it("keeps the JSON text beside a Response that still reads the same, as Response.json would make it", async () => {
    const body = { message: { id: "x", text: 'diz "oi" 🏠\u2028' } };
    const res = json(body, 201, { "x-request-id": "r1" });
    expect(writtenBody(res)).toBe(JSON.stringify(body));
    const same = Response.json(body, { status: 201, headers: { "x-request-id": "r1" } });
    expect(res.status).toBe(same.status);
    expect([...res.headers]).toEqual([...same.headers]);
    expect(await res.text()).toBe(await same.text());
    // Once read, the lane reads nothing from the side: the body is the only truth.
    expect(writtenBody(res)).toBeUndefined();
  });

  it("keeps a content type the caller gives, and refuses what is not JSON as Response.json does", () => {
    expect(json({ a: 1 }, 200, { "content-type": "application/problem+json" }).headers.get("content-type")).toBe("application/problem+json");
    expect(() => json(undefined)).toThrow(TypeError);
    expect(() => Response.json(undefined)).toThrow(TypeError);
  });
});
