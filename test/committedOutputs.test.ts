// Committed outputs are what a run makes today (issue 36, item 8). Two kinds are in the repo:
// - docs/api, typedoc's pages for the shipped declarations. Running typedoc here would take about a
//   minute on two cores, so the check reads the shipped .d.ts (dist/, which tsc builds before the
//   suite) with the TypeScript compiler instead: every export has its page and no page outlives its
//   export, and every field, parameter and union member named in the declarations is on its page.
//   When it fails, `npm run docs:api` makes the pages again.
// - the committed comparison reports, rendered again from their compare.json, and the peer
//   agreement report (reports/peers) from its agreement.json.
// - reports/example and reports/example-sessions, the tune reports the guides point to. Their
//   rendering and everything derived from their rows (picks, wording, charts) is made again from
//   their own report.json and must be byte-identical; reports/example's command (its `reproduce`
//   line) is planned again and one shard of its configs run again, whose rows must be the
//   committed rows. When it fails, the command in the report's header makes it again.
// - src/sim/changingArgsParams.json, the simulator's changing-args fit: made again from
//   ../shared/datasets with its own command (about 6 s of CPU) and compared byte for byte, since a
//   change to the miner's rules changes what it finds (rounds 4 to 7 did, and nothing caught it).
//   Needs ../shared/datasets; says SKIPPED without it. When it fails, the file's `command` makes it again.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { finishReport, reportJson, type TuneInputs, type TuneReport } from "../src/tune/report.js";
import { renderMarkdown } from "../src/tune/renderMarkdown.js";
import { renderHtml } from "../src/tune/renderHtml.js";
import { planTune, runTune, type TuneArgs } from "../src/commands/tune.js";
import type { ConfigRow } from "../src/evaluation/evaluate.js";
import type { CompareReport } from "../src/compare/report.js";
import { renderCompareMarkdown } from "../src/compare/renderMarkdown.js";
import { renderCompareHtml } from "../src/compare/renderHtml.js";
import { fitChangingArgs } from "../src/commands/fitChangingArgs.js";
import { renderAgreementMarkdown } from "../src/agreement/renderAgreement.js";
import type { AgreementReport, NotRun } from "../src/agreement/agreement.js";

const ROOT = join(import.meta.dirname, "..");
const read = (...parts: string[]) => readFileSync(join(ROOT, ...parts), "utf8");

/** typedoc's folder for each kind of export. */
function folderOf(declaration: ts.Declaration): string | undefined {
  if (ts.isFunctionDeclaration(declaration)) return "functions";
  if (ts.isInterfaceDeclaration(declaration) || ts.isClassDeclaration(declaration)) return "interfaces";
  if (ts.isTypeAliasDeclaration(declaration)) return "types";
  if (ts.isVariableDeclaration(declaration)) return "variables";
  return undefined;
}

/**
 * What a page must show, as the markup typedoc gives it: each parameter of a function (as a
 * parameter), each field of an interface or type literal and each named member of a union (as an
 * element's whole text).
 */
function marksIn(declaration: ts.Declaration): { readonly name: string; readonly mark: RegExp }[] {
  const out: { name: string; mark: RegExp }[] = [];
  const element = (name: string) => out.push({ name, mark: new RegExp(`>${name}<`) });
  const members = (list: ts.NodeArray<ts.TypeElement>) => {
    for (const m of list) if (m.name !== undefined && (ts.isIdentifier(m.name) || ts.isStringLiteral(m.name))) element(m.name.text);
  };
  if (ts.isInterfaceDeclaration(declaration)) members(declaration.members);
  if (ts.isFunctionDeclaration(declaration)) for (const p of declaration.parameters) if (ts.isIdentifier(p.name)) out.push({ name: p.name.text, mark: new RegExp(`tsd-kind-parameter">${p.name.text}<`) });
  if (ts.isTypeAliasDeclaration(declaration)) {
    const type = declaration.type;
    if (ts.isTypeLiteralNode(type)) members(type.members);
    if (ts.isUnionTypeNode(type)) for (const t of type.types) if (ts.isTypeReferenceNode(t) && ts.isIdentifier(t.typeName)) element(t.typeName.text);
  }
  return out;
}

