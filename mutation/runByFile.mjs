#!/usr/bin/env node
// `npm run mutation:by-file [-- FILE...]`: Stryker over models/ one file at a time, keeping each
// file's outcome in mutation/results/ as soon as its run ends. A whole-folder run takes hours on 2
// cores, and a run that is cut off would otherwise leave nothing; run file by file, every finished
// file counts, a rerun skips the files already done (pass --again to redo them), and
// `node mutation/summarize.mjs` merges whatever is there into mutation/stryker-summary.md.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";

const ROOT = join(import.meta.dirname, "..");
const RESULTS = join(ROOT, "mutation", "results");
const args = process.argv.slice(2);
const again = args.includes("--again");
const named = args.filter((a) => a !== "--again");

function modelFiles(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...modelFiles(path));
    else if (entry.name.endsWith(".ts")) out.push(relative(ROOT, path));
  }
  return out.sort();
}

/** The result file of one source file: models/history/scanning.ts -> models__history__scanning.json. */
export const resultName = (file) => `${file.replace(/\.ts$/, "").replaceAll("/", "__")}.json`;

const files = named.length > 0 ? named : modelFiles(join(ROOT, "models"));
mkdirSync(RESULTS, { recursive: true });
for (const file of files) {
  const target = join(RESULTS, resultName(file));
  if (!again && existsSync(target)) {
    process.stdout.write(`${file}: done before, skipped (--again to redo)\n`);
    continue;
  }
  process.stdout.write(`${file}: running Stryker\n`);
  const run = spawnSync("npx", ["stryker", "run", "stryker.config.mjs", "--mutate", file, "--reporters", "json,clear-text,progress-append-only"], { cwd: ROOT, stdio: ["ignore", "inherit", "inherit"] });
  if (run.status !== 0) {
    process.stderr.write(`${file}: Stryker exited ${run.status}; nothing recorded for it\n`);
    continue;
  }
  const report = JSON.parse(readFileSync(join(ROOT, "reports", "mutation", "mutation.json"), "utf8"));
  const mutants = (report.files[file]?.mutants ?? []).map((m) => ({
    line: m.location.start.line,
    column: m.location.start.column,
    mutator: m.mutatorName,
    replacement: m.replacement ?? "",
    status: m.status,
    ...(m.status === "Ignored" && m.statusReason !== undefined ? { reason: m.statusReason } : {}),
  }));
  mutants.sort((a, b) => a.line - b.line || a.column - b.column || (a.mutator < b.mutator ? -1 : a.mutator > b.mutator ? 1 : 0));
  // Written whole or not at all, like every other output of the project.
  writeFileSync(`${target}.tmp`, `${JSON.stringify({ file, mutants }, null, 1)}\n`);
  renameSync(`${target}.tmp`, target);
  process.stdout.write(`${file}: ${mutants.length} mutants recorded in ${relative(ROOT, target)}\n`);
}
