// Vitest's file order: the slowest files first, so the two workers finish together. Vitest
// already does this from its own record of the last run's durations (node_modules/.vite), but a
// clean clone (CI: `npm ci`) has no record, and vitest then starts the largest files first: the
// two slowest here, docs.test.ts and conform.test.ts, are short files that wait on long runs and
// would start in the second half of the run, leaving one core idle at the end. So a file with no
// recorded duration takes the one below, measured in a clean-clone CI run on 2 cores; a file in
// neither comes after them, largest first, as vitest would. Keep the list to files over ~5 s: a
// stale figure only moves a file in the queue, it never skips or changes a test.
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** Milliseconds per file in the last clean-clone CI run (2 cores, two workers). */
export const CI_DURATIONS: Readonly<Record<string, number>> = {
  "test/docs.test.ts": 71420,
  "test/conform.test.ts": 53869,
  "test/realRuntimes.test.ts": 36240,
  "test/cli/newUserHoles.test.ts": 21952,
  "test/cli/hardening.test.ts": 19980,
  "test/browser.test.ts": 19131,
  "test/bugZoo.test.ts": 18733,
  "test/packaging.test.ts": 15146,
  "test/slurm.test.ts": 13943,
  "test/drivenCompare.test.ts": 13622,
  "test/groundedCorpus.test.ts": 13290,
  "test/cli/compare.test.ts": 13229,
  "test/cli/issue36.test.ts": 12392,
  "test/openclawRelease.test.ts": 11684,
  "test/cli/calibrate.test.ts": 11306,
  "test/committedOutputs.test.ts": 11132,
};

export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // Vitest's order (failed first, then by recorded duration, or largest first) breaks ties.
    const byDefault = await super.sort(files);
    const position = new Map(byDefault.map((f, i) => [f, i]));
    const recorded = (f: TestSpecification) => this.ctx.cache.getFileTestResults(`${f.project.name}:${relative(this.ctx.config.root, f.moduleId)}`);
    const expected = (f: TestSpecification): number | undefined => recorded(f)?.duration ?? CI_DURATIONS[relative(this.ctx.config.root, f.moduleId)];
    return [...byDefault].sort((a, b) => {
      // A file that failed last time still runs first, as vitest's own order has it.
      const failedA = recorded(a)?.failed === true;
      const failedB = recorded(b)?.failed === true;
      if (failedA !== failedB) return failedA ? -1 : 1;
      // Files that share modules (isolate: false) after the others, as vitest's own order has it,
      // and together: a worker keeps its modules only while the next file in the queue shares them.
      const sharedA = a.project.config.isolate === false;
      const sharedB = b.project.config.isolate === false;
      if (sharedA !== sharedB) return sharedA ? 1 : -1;
      const ea = expected(a);
      const eb = expected(b);
      if (ea !== undefined && eb !== undefined && ea !== eb) return eb - ea;
      if (ea !== undefined && eb === undefined) return -1;
      if (ea === undefined && eb !== undefined) return 1;
      return (position.get(a) ?? 0) - (position.get(b) ?? 0);
    });
  }
}
