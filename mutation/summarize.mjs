#!/usr/bin/env node
// Turns the per-file outcomes in mutation/results/ (written by `npm run mutation`) into the
// committed summary mutation/stryker-summary.md: for each group of mutation/files.mjs (models/, the
// miner's rules) its score against the goal, the score per file and the files not yet run; then
// every mutant left alive with the reason it is equivalent where one is known
// (mutation/equivalent-mutants.json). Outcomes are kept per file so a run cut off part-way still
// counts for the files it finished, and a file is rerun alone after its tests change. The groups
// are scored apart: different tests judge them, and one group's score would hide the other's.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { groups, ROOT } from "./files.mjs";

const RESULTS = join(ROOT, "mutation", "results");
const knownFile = join(ROOT, "mutation", "equivalent-mutants.json");
const known = existsSync(knownFile) ? JSON.parse(readFileSync(knownFile, "utf8")) : [];
// A known equivalent is matched by file, mutator and replacement text, and by line where the same
// replacement occurs more than once in a file; lines move as code is edited, replacements rarely.
const why = (file, m) => known.find((k) => k.file === file && k.mutator === m.mutator && k.replacement === m.replacement && (k.line === undefined || k.line === m.line))?.why;

const results = new Map();
for (const name of existsSync(RESULTS) ? readdirSync(RESULTS).sort() : []) {
  if (!name.endsWith(".json")) continue;
  const result = JSON.parse(readFileSync(join(RESULTS, name), "utf8"));
  results.set(result.file, result.mutants);
}

const shown = (text) => text.replace(/\s+/g, " ").slice(0, 70).replace(/\|/g, "\\|");
const pct = (part, whole) => (whole === 0 ? "-" : `${((100 * part) / whole).toFixed(2)}%`);
const files = (list) => list.map((f) => `\`${f}\``).join(", ");
const alive = [];
const ignored = [];
const sections = [];
const totals = [];
for (const group of groups()) {
  const rows = [];
  const notRun = [];
  let detectedAll = 0;
  let validAll = 0;
  let belowGoal = 0;
  let staticRerun = 0;
  for (const file of group.files) {
    const mutants = results.get(file);
    if (mutants === undefined) {
      notRun.push(file);
      continue;
    }
    const counts = { Killed: 0, Timeout: 0, Survived: 0, NoCoverage: 0, Ignored: 0, other: 0 };
    for (const m of mutants) {
      if (m.status in counts) counts[m.status]++;
      else counts.other++; // CompileError, RuntimeError: not valid mutants, as Stryker counts them
      if (m.status === "Survived" || m.status === "NoCoverage") alive.push({ file, m });
      if (m.status === "Ignored") ignored.push({ file, m });
      if (m.static === true) staticRerun++;
    }
    const detected = counts.Killed + counts.Timeout;
    const valid = detected + counts.Survived + counts.NoCoverage;
    detectedAll += detected;
    validAll += valid;
    if (valid > 0 && detected / valid < 0.85) belowGoal++;
    rows.push(`| ${file} | ${pct(detected, valid)} | ${counts.Killed} | ${counts.Timeout} | ${counts.Survived} | ${counts.NoCoverage} | ${counts.Ignored} | ${counts.other} |`);
  }
  const run = group.files.length - notRun.length;
  const score = pct(detectedAll, validAll);
  totals.push(`${group.name}: ${score} (${detectedAll}/${validAll}) over ${run} of ${group.files.length} files`);
  sections.push(
    `## ${group.title}`,
    "",
    `Judged by ${group.judgedBy}. Score: **${score}** (${detectedAll} of ${validAll} valid mutants detected, over ${run} of ${group.files.length} files). Goal: 90% overall, 85% in every file; ${belowGoal} file(s) below 85%.`,
    "",
    `Static mutants (module-level code, run once at load) were run a second time with fresh modules for every run: ${staticRerun} of them.`,
    "",
    "| file | score | killed | timed out | survived | no coverage | ignored | not valid |",
    "|---|---|---|---|---|---|---|---|",
    ...rows,
    "",
    ...(notRun.length > 0 ? [`**Not run yet:** ${files(notRun)}.`, ""] : []),
  );
}
const lines = [
  "# Mutation testing (Stryker 9.6.1)",
  "",
  "Made by `npm run mutation` (file by file; `node mutation/summarize.mjs` remakes this page from mutation/results/). Two groups, each scored on its own: models/, and the miner's rules that carry loopsim's real-loop figures.",
  "",
  ...sections,
  "## Mutants left alive",
  "",
  "| place | mutator | status | replacement | why |",
  "|---|---|---|---|---|",
  ...alive.map(({ file, m }) => `| ${file}:${m.line} | ${m.mutator} | ${m.status} | \`${shown(m.replacement)}\` | ${why(file, m) ?? "not yet killed"} |`),
  "",
  "## Mutants ignored",
  "",
  "Marked equivalent in the source with a `Stryker disable` comment that gives the reason; Stryker leaves them out of the score.",
  "",
  "| place | mutator | replacement | reason |",
  "|---|---|---|---|",
  ...ignored.map(({ file, m }) => `| ${file}:${m.line} | ${m.mutator} | \`${shown(m.replacement)}\` | ${(m.reason ?? "").replace(/\|/g, "\\|")} |`),
  "",
];
writeFileSync(join(ROOT, "mutation", "stryker-summary.md"), lines.join("\n"));
process.stdout.write(`${totals.join("; ")}; wrote mutation/stryker-summary.md\n`);
