// The walk digest must identify exactly the values the stable serialization identifies: the
// engine's verdicts depend on digest equality, so a digest that merged two different params (or
// split two equal ones) would change verdicts. Values come from a small domain so that equal and
// nearly equal pairs are frequent, plus pairs that differ only in key order or undefined fields.
import fc from "fast-check";
import { expect, it } from "vitest";
import { stableSerialize } from "../models/stableSerialize.js";
import { walkDigestText, walkDigestValue } from "../models/walkDigest.js";
import { sameJsonValue } from "../models/callHash.js";
import { DEEP, SEED } from "./support.js";

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
  const details = fc.check(property as fc.IProperty<[unknown]>, { seed: SEED, numRuns: 4000 * DEEP, ...(process.env.FC_PATH !== undefined ? { path: process.env.FC_PATH } : {}) });
  if (details.failed) {
    throw new Error(
      `property ${name} failed: ${String(details.errorInstance)}\n  counterexample ${fc.stringify(details.counterexample)}\n  seed ${details.seed}, path ${details.counterexamplePath ?? ""}\n  replay: FC_SEED=${details.seed} FC_PATH=${details.counterexamplePath ?? ""} npx vitest run ${TEST_FILE} -t "${name}"`,
    );
  }
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