describe("docs/api matches the shipped declarations", () => {
  const entries = [
    { module: "index", file: join(ROOT, "dist", "src", "api", "index.d.ts") },
    { module: "vitest", file: join(ROOT, "dist", "src", "api", "vitest.d.ts") },
  ];
  const built = entries.every((e) => existsSync(e.file));
  it.skipIf(!built)("every export has its page, no page outlives its export, each page names every field and parameter, and every function and value has its TSDoc", () => {
    const program = ts.createProgram(entries.map((e) => e.file), { skipLibCheck: true, noEmit: true });
    const checker = program.getTypeChecker();
    const expected = new Set<string>();
    const missing: string[] = [];
    for (const entry of entries) {
      const source = program.getSourceFile(entry.file);
      const symbol = source === undefined ? undefined : checker.getSymbolAtLocation(source);
      if (symbol === undefined) throw new Error(`${entry.file}: no module symbol`);
      for (const exported of checker.getExportsOfModule(symbol)) {
        const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
        // Every exported function and value says what it is (its TSDoc is its page's text).
        const described = ts.displayPartsToString(target.getDocumentationComment(checker)).trim() !== "" || (target.declarations ?? []).some((d) => ts.getJSDocCommentsAndTags(d).length > 0);
        if (!described && (target.declarations ?? []).some((d) => ["functions", "variables"].includes(folderOf(d) ?? ""))) missing.push(`${entry.module}.${exported.name}: no TSDoc`);
        for (const declaration of target.declarations ?? []) {
          const folder = folderOf(declaration);
          if (folder === undefined) continue;
          const page = join(folder, `${entry.module}.${exported.name}.html`);
          expected.add(page);
          const file = join(ROOT, "docs", "api", page);
          if (!existsSync(file)) {
            missing.push(`${page}: no page (exported by ${entry.module})`);
            continue;
          }
          const html = readFileSync(file, "utf8");
          for (const { name, mark } of marksIn(declaration)) if (!mark.test(html)) missing.push(`${page}: ${name} is declared but not on the page`);
        }
      }
    }
    const pages = ["functions", "interfaces", "types", "variables"].flatMap((folder) => (existsSync(join(ROOT, "docs", "api", folder)) ? readdirSync(join(ROOT, "docs", "api", folder)).map((f) => join(folder, f)) : []));
    const stale = pages.filter((p) => !expected.has(p)).map((p) => `${p}: a page for nothing exported`);
    expect([...missing, ...stale], "docs/api is stale: run `npm run docs:api`").toEqual([]);
  });
  if (!built) it("SKIPPED: dist/src/api/*.d.ts is not built (run npx tsc -p tsconfig.json first)", () => undefined);
});

describe("the committed tuning reports are what loopsim makes of them today", () => {
  for (const dir of ["reports/example", "reports/example-sessions"]) {
    it(`${dir}: its picks and wording from its own rows, and its Markdown and HTML from its JSON, byte for byte`, () => {
      const text = read(dir, "report.json");
      const report = JSON.parse(text) as TuneReport;
      const { schema: _s, definitions: _d, rows, pareto: _p, recommendations: _r, disagreements: _g, realLoops: _l, reactionSensitivity: _x, ...inputs } = report;
      // A report with a reaction grid keeps only its summary: the rows' grids are gone, so its sensitivity section is taken as written.
      const again = finishReport(inputs as TuneInputs, rows);
      const made = report.reactionSensitivity === undefined ? again : { ...again, reactionSensitivity: report.reactionSensitivity };
      expect(reportJson(made), `${dir}/report.json: regenerate it with its reproduce line`).toBe(text);
      expect(renderMarkdown(report), `${dir}/report.md`).toBe(read(dir, "report.md"));
      expect(renderHtml(report), `${dir}/report.html`).toBe(read(dir, "report.html"));
    });
  }

  it("reports/example: its reproduce line plans the same inputs, and one shard of its configs runs to the committed rows", async () => {
    const report = JSON.parse(read("reports", "example", "report.json")) as TuneReport;
    const args: TuneArgs = { population: report.population.name, agents: report.agents, seed: report.seed, grid: report.grid.spec, json: true, workers: 1 };
    const plan = await planTune({ ...args, shard: "1/24" });
    expect(plan.inputs.reproduce).toBe(report.reproduce);
    const { schema: _s, definitions: _d, rows, pareto: _p, recommendations: _r, ...inputs } = report;
    expect(plan.inputs).toEqual(inputs);
    const run = await runTune(plan);
    if (run.kind !== "partial" || !("rows" in run.partial)) throw new Error("expected a shard's rows");
    const mine = run.partial.rows as readonly ConfigRow[];
    expect(mine.map((r) => r.index)).toEqual(rows.filter((r) => r.index % 24 === 0).map((r) => r.index));
    expect(mine).toEqual(rows.filter((r) => r.index % 24 === 0));
  });
});

