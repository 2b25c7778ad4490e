// The walk digest must identify exactly the values the stable serialization identifies: the
// engine's verdicts depend on digest equality, so a digest that merged two different params (or
// split two equal ones) would change verdicts. Values come from a small domain so that equal and
// nearly equal pairs are frequent, plus pairs that differ only in key order or undefined fields.
import fc from "fast-check";
import { expect, it } from "vitest";
import { stableSerialize } from "../models/stableSerialize.js";
import { walkDigestText, walkDigestValue } from "../models/walkDigest.js";
import { CallIdentities, argsHash, sameJsonValue } from "../models/callHash.js";
import { digestNamed, type Digest } from "../models/digest.js";
import { assertProperty } from "./support.js";

const TEST_FILE = "properties/digestEquivalence.test.ts";

const leaf = fc.constantFrom<unknown>(0, -0, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1, 1.5, 2 ** 53, "1", "", "a", "ab", "ba", "é", "\u0000", true, false, null, undefined, 1n, -1n);

const { value } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leaf,
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom("a", "b", "c", "ab"), tie("value"), { maxKeys: 3 }),
    fc.dictionary(fc.constantFrom("a", "b"), tie("value"), { maxKeys: 2, noNullPrototype: false }),
    fc.array(fc.tuple(leaf, tie("value")), { maxLength: 2 }).map((entries) => new Map(entries)),
    fc.array(leaf, { maxLength: 3 }).map((items) => new Set(items)),
    fc.integer({ min: -2, max: 2 }).map((t) => new Date(t)),
    fc.constantFrom("a", "b").map((m) => new Error(m)),
    // More keys than the digest's insertion sort takes, and records with inherited enumerable
    // keys, which neither the serialization nor the digest reads.
    fc.dictionary(fc.string({ maxLength: 2 }), leaf, { minKeys: 17, maxKeys: 24 }),
    fc.dictionary(fc.constantFrom("a", "b", "c"), leaf, { maxKeys: 3 }).map((own) => Object.assign(Object.create({ a: "inherited", z: 1 }) as object, own)),
  ),
}));

/** The same value with every record's keys in reverse order and an undefined field added. */
function reordered(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(reordered);
  if (typeof v !== "object" || v === null) return v;
  const proto: unknown = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return v;
  const out: Record<string, unknown> = proto === null ? Object.create(null) : {};
  for (const key of Object.keys(v).reverse()) out[key] = reordered((v as Record<string, unknown>)[key]);
  out.zz_absent = undefined;
  return out;
}

type Pair = readonly [unknown, unknown];
const both = <T,>(f: (x: readonly unknown[]) => T) => (items: readonly Pair[]): Pair => [f(items.map((p) => p[0])), f(items.map((p) => p[1]))];

/** Two values of one shape whose leaves are drawn independently: equal often, nearly equal more. */
const { shaped } = fc.letrec<{ shaped: Pair }>((tie) => ({
  shaped: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.tuple(leaf, leaf),
    fc.array(tie("shaped"), { maxLength: 3 }).map(both((xs) => [...xs])),
    fc.array(fc.tuple(fc.constantFrom("a", "b", "c"), tie("shaped")), { maxLength: 3 }).map((fields): Pair => [
      Object.fromEntries(fields.map(([k, p]) => [k, p[0]])),
      Object.fromEntries(fields.map(([k, p]) => [k, p[1]])),
    ]),
    // Key sets that differ, with undefined values among them: equal counts, different fields.
    fc.array(fc.tuple(fc.constantFrom("a", "b", "c"), fc.constantFrom("a", "b", "c"), tie("shaped")), { maxLength: 3 }).map((fields): Pair => [
      Object.fromEntries(fields.map(([k, , p]) => [k, p[0]])),
      Object.fromEntries(fields.map(([, k, p]) => [k, p[1]])),
    ]),
    fc.array(tie("shaped"), { maxLength: 2 }).map(both((xs) => new Map(xs.map((x, i) => [i, x])))),
    fc.array(tie("shaped"), { maxLength: 2 }).map(both((xs) => new Set(xs))),
  ),
}));

const pairs = fc.oneof(
  fc.tuple(value, value),
  shaped,
  value.map((v) => [v, reordered(v)] as const),
);

function check(property: fc.IProperty<[readonly [unknown, unknown]]> | fc.IProperty<[string, string]>, name: string): void {
  assertProperty(property as fc.IProperty<[unknown]>, name, TEST_FILE, 4000);
}

it("walk digest equal exactly when the stable serialization is equal", () => {
  let equal = 0;
  let different = 0;
  check(
    fc.property(pairs, ([a, b]) => {
      const sameText = stableSerialize(a) === stableSerialize(b);
      if (sameText) equal++;
      else different++;
      return sameText === (walkDigestValue(a) === walkDigestValue(b));
    }),
    "walk digest equal exactly when the stable serialization is equal",
  );
  // Not vacuous: both sides of the equivalence are exercised many times.
  expect(equal).toBeGreaterThan(500);
  expect(different).toBeGreaterThan(500);
});

