// An ADP file is listed in one pass that finds each trajectory's bytes; a trajectory is then read
// from its bytes alone, so a file of N trajectories costs one pass, not N (issue 31). The spans
// must cut exactly the elements JSON.parse sees, whatever chunk boundaries fall where, and a file
// whose structure is broken must name the byte.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseElement, readSpan, topArraySpans } from "../src/import/jsonDocument.js";
import { sessionRefs } from "../src/import/sessionRefs.js";
import { readSessionEvents } from "../src/sessions/recorded.js";
import { tempDir } from "./cli/run.js";

const FIXTURES = join(import.meta.dirname, "fixtures", "sessions");

async function spansOf(file: string) {
  const out: { value: unknown; again: unknown }[] = [];
  for await (const { span, text } of topArraySpans(file)) out.push({ value: parseElement(file, span, text), again: JSON.parse(readSpan(file, span)) });
  return out;
}

describe("ADP: one pass per file", () => {
  it("the spans of a top-level array are exactly its elements, read back from their bytes (any values, any whitespace)", async () => {
    const dir = tempDir();
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(fc.jsonValue(), { maxLength: 12 }), fc.constantFrom("", " ", "\n  "), async (values, gap) => {
          const file = join(dir, "a.json");
          writeFileSync(file, `${gap}[${gap}${values.map((v) => JSON.stringify(v, null, gap === "" ? 0 : 1)).join(`${gap},${gap}`)}${gap}]${gap}`);
          const spans = await spansOf(file);
          const expected = JSON.parse(readFileSync(file, "utf8")) as unknown[];
          expect(spans.map((s) => s.value)).toEqual(expected);
          expect(spans.map((s) => s.again)).toEqual(expected);
        }),
        { numRuns: 60, seed: 31 },
      );
      // One element larger than a read chunk (64 KiB) spans several chunks.
      const big = [{ id: "a", content: "x".repeat(200_000) }, { id: "b", s: "\\\"]}" }];
      writeFileSync(join(dir, "big.json"), JSON.stringify(big));
      expect((await spansOf(join(dir, "big.json"))).map((s) => s.value)).toEqual(big);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    ["cut short", '[{"id": 1}, {"id"', /cut short: the document ends at byte 17/],
    ["no comma", '[{"id": 1} {"id": 2}]', /at byte 11: a comma is missing/],
    ["not an array", '{"id": 1}', /at byte 0: an ADP file is one JSON array/],
    ["a bad element", '[{"id": 1}, {"id": }]', /element \[1\], bytes 12-20/],
    ["trailing comma", '[{"id": 1},]', /at byte 11: a comma before the closing bracket/],
  ])("a broken file (%s) names the place", async (_what, text, message) => {
    const dir = tempDir();
    try {
      writeFileSync(join(dir, "bad.json"), text);
      await expect(spansOf(join(dir, "bad.json"))).rejects.toThrow(message);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a listed trajectory read from its span gives the same events as one found by its id", async () => {
    const { refs } = await sessionRefs([join(FIXTURES, "adp-mini.json")]);
    for (const r of refs) {
      expect(r.span).toBeDefined();
      expect(await readSessionEvents(r.ref, r.span)).toEqual(await readSessionEvents(r.ref));
    }
  });
});
