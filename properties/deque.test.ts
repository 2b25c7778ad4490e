// The rolling window's queue (models/deque.ts) against a plain array, on random sequences of every
// operation. Runs are long and shift-heavy so that the ring buffer wraps around and grows while
// wrapped many times, with pushes and pops between, where an off-by-one would show.
import fc from "fast-check";
import { expect, it } from "vitest";
import { Deque } from "../models/deque.js";
import { assertProperty } from "./support.js";

type Op = { op: "push"; value: number } | { op: "shift" } | { op: "pop" } | { op: "clear" } | { op: "at"; index: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0, max: 999 }).map((value) => ({ op: "push" as const, value })) },
  { weight: 4, arbitrary: fc.constant({ op: "shift" as const }) },
  { weight: 1, arbitrary: fc.constant({ op: "pop" as const }) },
  { weight: 1, arbitrary: fc.constant({ op: "at" as const, index: -1 }) },
  { weight: 2, arbitrary: fc.integer({ min: -2, max: 200 }).map((index) => ({ op: "at" as const, index })) },
  { weight: 1, arbitrary: fc.constant({ op: "clear" as const }) },
);
// A clear now and then restarts the storage; most runs are long enough to compact several times.
const runs = fc.array(op, { minLength: 150, maxLength: 600, size: "max" }).map((ops) => ops.filter((o, i) => o.op !== "clear" || i % 97 === 0));

/** Plain comparisons: hundreds of thousands of them per run, where expect() would dominate the time. */
function same(actual: unknown, expected: unknown, what: string): void {
  if (actual !== expected) throw new Error(`${what}: got ${String(actual)}, the array gives ${String(expected)}`);
}

it("the deque behaves as an array with shift, pop and clear", () => {
  let longRuns = 0;
  assertProperty(
    fc.property(runs, (ops) => {
      const deque = new Deque<number>();
      const model: number[] = [];
      let shiftsSinceClear = 0;
      for (const o of ops) {
        switch (o.op) {
          case "push":
            deque.push(o.value);
            model.push(o.value);
            break;
          case "shift": {
            const shifted = deque.shift();
            same(shifted, model.shift(), "shift");
            if (shifted !== undefined && ++shiftsSinceClear === 65) longRuns++;
            break;
          }
          case "pop":
            same(deque.pop(), model.pop(), "pop");
            break;
          case "clear":
            deque.clear();
            model.length = 0;
            shiftsSinceClear = 0;
            break;
          case "at":
            same(deque.at(o.index), o.index < 0 ? undefined : model[o.index], `at(${o.index})`);
            break;
        }
        same(deque.length, model.length, "length");
        same(deque.first(), model[0], "first");
        same(deque.last(), model[model.length - 1], "last");
      }
      expect([...deque]).toEqual(model);
    }),
    "the deque behaves as an array with shift, pop and clear",
    "properties/deque.test.ts",
    200,
  );
  // Not vacuous: many runs shift far enough for the ring to wrap around its storage many times.
  expect(longRuns).toBeGreaterThan(50);
});

it("the deque's storage stays proportional to its length however many items pass through", () => {
  // Why the compaction exists: a window that evicts on every append must not keep every call ever seen.
  const deque = new Deque<number>();
  for (let i = 0; i < 10_000; i++) {
    deque.push(i);
    if (deque.length > 30) deque.shift();
  }
  const storage = deque.capacity();
  expect(deque.length).toBe(30);
  expect(storage).toBeLessThanOrEqual(2 * 30 + 66);
  expect([...deque]).toEqual(Array.from({ length: 30 }, (_, i) => 9970 + i));
});

it("a full ring (as many items as slots, wrapped or not) reads nothing past its last item", () => {
  // Past the end the index wraps onto the first item's slot when every slot is taken: the bound
  // check, not an empty slot, is what answers undefined there.
  for (const size of [4, 8, 16, 32]) {
    const deque = new Deque<number>();
    for (let i = 0; i < size; i++) deque.push(i);
    expect(deque.capacity()).toBe(size);
    expect(deque.at(size)).toBeUndefined();
    deque.shift();
    deque.shift();
    deque.push(size);
    deque.push(size + 1);
    expect(deque.capacity()).toBe(size);
    expect(deque.at(size)).toBeUndefined();
    expect([...deque]).toEqual(Array.from({ length: size }, (_, i) => i + 2));
  }
});
