#!/usr/bin/env node
// Turns Stryker's JSON report (reports/mutation/mutation.json, from `npm run mutation`) into the
// committed summary mutation/stryker-summary.md: the score per file and every mutant left alive,
// with the reason it is equivalent where one is known (mutation/equivalent-mutants.json).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "..");
const report = JSON.parse(readFileSync(join(ROOT, "reports", "mutation", "mutation.json"), "utf8"));
const knownFile = join(ROOT, "mutation", "equivalent-mutants.json");
const known = existsSync(knownFile) ? JSON.parse(readFileSync(knownFile, "utf8")) : [];
const why = (file, m) => known.find((k) => k.file === file && k.line === m.location.start.line && k.mutator === m.mutatorName)?.why;

const rows = [];
const alive = [];
let killed = 0;
let valid = 0;
for (const [file, f] of Object.entries(report.files).sort(([a], [b]) => (a < b ? -1 : 1))) {
  const counts = { killed: 0, timeout: 0, survived: 0, noCoverage: 0 };
  for (const m of f.mutants) {
    if (m.status === "Killed") counts.killed++;
    else if (m.status === "Timeout") counts.timeout++;
    else if (m.status === "Survived") counts.survived++;
    else if (m.status === "NoCoverage") counts.noCoverage++;
    if (m.status === "Survived" || m.status === "NoCoverage") alive.push({ file, m });
  }
  const detected = counts.killed + counts.timeout;
  const total = detected + counts.survived + counts.noCoverage;
  killed += detected;
  valid += total;
  rows.push(`| ${file} | ${total === 0 ? "-" : ((100 * detected) / total).toFixed(2)}% | ${detected} | ${counts.survived} | ${counts.noCoverage} |`);
}
const lines = [
  "# Mutation testing of models/ (Stryker 9.6.1)",
  "",
  `Made by \`npm run mutation\` then \`node mutation/summarize.mjs\`. Score: **${((100 * killed) / Math.max(1, valid)).toFixed(2)}%** (${killed} of ${valid} mutants detected). Goal: 90% overall, 85% per file.`,
  "",
  "| file | score | detected | survived | no coverage |",
  "|---|---|---|---|---|",
  ...rows,
  "",
  "## Mutants left alive",
  "",
  "| place | mutator | status | replacement | why |",
  "|---|---|---|---|---|",
  ...alive.map(({ file, m }) => `| ${file}:${m.location.start.line} | ${m.mutatorName} | ${m.status} | \`${(m.replacement ?? "").replace(/\s+/g, " ").slice(0, 70).replace(/\|/g, "\\|")}\` | ${why(file, m) ?? "not yet killed"} |`),
  "",
];
writeFileSync(join(ROOT, "mutation", "stryker-summary.md"), lines.join("\n"));
process.stdout.write(`${((100 * killed) / Math.max(1, valid)).toFixed(2)}% (${killed}/${valid}); wrote mutation/stryker-summary.md\n`);
