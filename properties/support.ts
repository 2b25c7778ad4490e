// How properties run: a pinned seed (FC_SEED overrides), LOOPSIM_DEEP multiplies the cases,
// FC_PATH replays one shrunk case, every failure prints seed, path and a one-line replay command
// and writes the counterexample as a ready scenario under failures/ (kept out of the corpus until
// someone promotes it), and each law's coverage is checked so no property passes vacuously.
import fc from "fast-check";
import { join } from "node:path";
import { writeScenario, scenarioFromEvents } from "../src/scenario/write.js";
import type { Law } from "./laws/law.js";
import type { Target } from "../src/targets/target.js";
import { Coverage } from "./laws/coverage.js";

export const SEED = process.env.FC_SEED !== undefined ? Number(process.env.FC_SEED) : 20261202;
export const DEEP = process.env.LOOPSIM_DEEP !== undefined ? Number(process.env.LOOPSIM_DEEP) : 1;
const FAILURE_DIR = join(import.meta.dirname, "..", "failures");

export interface LawFailure {
  readonly law: string;
  readonly seed: number;
  readonly path: string;
  readonly events: number;
  readonly message: string;
  readonly scenarioFile: string | undefined;
}

/** Runs a law against a subject; returns the failure (shrunk) or undefined. */
export function runLaw<T>(law: Law<T>, subject: Target, options: { runs?: number; capture?: boolean; coverage?: Coverage } = {}): LawFailure | undefined {
  const coverage = options.coverage ?? new Coverage(law.name, []);
  const replayPath = process.env.FC_PATH;
  const details = fc.check(
    fc.property(law.arbitrary, (value) => {
      law.check(value, subject, coverage);
    }),
    { seed: SEED, numRuns: options.runs ?? law.runs * DEEP, ...(replayPath !== undefined ? { path: replayPath } : {}) },
  );
  if (!details.failed || details.counterexample === null) return undefined;
  const value = details.counterexample[0];
  const draft = law.scenario(value);
  let scenarioFile: string | undefined;
  if (options.capture !== false) {
    scenarioFile = join(FAILURE_DIR, `${law.name}-${subject.name}-seed${details.seed}.json`);
    try {
      // Recorded from the subject, with the law, seed and path: replaying the file checks the law
      // again, so it fails for as long as the law is broken.
      const strict = process.env.LOOPSIM_STRICT;
      const recorded = scenarioFromEvents({ ...draft, id: `failure-${law.name}-${subject.name}`, title: `Counterexample to ${law.name} (${subject.name})` }, subject);
      writeScenario(scenarioFile, { ...recorded, law: { name: law.name, seed: details.seed, path: details.counterexamplePath ?? "", ...(strict === undefined || strict === "" ? {} : { strict }) } });
    } catch {
      scenarioFile = undefined;
    }
  }
  return {
    law: law.name,
    seed: details.seed,
    path: details.counterexamplePath ?? "",
    events: draft.events.length,
    message: details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance),
    scenarioFile,
  };
}

/** The settings a failure depends on besides seed and path, so the printed command fails again. */
export function replayEnvironment(): string {
  const strict = process.env.LOOPSIM_STRICT;
  const deep = process.env.LOOPSIM_DEEP;
  return `${strict === undefined || strict === "" ? "" : `LOOPSIM_STRICT=${strict} `}${deep === undefined || deep === "" ? "" : `LOOPSIM_DEEP=${deep} `}`;
}

export function failureReport(failure: LawFailure, testFile: string): string {
  return [
    `property ${failure.law} failed: ${failure.message}`,
    `  seed ${failure.seed}, path ${failure.path}, shrunk to ${failure.events} events`,
    failure.scenarioFile === undefined ? "" : `  counterexample scenario: ${failure.scenarioFile}  (replay: node bin/loopsim.js replay ${failure.scenarioFile})`,
    `  replay the property: ${replayEnvironment()}FC_SEED=${failure.seed} FC_PATH=${failure.path} npx vitest run ${testFile} -t "${failure.law}"`,
  ]
    .filter((l) => l !== "")
    .join("\n");
}

/** The test body of one law against the reference: fail loudly, or check coverage. */
export function assertLaw<T>(law: Law<T>, subject: Target, testFile: string): void {
  const coverage = new Coverage(law.name, law.required);
  const failure = runLaw(law, subject, { coverage });
  if (failure !== undefined) throw new Error(failureReport(failure, testFile));
  if (process.env.FC_PATH === undefined) coverage.assertReached();
  console.log(coverage.summary());
}

/** A property that is not a law over traces (a data structure, a digest): the same pinned seed, the same replay line. */
export function assertProperty<Ts extends [unknown, ...unknown[]]>(property: fc.IProperty<Ts>, name: string, testFile: string, runs: number): void {
  const details = fc.check(property, { seed: SEED, numRuns: runs * DEEP, ...(process.env.FC_PATH !== undefined ? { path: process.env.FC_PATH } : {}) });
  if (!details.failed) return;
  throw new Error(
    [
      `property ${name} failed: ${details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance)}`,
      `  counterexample ${fc.stringify(details.counterexample)}`,
      `  seed ${details.seed}, path ${details.counterexamplePath ?? ""}`,
      `  replay the property: ${replayEnvironment()}FC_SEED=${details.seed} FC_PATH=${details.counterexamplePath ?? ""} npx vitest run ${testFile} -t "${name}"`,
    ].join("\n"),
  );
}