describe("the committed comparison reports are rendered as loopsim renders them today", () => {
  for (const dir of ["reports/compare", "reports/compare-sessions", "reports/real-loops/compare", "reports/real-loops/compare-read", "reports/real-loops/compare-held-out", "reports/real-loops/compare-driven"]) {
    it.skipIf(!existsSync(join(ROOT, dir, "compare.json")))(`${dir}: its Markdown and HTML from its JSON, byte for byte`, () => {
      const report = JSON.parse(read(dir, "compare.json")) as CompareReport;
      expect(renderCompareMarkdown(report), `${dir}/compare.md: regenerate it with its reproduce line`).toBe(read(dir, "compare.md"));
      expect(renderCompareHtml(report), `${dir}/compare.html`).toBe(read(dir, "compare.html"));
    });
  }
});

describe("the committed peer agreement report is rendered as loopsim renders it today", () => {
  // Its notes on known differences (src/agreement/knownDifferences.ts) and its wording are code: a
  // change to them must come with the report made again (`conform --against ...` drives the CLIs
  // for most of an hour, so the check renders the committed agreement.json rather than re-running).
  it("reports/peers: its Markdown from its JSON, byte for byte", () => {
    const report = JSON.parse(read("reports/peers", "agreement.json")) as { command: string; reports: AgreementReport[]; notRun: NotRun[] };
    expect(renderAgreementMarkdown(report.reports, report.command, report.notRun), "reports/peers/agreement.md: regenerate it with the command in its header").toBe(read("reports/peers", "agreement.md"));
  });
});

const DATASETS = join(ROOT, "..", "shared", "datasets");
const HAVE_DATASETS = existsSync(DATASETS);
if (!HAVE_DATASETS) console.log(`SKIPPED: the check that src/sim/changingArgsParams.json is what fit-changing-args makes today needs ../shared/datasets, which is not here (${DATASETS})`);

describe.skipIf(!HAVE_DATASETS)("the committed changing-args fit is what fit-changing-args makes of the datasets today", () => {
  const FIT = "src/sim/changingArgsParams.json";
  // What the file records, run from the repository's root as its docs say.
  const COMMAND = `node bin/loopsim.js fit-changing-args ../shared/datasets --out ${FIT} --force`;
  it(`${FIT}: made again by its own command, byte for byte`, async () => {
    // Read from where the datasets are, whatever the test's working folder: only the recorded command line names the paths.
    const fit = await fitChangingArgs({ paths: [DATASETS] });
    expect(fit.read.bad, "sessions the fit could not read").toEqual([]);
    const made = fit.text.replace(JSON.stringify(`node bin/loopsim.js fit-changing-args ${DATASETS}`), JSON.stringify(COMMAND));
    expect(made, `${FIT} is stale (the miner finds other stretches now): regenerate it with \`${COMMAND}\` and re-record the scenarios that draw from it (loopsim replay scenarios/families/changing-args-stuck-small.json scenarios/families/changing-args-stuck-flagship.json --update)`).toBe(read(FIT));
  });
});
