// What `npm run mutation` covers, in two groups, as paths from the repository root: the one list
// the runner (mutation/runByFile.mjs), the miner's vitest config and the summary all read.
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";

export const ROOT = join(import.meta.dirname, "..");

/** The files of models/, sorted: the reference, judged by the conformance tests, the properties and the scenario corpus. */
export function modelFiles(dir = join(ROOT, "models")) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...modelFiles(path));
    else if (entry.name.endsWith(".ts")) out.push(relative(ROOT, path));
  }
  return out.sort();
}

// The miner's rules: every real-loop figure loopsim publishes (the catalogue, the recall, the
// README's counts) is a run one of these rules found in a recorded session, or the walk that calls
// them (mine.ts: the stretches, the rule kinds, the chains of failures), so a change their tests
// miss would let a published figure move unseen. Each is judged by its focused test files: those
// that import it or feed mineStretches the sessions its header describes, all fast (the nine
// together run in seconds), none of them running the CLI or a runtime. Left out: the real-loop
// corpus test (it reads ../shared, which Stryker's sandbox does not have, so it would only say
// SKIPPED) and the CLI tests (seconds per mutant).
export const MINER_RULES = {
  "src/realLoops/idleRecheck.ts": ["test/idleRecheck.test.ts", "test/realLoopsRules.test.ts"],
  "src/realLoops/mine.ts": [
    "test/realLoopsRules.test.ts",
    "test/realLoops.test.ts",
    "test/unmovedBreak.test.ts",
    "test/unlandedEdits.test.ts",
    "test/idleRecheck.test.ts",
    "test/noNewFactOnline.test.ts",
    "test/shellParseFailures.test.ts",
    "test/refusalWordings.test.ts",
    "test/loopsFastPaths.test.ts",
  ],
  "src/realLoops/noNewFact.ts": [
    "test/realLoopsRules.test.ts",
    "test/noNewFactOnline.test.ts",
    "test/idleRecheck.test.ts",
    "test/shellParseFailures.test.ts",
    "test/refusalWordings.test.ts",
  ],
  "src/realLoops/unlandedEdits.ts": ["test/unlandedEdits.test.ts", "test/realLoopsRules.test.ts", "test/loopsFastPaths.test.ts"],
  "src/realLoops/unmovedBreak.ts": [
    "test/unmovedBreak.test.ts",
    "test/realLoopsRules.test.ts",
    "test/refusalWordings.test.ts",
    "test/shellParseFailures.test.ts",
    "test/loopsFastPaths.test.ts",
  ],
};

/** Every miner test file, once: what the miner's vitest config runs when no file's list is named. */
export const minerTests = () => [...new Set(Object.values(MINER_RULES).flat())].sort();

/**
 * The two groups, each with its Stryker config and the sentence the summary heads its table with.
 * A file belongs to the group whose list holds it; `npm run mutation -- FILE` finds it there.
 */
export function groups() {
  return [
    {
      name: "models",
      title: "models/",
      judgedBy: "the conformance tests, the property suite (fast-check's pinned seed, no shrinking) and the scenario corpus",
      strykerConfig: "stryker.config.mjs",
      files: modelFiles(),
    },
    {
      name: "miner",
      title: "The miner's rules (src/realLoops/)",
      judgedBy: "each file's focused tests (mutation/files.mjs names them)",
      strykerConfig: "stryker.miner.config.mjs",
      files: Object.keys(MINER_RULES).sort(),
    },
  ];
}