it("sameJsonValue (the engine's memo of the last params) answers true only for values that serialize alike", () => {
  let reused = 0;
  check(
    fc.property(pairs, ([a, b]) => {
      if (!sameJsonValue(a, b)) return true;
      reused++;
      return stableSerialize(a) === stableSerialize(b);
    }),
    "sameJsonValue (the engine's memo of the last params) answers true only for values that serialize alike",
  );
  // Not vacuous: the memo's shortcut is taken on many generated pairs.
  expect(reused).toBeGreaterThan(300);
});

it("sameJsonValue recognises a copy of any JSON value, so the memo spares the digest of a repeated call", () => {
  // The other half of the memo's contract: answering false is safe but costs a digest, and a
  // memo that never hits would be a silent slowdown of every loop the engine sees.
  const copy = (v: unknown): unknown => JSON.parse(JSON.stringify(v)) as unknown;
  check(
    fc.property(fc.jsonValue({ maxDepth: 4 }), (v) => sameJsonValue(v, copy(v)) && sameJsonValue(copy(v), v)) as unknown as fc.IProperty<[readonly [unknown, unknown]]>,
    "sameJsonValue recognises a copy of any JSON value",
  );
  const nested = (levels: number): unknown => (levels === 0 ? 1 : [nested(levels - 1)]);
  // Nesting is followed 64 levels deep (objects at depths 0..64), then the memo gives up.
  expect(sameJsonValue(nested(65), nested(65))).toBe(true);
  expect(sameJsonValue(nested(66), nested(66))).toBe(false);
  expect(sameJsonValue({ a: [1, { b: "x" }] }, { a: [1, { b: "x" }] })).toBe(true);
  expect(sameJsonValue({ a: 1 }, { a: 1, b: 2 })).toBe(false);
  expect(sameJsonValue({ a: 1, b: 2 }, { a: 1 })).toBe(false);
  expect(sameJsonValue([1, 2], [1])).toBe(false);
  expect(sameJsonValue([1], { 0: 1 })).toBe(false);
  expect(sameJsonValue({ a: undefined }, { a: undefined })).toBe(false);
  expect(sameJsonValue({ a: undefined, c: 1 }, { b: 1, c: 1 })).toBe(false);
  expect(sameJsonValue({ b: 1, c: 1 }, { a: undefined, c: 1 })).toBe(false);
  expect(sameJsonValue(1, "1")).toBe(false);
  expect(sameJsonValue([], {})).toBe(false);
  expect(sameJsonValue(null, null)).toBe(true);
  expect(sameJsonValue(null, {})).toBe(false);
  expect(sameJsonValue({}, null)).toBe(false);
});

it("CallIdentities: the identity of every call, each repeated call digested once", () => {
  const walk = digestNamed("walk128");
  let digested = 0;
  const counting: Digest = { ...walk, value: (v: unknown) => (digested++, walk.value(v)) };
  const ids = new CallIdentities(counting);
  const expectIdentity = (tool: string, params: unknown, digests: number): void => {
    expect(ids.of(tool, params)).toBe(argsHash(walk, tool, params));
    expect(digested).toBe(digests);
  };
  expectIdentity("", undefined, 1); // the empty memo matches nothing, not even an empty tool
  expectIdentity("", undefined, 1); // then it does
  expectIdentity("read", { path: "a" }, 2);
  expectIdentity("read", { path: "a" }, 2); // a copy: the memo answers
  expectIdentity("write", { path: "a" }, 3); // same params, another tool
  expectIdentity("write", { path: "b" }, 4);
  expectIdentity("read", { path: "a" }, 5); // the memo holds one entry
});

it("walk digest of texts: equal exactly when the texts are equal", () => {
  const text = fc.string({ unit: fc.constantFrom("a", "b", "\u00e9", "\ud83d\ude00"), maxLength: 6 });
  check(fc.property(text, text, (a, b) => (a === b) === (walkDigestText(a) === walkDigestText(b))), "walk digest of texts: equal exactly when the texts are equal");
});

it("walk digest: cyclic shapes hash by shape, and a text is not the same value as itself quoted", () => {
  const cyclic = (x: number) => {
    const o: Record<string, unknown> = { x };
    o.self = o;
    return new Map([["k", o]]);
  };
  expect(walkDigestValue(cyclic(1))).toBe(walkDigestValue(cyclic(1)));
  expect(walkDigestValue(cyclic(1))).not.toBe(walkDigestValue(cyclic(2)));
  expect(walkDigestValue("1")).not.toBe(walkDigestValue(1));
  expect(walkDigestValue(["a", "b"])).not.toBe(walkDigestValue(["ab"]));
  expect(walkDigestValue({ a: "b" })).not.toBe(walkDigestValue({ ab: "" }));
  expect(walkDigestValue("x".repeat(1_000_000))).toMatch(/^[0-9a-f]{32}$/);
});
