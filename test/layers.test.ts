// The layers hold: dependency-cruiser with .dependency-cruiser.cjs finds no import against the
// layer order, no cycle, no orphan and no folder outside the layers. And the rules bite: a tree
// with one upward import, or one cycle, is refused with the rule's name.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "./cli/run.js";

const ROOT = join(import.meta.dirname, "..");
const CONFIG = join(ROOT, ".dependency-cruiser.cjs");
const depcruise = (cwd: string, paths: string[]) =>
  spawnSync(process.execPath, [join(ROOT, "node_modules", "dependency-cruiser", "bin", "dependency-cruise.mjs"), ...paths, "--config", CONFIG, "--output-type", "err"], { cwd, encoding: "utf8", timeout: 120_000 });

/** A small tree with a tsconfig like loopsim's: files by path, each with its source. */
function tree(files: Record<string, string>): string {
  const dir = tempDir();
  copyFileSync(join(ROOT, "tsconfig.json"), join(dir, "tsconfig.json"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe("the layers", () => {
  it("loopsim's own sources keep them: no upward import, no cycle, no orphan, every folder in a layer", () => {
    const r = depcruise(ROOT, ["src", "models", "properties", "bench"]);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/no dependency violations found/);
  });

  it("an import from a lower layer to a higher one is refused, named by its rule", () => {
    const dir = tree({
      "src/io/low.ts": 'import { high } from "../cli/high.js";\nexport const low = high;\n',
      "src/cli/high.ts": "export const high = 1;\n",
    });
    const r = depcruise(dir, ["src"]);
    expect(r.status).not.toBe(0);
    expect(r.stdout).toMatch(/no-import-upward-from-src-io\+src-stats\+src-format: src\/io\/low\.ts → src\/cli\/high\.ts/);
  });

  it("a cycle, and a folder in no layer, are refused", () => {
    const dir = tree({
      "src/sim/a.ts": 'import { b } from "./b.js";\nexport const a = () => b;\n',
      "src/sim/b.ts": 'import { a } from "./a.js";\nexport const b = () => a;\n',
      "src/elsewhere/x.ts": 'import { a } from "../sim/a.js";\nexport const x = a;\n',
    });
    const r = depcruise(dir, ["src"]);
    expect(r.status).not.toBe(0);
    expect(r.stdout).toMatch(/no-circular/);
    expect(r.stdout).toMatch(/every-module-in-a-layer: src\/elsewhere\/x\.ts/);
  });
});
