// `loopsim replay PATH...`: replays scenario files (or folders of them) and compares each
// timeline with the file's expectation. --update rewrites expectations, visibly; --variant
// replays with a bug-zoo variant to show how it departs from the reference.
import { readdirSync, statSync, existsSync } from "node:fs";
import { join } from "node:path";
import type { BugVariant } from "../../models/bugZoo.js";
import { CheckFailed, UserError } from "../cli/errors.js";
import { writeFileAtomic } from "../io/atomicWrite.js";
import { loadScenario, type LoadedScenario } from "../scenario/load.js";
import { replayScenario, timelineDiff } from "../scenario/replay.js";
import type { Scenario } from "../scenario/scenario.js";
import { scenarioText } from "../scenario/write.js";

export interface ReplayOptions {
  readonly json: boolean;
  readonly update: boolean;
  readonly variant?: BugVariant;
}

export interface ReplayOutcome {
  readonly file: string;
  readonly id: string | null;
  readonly status: "pass" | "fail" | "updated" | "invalid";
  readonly digest?: string;
  readonly expectedDigest?: string;
  readonly diff?: string[];
  readonly problems?: string[];
}

/** Files named, and the .json files below folders named, in a stable order. */
export function scenarioFiles(paths: readonly string[]): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir).sort()) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (entry.endsWith(".json")) files.push(path);
    }
  };
  for (const path of paths) {
    if (!existsSync(path)) throw new UserError(`${path}: no such file or folder`);
    if (statSync(path).isDirectory()) walk(path);
    else files.push(path);
  }
  return files;
}

export function replayOne(file: string, options: ReplayOptions): ReplayOutcome {
  const load = loadScenario(file, { requireExpected: !options.update });
  if (!load.ok) return { file, id: null, status: "invalid", problems: load.problems };
  const loaded: LoadedScenario = load.loaded;
  const { scenario } = loaded;
  const replayed = replayScenario(loaded, options.variant?.hooks);
  const digest = replayed.expected.digest;
  const expected = loaded.hasExpected ? scenario.expected : undefined;
  if (options.update) {
    if (expected?.digest === digest && JSON.stringify(expected.facts) === JSON.stringify(replayed.expected.facts)) {
      return { file, id: scenario.id, status: "pass", digest, expectedDigest: digest };
    }
    const updated: Scenario = { ...scenario, expected: replayed.expected };
    writeFileAtomic(file, scenarioText(updated));
    return { file, id: scenario.id, status: "updated", digest, expectedDigest: expected?.digest };
  }
  if (expected !== undefined && expected.digest === digest) return { file, id: scenario.id, status: "pass", digest, expectedDigest: digest };
  const diff = timelineDiff(expected?.timeline ?? [], replayed.expected.timeline);
  if (diff.length === 0) diff.push("  (same verdicts, different messages or keys; run `loopsim trace --json` on the events to compare)");
  return { file, id: scenario.id, status: "fail", digest, expectedDigest: expected?.digest, diff };
}

export function replayCommand(paths: readonly string[], options: ReplayOptions): void {
  if (options.update && options.variant !== undefined) throw new UserError("--update and --variant do not go together: expectations record the reference, not a bug variant");
  const outcomes = scenarioFiles(paths).map((file) => replayOne(file, options));
  if (outcomes.length === 0) throw new UserError(`no scenario files (*.json) under ${paths.join(", ")}`);
  const count = (status: ReplayOutcome["status"]) => outcomes.filter((o) => o.status === status).length;
  if (options.json) {
    process.stdout.write(JSON.stringify({ variant: options.variant?.name ?? null, passed: count("pass"), failed: count("fail"), updated: count("updated"), invalid: count("invalid"), scenarios: outcomes }, null, 2) + "\n");
  } else {
    const lines: string[] = [];
    const against = options.variant === undefined ? "" : ` (variant ${options.variant.name} against the reference)`;
    for (const o of outcomes) {
      if (o.status === "invalid") {
        lines.push(`INVALID ${o.file}`);
        for (const p of o.problems ?? []) lines.push(`  ${p}`);
      } else if (o.status === "fail") {
        lines.push(`${options.variant === undefined ? "FAIL" : "DIFFERS"} ${o.file} (${o.id ?? ""})${against}`);
        lines.push(...(o.diff ?? []));
      } else if (o.status === "updated") {
        lines.push(`UPDATED ${o.file}: expectation ${o.expectedDigest === undefined ? "recorded" : `changed ${o.expectedDigest.slice(0, 12)} -> ${o.digest?.slice(0, 12) ?? ""}`}`);
      } else lines.push(`${options.variant === undefined ? "PASS" : "SAME"} ${o.file}`);
    }
    lines.push(`${count("pass")} passed, ${count("fail")} failed${count("updated") > 0 ? `, ${count("updated")} updated` : ""}${count("invalid") > 0 ? `, ${count("invalid")} invalid` : ""}`);
    process.stdout.write(lines.join("\n") + "\n");
  }
  if (count("invalid") > 0) throw new UserError(`${count("invalid")} scenario file${count("invalid") === 1 ? " is" : "s are"} invalid (see above)`);
  const failed = count("fail");
  if (failed > 0) {
    const what = options.variant === undefined ? "did not replay as expected" : `${failed === 1 ? "differs" : "differ"} under the variant`;
    throw new CheckFailed(`${failed} scenario${failed === 1 ? "" : "s"} ${what}`);
  }
}
