import { DrizzleQueryError } from "drizzle-orm/errors";
import { describe, expect, it } from "vitest";
import { errorText } from "../../lib/errors/error-text";
import { withoutParams } from "../../lib/log/logger";
import { parseCatalogue } from "../../lib/sites/render/catalogue-query";
import { storableJson, storableKey, storableText } from "../../lib/util/storable-text";

describe("storableText and storableJson", () => {
  it("drops NUL and replaces lone surrogates, keeping pairs and other text", () => {
    expect(storableText("A\u0000B")).toBe("AB");
    expect(storableText("x\ud800y")).toBe("x\uFFFDy");
    expect(storableText("😀 São")).toBe("😀 São");
  });
  it("cleans strings and keys at any depth, in arrays too", () => {
    const v = storableJson(JSON.parse('{"a\\u0000":"\\ud800","b":[{"c":"x\\u0000"}],"n":1,"z":null}'));
    expect(v).toEqual({ a: "\uFFFD", b: [{ c: "x" }], n: 1, z: null });
    expect(storableJson("\u0000")).toBe("");
  });
});

describe("errorText and the logger keep a failed query's parameters out", () => {
  const err = new DrizzleQueryError(
    'insert into "inbound_leads" values ($1, $2)',
    ["Maria\u0000", "maria@example.com\nsecond line"],
    new Error("invalid byte sequence"),
  );
  it("stores the query and the cause, never the parameters, and nothing PostgreSQL cannot store", () => {
    const text = errorText(err);
    expect(text).toContain('insert into "inbound_leads"');
    expect(text).toContain("invalid byte sequence");
    expect(text).not.toContain("maria@example.com");
    expect(text).not.toContain("second line");
    expect(text).not.toContain("\u0000");
    expect(errorText("plain", 3)).toBe("pla");
  });
  it("redacts parameters from the logged message and the whole of the stack's message", () => {
    const out = withoutParams({ message: err.message, stack: err.stack });
    expect(out.message).not.toContain("maria@example.com");
    expect(out.stack).not.toContain("maria@example.com");
    expect(out.stack).not.toContain("second line");
    expect(out.stack).toMatch(/\n\s+at /);
    // A parameter that looks like a stack frame does not end the redaction early.
    const tricky = new DrizzleQueryError("select $1", ["x\n    at secret-value@example.com"], new Error("boom"));
    expect(withoutParams({ message: tricky.message, stack: tricky.stack }).stack).not.toContain("secret-value");
  });
  it("keeps a dedupe key distinct instead of cleaning it", () => {
    expect(storableKey("o\ud800")).not.toBe(storableKey("o\ud801"));
    expect(storableKey("a\u0000b")).not.toBe(storableKey("ab"));
    expect(storableKey("portal-1")).toBe("portal-1");
    expect(storableText(storableKey("o\ud800"))).toBe(storableKey("o\ud800"));
  });
  it("drops a key that would become __proto__ instead of changing the prototype", () => {
    const v = storableJson(JSON.parse('{"__proto__\\u0000":{"admin":true},"a":1}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect((v as { admin?: boolean }).admin).toBeUndefined();
    expect(v).toEqual({ a: 1 });
  });
});

describe("catalogue values that the search would refuse are dropped", () => {
  it("drops places of only punctuation or control characters, and keeps real ones", () => {
    for (const bad of ["-", ".", "!!", "\u0000", "\u200b", "..\\..", "\u0085"])
      expect(parseCatalogue({ city: bad, neighborhood: bad }), JSON.stringify(bad)).toMatchObject({ city: undefined, neighborhood: undefined });
    expect(parseCatalogue({ city: "São\u0000 Paulo" }).city).toBe("São Paulo");
    expect(parseCatalogue({ neighborhood: "Vila-Madalena" }).neighborhood).toBe("Vila-Madalena");
    // A control character separates words (a tab typed into the search box).
    expect(parseCatalogue({ q: "casa\tpraia" }).q).toBe("casa praia");
  });
  it("takes only its own sort keys, not an object's inherited ones", () => {
    for (const bad of ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"]) expect(parseCatalogue({ sort: bad }).sort, bad).toBe("newest");
    expect(parseCatalogue({ sort: "price_asc" }).sort).toBe("price_asc");
  });
});
