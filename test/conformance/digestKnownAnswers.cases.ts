// The values whose walk128 digests are pinned in digestKnownAnswers.test.ts: one of every token the
// walk writes, strings of every length up to past two blocks (two code units per word, four words
// per block), numbers whose bits differ in either word, and records wide enough to take the sort's
// long path (more than 16 keys).
class Instance {
  x = 1;
}
const cyclic: Record<string, unknown> = { a: 1 };
cyclic.self = cyclic;
const wide = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${(i * 7) % 20}`, i]));

export const CASES: readonly (readonly [string, unknown])[] = [
  ["empty string", ""],
  ["1 unit", "a"],
  ["2 units", "ab"],
  ["3 units", "abc"],
  ["7 units", "abcdefg"],
  ["8 units", "abcdefgh"],
  ["9 units", "abcdefghi"],
  ["17 units", "abcdefghijklmnopq"],
  ["non-ASCII", "é😀"],
  ["4 units", "abcd"],
  ["12 units", "abcdefghijkl"],
  ["zero", 0],
  ["one", 1],
  ["a fraction", 1.5],
  ["a large integer", 2 ** 40 + 3],
  ["a negative", -7.25],
  ["NaN", Number.NaN],
  ["infinity", Number.POSITIVE_INFINITY],
  ["true", true],
  ["false", false],
  ["undefined", undefined],
  ["null", null],
  ["a bigint", 12n],
  ["a symbol", Symbol("s")],
  ["a symbol with no description", Symbol()],
  ["a function", () => 1],
  ["an empty array", []],
  ["an array", [1, "x", null, [true]]],
  ["an empty record", {}],
  ["a record", { b: 1, a: "x", c: undefined }],
  ["a wide record", wide],
  ["a cycle", cyclic],
  ["a cycle below the root", { x: cyclic }],
  ["an error", new RangeError("bad")],
  ["a date", new Date(5)],
  ["a map", new Map([["k", 1]])],
  ["a set", new Set([2, 1])],
  ["an instance", new Instance()],
];

export const TEXTS: readonly string[] = ["", "a", "ab", "abcdefghi", "é😀"];
