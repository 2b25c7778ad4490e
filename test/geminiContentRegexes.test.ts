// Gemini CLI's content rule, its regexes as they behave (docs/guide/formats.md): a '- ' bullet is
// no list item (`[*-+]` is the range * to +), and a piece made only of capitals, digits and
// ,-./:;<=>?@[\]^_ is a "divider" (`[+-_...]` is the range + to _), never read. Pinned on the model
// and, when it is cached, on gemini-cli@0.61.0's own LoopDetectionService.
import { describe, expect, it } from "vitest";
import { configFrom } from "../models/configResolution.js";
import type { ToolEvent } from "../models/events.js";
import { cacheRoot } from "../src/targets/openclaw/cache.js";
import { findBuiltInTarget } from "../src/targets/registry.js";
import { loadGeminiTarget } from "../src/targets/runtimes/geminiCore.js";
import { readRuntimeManifest } from "../src/targets/runtimes/packageCache.js";
import { runTarget, type Target } from "../src/targets/target.js";

const GEMINI = "0.61.0";
const haveGemini = readRuntimeManifest("gemini-cli", GEMINI) !== undefined;
if (!haveGemini) console.log(`SKIPPED: the real side of the Gemini regex tests: gemini-cli@${GEMINI} is not in the cache (${cacheRoot()}); fetch it with: loopsim targets fetch gemini-cli@${GEMINI}`);

/** A piece of text streamed 12 times in one response: whether the content rule fires on it. */
const chant = (target: Target, piece: string): boolean => {
  const events: ToolEvent[] = Array.from({ length: 12 }, () => ({ type: "message", runId: "p", text: piece, chunk: true, step: "s1" }));
  return runTarget(target, configFrom({}), events).some((o) => o.kind === "text" || o.kind === "abort");
};

const CASES: readonly (readonly [string, string, boolean])[] = [
  ["a '- ' bullet is no list item: its chant is read and caught", "- check the configuration file once more, again.\n", true],
  ["a '* ' bullet is a list item: each piece starts afresh", "* check the configuration file once more, again.\n", false],
  ["a '+ ' bullet is a list item too", "+ check the configuration file once more, again.\n", false],
  ["a numbered item starts afresh", "1. check the configuration file once more, again.\n", false],
  ["an all-caps piece without spaces is a divider: never read", "CHECK.THE.CONFIGURATION.FILE.ONCE.MORE.AGAIN.NOW.", false],
  ["digits and punctuation alone are a divider too", "1234567890,1234567890;1234567890:1234567890?12345@", false],
  ["one space makes the all-caps piece ordinary text: caught", "CHECK THE CONFIGURATION FILE ONCE MORE AGAIN NOW.", true],
  ["a line break at its end does too", "CHECK.THE.CONFIGURATION.FILE.ONCE.MORE.AGAIN.NOW.\n", true],
];

describe("gemini-cli's content regexes as they behave", () => {
  it.each(CASES)("model: %s", (_what, piece, caught) => {
    expect(chant(findBuiltInTarget("gemini-cli") as Target, piece)).toBe(caught);
  });
});

describe.skipIf(!haveGemini)(`gemini-cli@${GEMINI}: the same`, () => {
  it("its own service says what the model says on every case", async () => {
    const real = await loadGeminiTarget(GEMINI, () => undefined);
    expect(CASES.map(([what, piece]) => [what, chant(real, piece)])).toEqual(CASES.map(([what, , caught]) => [what, caught]));
  });
});
