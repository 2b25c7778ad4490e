#!/usr/bin/env node
// `npm run mutants`: loopsim's own semantic mutants (mutation/semantic-mutants.json), each a small
// patch to models/ that a plausible detector bug would be. Every mutant is applied to a copy of
// the sources, built, and the property suite alone (properties/) is run on it: a mutant counts as
// caught only when a property fails, not an example test. Writes mutation/semantic-results.md and
// exits 1 if any mutant survives. About 30 s a mutant.
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "..");
const mutants = JSON.parse(readFileSync(join(ROOT, "mutation", "semantic-mutants.json"), "utf8"));
const only = process.argv[2];
const rows = [];
for (const m of mutants) {
  if (only !== undefined && m.id !== only) continue;
  const dir = mkdtempSync(join(tmpdir(), `loopsim-mutant-${m.id}-`));
  try {
    // vitest.config.ts names the SKIPPED-summary reporter and the scratch folder's setup in test/,
    // so they come along.
    for (const part of ["models", "src", "properties", "scenarios", "tsconfig.json", "package.json", "vitest.config.ts", "test/skippedSummary.ts", "test/scratchRoot.ts"]) cpSync(join(ROOT, part), join(dir, part), { recursive: true });
    symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
    const file = join(dir, m.file);
    const source = readFileSync(file, "utf8");
    const hits = source.split(m.find).length - 1;
    if (hits !== 1) {
      rows.push({ ...m, caught: false, by: `patch does not apply (${hits} matches)` });
      continue;
    }
    writeFileSync(file, source.replace(m.find, m.replace));
    // Only what the properties need is copied, so the build covers models, src and properties.
    const build = spawnSync(process.execPath, [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json"], { cwd: dir, encoding: "utf8" });
    if (build.status !== 0) {
      rows.push({ ...m, caught: false, by: `does not compile: ${build.stdout.split("\n")[0]}` });
      continue;
    }
    const run = spawnSync(process.execPath, [join(ROOT, "node_modules", "vitest", "vitest.mjs"), "run", "properties"], { cwd: dir, encoding: "utf8", timeout: 600_000 });
    if (process.env.MUTANT_DEBUG) process.stdout.write((run.stdout + run.stderr).slice(-3000));
    const failed = [...new Set([...(run.stdout + run.stderr).matchAll(/property ([\w-]+) failed/g)].map((x) => x[1]))];
    rows.push({ ...m, caught: run.status !== 0 && failed.length > 0, by: failed.join(", ") || (run.status !== 0 ? "a failure that is not a property" : "") });
  } finally {
    rmSync(dir, { recursive: true, force: true });
    const last = rows.at(-1);
    process.stdout.write(`${last.caught ? "CAUGHT  " : "SURVIVED"} ${m.id} (${m.rule})${last.by === "" ? "" : `: ${last.by}`}\n`);
  }
}
const caught = rows.filter((r) => r.caught).length;
const table = [
  "# Semantic mutants",
  "",
  "Made by `npm run mutants` (mutation/runSemanticMutants.mjs): each mutant of `mutation/semantic-mutants.json` applied to a copy of the sources, and the property suite alone run on it.",
  "",
  `${caught} of ${rows.length} caught by a property.`,
  "",
  "| mutant | rule | the bug | caught by |",
  "|---|---|---|---|",
  ...rows.map((r) => `| ${r.id} | ${r.rule} | ${r.why} | ${r.caught ? r.by : `**survived** ${r.by}`} |`),
  "",
].join("\n");
if (only === undefined) writeFileSync(join(ROOT, "mutation", "semantic-results.md"), table);
process.stdout.write(`${caught} of ${rows.length} caught by a property\n`);
process.exitCode = caught === rows.length ? 0 : 1;
