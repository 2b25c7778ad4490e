/**
 * loopsim in a guard author's own vitest suite: every law, scenario and probe of `loopsim
 * conform` as one vitest test each, for a given target.
 *
 * ```ts
 * // test/loop-guard.test.ts
 * import { loadTarget } from "loopsim";
 * import { conformanceTests } from "loopsim/vitest";
 * conformanceTests(await loadTarget("./src/my-guard-adapter.mjs"));
 * ```
 *
 * A failing test prints what `conform` prints for that check: the rules it breaks, the first
 * line where the target and the reference part ways, and the replay line (for a law, with its
 * seed and fast-check path). A check the target cannot be judged on (n/a) is skipped, with why.
 * vitest is a peer dependency of loopsim: only this entry point needs it.
 *
 * @packageDocumentation
 */
import { describe, it } from "vitest";
import { SEMANTIC_LAWS } from "../../properties/laws/index.js";
import type { CheckResult } from "../conform/check.js";
import { lawChecks } from "../conform/lawChecks.js";
import { probeChecks } from "../conform/probeChecks.js";
import { scenarioChecks } from "../conform/scenarioChecks.js";
import type { Target } from "../targets/target.js";
import { UserError } from "../io/errors.js";
import { libraryField, resolveConformOptions } from "../conform/conformOptions.js";
import { checkedTarget } from "./checks.js";
import { forThisMachine } from "./replayCommand.js";

/** Which checks to register, and the seed of the laws. */
export interface ConformanceTestOptions {
  /** Seed of the laws (default: conform's, 20261202): the same seed gives the same cases. */
  readonly seed?: number;
  /** Multiplies each law's number of cases (default 1). */
  readonly depth?: number;
  /** Register the laws (default true). */
  readonly laws?: boolean;
  /** Register the scenarios of loopsim's corpus (default true). */
  readonly scenarios?: boolean;
  /** Register the C1/C5 probes (default true). */
  readonly probes?: boolean;
}

/** A failing check's text: what conform's matrix and counterexample list say about it. */
export function failureText(target: Target, check: CheckResult): string {
  const ce = check.counterexample;
  return [
    `${target.name} fails ${check.name} (rules ${check.rules.join(", ")}): ${check.reason ?? ""}`,
    ...(ce === undefined
      ? []
      : [
          `counterexample: ${ce.events} events`,
          ...(ce.reference === undefined ? [] : [`  reference: ${ce.reference}`]),
          ...(ce.target === undefined ? [] : [`  ${target.name}: ${ce.target}`]),
          `replay: ${forThisMachine(ce.replay)}`,
        ]),
  ].join("\n");
}

/** The test's verdict on one check: throws the failure text; skips an n/a check, saying why. */
function verdict(target: Target, check: CheckResult, skip: (note: string) => void): void {
  if (check.status === "fail") throw new Error(failureText(target, check));
  if (check.status === "n/a") skip(`n/a: ${check.reason ?? ""}`);
}

/**
 * Registers `describe("loopsim conformance: NAME")` with one test per law, per corpus scenario and
 * per probe. Call it at the top level of a test file.
 */
export function conformanceTests(target: Target, options: ConformanceTestOptions = {}): void {
  // Read at the door, as conform reads its own: a wrong target or option fails the file at once.
  target = checkedTarget(target, "conformanceTests: target");
  if (options === null || typeof options !== "object") throw new UserError(`conformanceTests: options must be an object (got ${options === null ? "null" : typeof options})`);
  const { laws: _laws, scenarios: _scenarios, probes: _probes, ...lawOptions } = options;
  for (const key of ["laws", "scenarios", "probes"] as const) {
    if (options[key] !== undefined && typeof options[key] !== "boolean") throw new UserError(`conformanceTests: options.${key} must be a boolean (got ${typeof options[key]})`);
  }
  const { seed, depth } = resolveConformOptions(lawOptions, libraryField("conformanceTests"), ["seed", "depth"]);
  describe(`loopsim conformance: ${target.name}`, () => {
    if (options.probes !== false) {
      // Probe and scenario names are known only from their files: their checks run at collection
      // (a few hundred milliseconds), each result asserted by its own test.
      const probes = probeChecks(target, undefined);
      for (const check of probes) it(check.name, (ctx) => verdict(target, check, (note) => ctx.skip(note)));
    }
    if (options.scenarios !== false) {
      for (const check of scenarioChecks(target, undefined)) it(check.name, (ctx) => verdict(target, check, (note) => ctx.skip(note)));
    }
    if (options.laws !== false) {
      for (const law of SEMANTIC_LAWS) {
        it(`law ${law.name}`, (ctx) => {
          const [check] = lawChecks(target, undefined, { seed, depth, only: law.name });
          if (check !== undefined) verdict(target, check, (note) => ctx.skip(note));
        });
      }
    }
  });
}
