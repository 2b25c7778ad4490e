// The layers of loopsim, bottom to top (docs/ARCHITECTURE.md draws them). A module may import
// from its own layer or any layer below it, never from one above; there are no import cycles and
// no module that nothing imports and that imports nothing. `npm test` runs this
// (test/layers.test.ts), and a test proves that an import against the order is caught.
const LAYERS = [
  ["the reference model", ["models"]],
  ["base: errors, files, statistics, wording", ["src/io", "src/stats", "src/format"]],
  ["inputs: session importers", ["src/import"]],
  ["targets: every guard under test", ["src/targets"]],
  ["agents and evaluation", ["src/sim", "src/arbitraries", "src/sessions", "src/scenario", "src/evaluation", "src/grounded", "src/realLoops"]],
  ["checks: laws, conformance, agreement", ["properties", "src/conform", "src/agreement", "src/contract"]],
  ["reports", ["src/reportParts", "src/tune", "src/compare", "src/calibrate", "src/scan", "src/ci", "src/field"]],
  ["commands", ["src/commands"]],
  ["the library's public API", ["src/api"]],
  ["the command line", ["src/cli"]],
  ["benchmarks", ["bench"]],
];

const folders = (paths) => `^(${paths.join("|")})/`;
// Tests may reach into any layer; they are not part of the layering.
const TESTS = "(\\.test\\.ts$|\\.cases\\.ts$|^test/)";

const upward = LAYERS.slice(0, -1).map(([name, paths], i) => ({
  name: `no-import-upward-from-${paths.map((p) => p.replace(/\//g, "-")).join("+")}`,
  comment: `${name} may import only from its own layer or those below it`,
  severity: "error",
  from: { path: folders(paths), pathNot: TESTS },
  to: { path: folders(LAYERS.slice(i + 1).flatMap(([, p]) => p)) },
}));

const config = {
  forbidden: [
    ...upward,
    {
      name: "every-module-in-a-layer",
      comment: "a source folder that is in no layer has no place in the order: add it to LAYERS",
      severity: "error",
      from: { path: "^(src|models|properties|bench)/", pathNot: `${folders(LAYERS.flatMap(([, p]) => p))}|${TESTS}` },
      to: {},
    },
    {
      name: "tune-and-compare-apart",
      comment: "tune and compare each build their own report; what both draw lives in src/reportParts (one room for shared report parts), so neither folder leans on the other",
      severity: "error",
      from: { path: "^src/(tune|compare)/", pathNot: TESTS },
      to: { path: "^src/(tune|compare)/", pathNot: "^src/$1/" },
    },
    {
      name: "report-parts-below-reports",
      comment: "the shared report parts serve every report and import none of them",
      severity: "error",
      from: { path: "^src/reportParts/", pathNot: TESTS },
      to: { path: "^src/(tune|compare|calibrate|scan|ci|field)/" },
    },
    { name: "no-circular", comment: "an import cycle ties modules that should be apart", severity: "error", from: { pathNot: TESTS }, to: { circular: true } },
    { name: "no-orphans", comment: "a module nothing imports and that imports nothing is dead or misplaced", severity: "error", from: { orphan: true, pathNot: `${TESTS}|\\.d\\.ts$|(^|/)(vitest|stryker)\\.config\\.` }, to: {} },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(dist|node_modules|\\.loopsim-cache)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
  },
};

module.exports = config;
