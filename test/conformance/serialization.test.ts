// SPEC H1: the exact text of the stable serialization. The sha256 digest is the SHA-256 of this
// text (the digest OpenClaw uses), so its bytes are part of the contract, not only its equalities.
import { describe, expect, it } from "vitest";
import { quotedKeyCacheSize, stableSerialize } from "../../models/stableSerialize.js";

describe("H1 stable serialization, byte for byte", () => {
  const cyclic: Record<string, unknown> = { a: 1 };
  cyclic.self = cyclic;
  const nested: unknown[] = [1];
  nested.push([nested]);
  class Instance {
    x = 1;
    y = undefined;
  }
  it.each<[string, unknown, string]>([
    ["a string, JSON-quoted", 'a"b', '"a\\"b"'],
    ["a finite number", 1.5, "1.5"],
    ["minus zero", -0, "0"],
    ["NaN", Number.NaN, "#NaN"],
    ["infinity", Number.POSITIVE_INFINITY, "#Infinity"],
    ["minus infinity", Number.NEGATIVE_INFINITY, "#-Infinity"],
    ["true", true, "true"],
    ["false", false, "false"],
    ["undefined", undefined, "#undefined"],
    ["a bigint", 10n, "#10n"],
    ["a symbol", Symbol("s"), "#symbol(s)"],
    ["a symbol with no description", Symbol(), "#symbol()"],
    ["a function", () => 1, "#function"],
    ["null", null, "null"],
    ["an empty array", [], "[]"],
    ["an array, undefined kept in place", [1, "x", null, undefined], '[1,"x",null,#undefined]'],
    ["an empty record", {}, "{}"],
    ["keys sorted at every depth, undefined fields dropped", { b: 1, a: { d: [2], c: undefined } }, '{"a":{"d":[2]},"b":1}'],
    ["a single key", { only: 1 }, '{"only":1}'],
    ["a cycle, by distance to the ancestor", cyclic, '{"a":1,"self":#cycle(1)}'],
    ["a cycle through an array", nested, "[1,[#cycle(2)]]"],
    ["a cycle below the root, by distance to its own ancestor", { x: cyclic }, '{"x":{"a":1,"self":#cycle(1)}}'],
    ["a cycle two levels up, below the root", { top: nested }, '{"top":[1,[#cycle(2)]]}'],
    ["an error", new RangeError("bad"), '#error("RangeError","bad")'],
    ["a date", new Date(5), "#date(5)"],
    ["a map, entries in order", new Map([[1, { z: 1 }]]), '#map([[1,{"z":1}]])'],
    ["a set, values in order", new Set([2, 1]), "#set([2,1])"],
    ["a class instance, as its fields", new Instance(), '{"x":1}'],
    ["a record with no prototype", Object.create(null) as object, "{}"],
    ["a key that needs quoting", { 'k"q': 1 }, '{"k\\"q":1}'],
    ["numeric keys sort as text", { 1: "a", b: 2, a: 3 }, '{"1":"a","a":3,"b":2}'],
  ])("H1 %s", (_what, value, text) => {
    expect(stableSerialize(value)).toBe(text);
  });
  it("H1 the same object twice, side by side, is not a cycle", () => {
    const shared = { k: 1 };
    expect(stableSerialize([shared, shared])).toBe('[{"k":1},{"k":1}]');
    expect(stableSerialize({ a: shared, b: [shared] })).toBe('{"a":{"k":1},"b":[{"k":1}]}');
  });
  it("H1 many distinct keys serialize the same on first and later sight", () => {
    const keys = Array.from({ length: 5000 }, (_, i) => `key${i}`);
    const first = keys.map((k) => stableSerialize({ [k]: 1 }));
    expect(keys.map((k) => stableSerialize({ [k]: 1 }))).toEqual(first);
    expect(first[4999]).toBe('{"key4999":1}');
    // The cache of quoted keys fills up to its capacity and no further: endless distinct keys
    // (ids used as keys) must not grow memory without bound.
    expect(quotedKeyCacheSize()).toBe(4096);
  });
});
