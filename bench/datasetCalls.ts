// The import check on the public datasets (issue 35): for every session file under a root
// (default ../shared/datasets), the actions the environment answered, counted straight from the
// raw JSON by the shared convention (docs/guide/formats.md), against the calls loopsim imports.
// They must be equal file by file. Prints the per-dataset figures (sessions, calls, sessions with
// no call) and every file where the two counts differ; exits 1 when any does.
//
//   npx tsc -p tsconfig.json && node dist/bench/datasetCalls.js [ROOT] [--sample]
//
// --sample reads every tau-bench run and one file per run folder (what test/datasets.test.ts
// does); without it every file is read (about a minute on one core).
import { join, relative } from "node:path";
import { openSession } from "../src/import/session.js";
import { sessionRefs } from "../src/import/sessionRefs.js";
import { splitAdpRef } from "../src/import/adp.js";
import { answeredActions, sampled } from "./datasetCounts.js";

interface Figures {
  sessions: number;
  calls: number;
  zero: number;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const sample = args.includes("--sample");
  const root = args.find((a) => !a.startsWith("--")) ?? join(process.cwd(), "..", "shared", "datasets");
  const { refs, bad, ignored } = await sessionRefs([root]);
  const chosen = sample ? sampled(refs) : refs;
  const byDataset = new Map<string, Figures>();
  const mismatches: string[] = [];
  const expectedByFile = new Map<string, Map<string, number>>();
  for (const ref of chosen) {
    const { file, id } = splitAdpRef(ref.ref);
    let want = expectedByFile.get(file);
    if (want === undefined) {
      want = answeredActions(file);
      expectedByFile.clear();
      expectedByFile.set(file, want);
    }
    const opened = await openSession(ref.ref, "auto", { text: false, span: ref.span });
    for await (const _ of opened.events) void _;
    const calls = opened.stats.calls;
    const dataset = relative(root, file).split(/[\\/]/)[0] as string;
    const f = byDataset.get(dataset) ?? { sessions: 0, calls: 0, zero: 0 };
    f.sessions++;
    f.calls += calls;
    if (calls === 0) f.zero++;
    byDataset.set(dataset, f);
    const answered = want.get(id ?? "");
    if (answered !== calls) mismatches.push(`${ref.id}: ${answered ?? "?"} actions answered, ${calls} calls imported`);
  }
  for (const [dataset, f] of [...byDataset].sort()) console.log(`${dataset}: ${f.sessions} sessions, ${f.calls} calls, ${f.zero} with no call`);
  for (const b of bad) console.log(`unreadable: ${b.file}: ${b.reason}`);
  console.log(`${ignored.length} files passed over as no session (reports, labels)`);
  for (const m of mismatches.slice(0, 40)) console.log(`MISMATCH ${m}`);
  console.log(`${mismatches.length} sessions where answered actions and imported calls differ, of ${chosen.length}`);
  if (mismatches.length > 0 || bad.length > 0) process.exitCode = 1;
}

await main();
