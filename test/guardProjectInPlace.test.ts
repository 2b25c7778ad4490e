// examples/guard-project run in place, as its README says, from a loopsim checkout: its own
// vitest.config.ts keeps vitest from taking loopsim's (found by searching the folders above),
// whose reporter it cannot find. test/packaging.test.ts installs the packed tarball into a copy
// elsewhere, which never sees this. Cheap: instead of `npm install`, the example's
// node_modules/loopsim links to this checkout (vitest and typescript resolve from the checkout's
// node_modules), and only its library test runs (the config is found, or not, before any file
// runs; test/packaging.test.ts runs the laws).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..");
const EXAMPLE = join(ROOT, "examples", "guard-project");
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("VITEST") && k !== "NODE_OPTIONS" && k !== "TINYPOOL_WORKER_ID"));

it("examples/guard-project's library test passes where it is, with its own vitest config", { timeout: 120_000 }, () => {
  const modules = join(EXAMPLE, "node_modules");
  const link = join(modules, "loopsim");
  const madeModules = !existsSync(modules);
  const made = !existsSync(link);
  if (made) {
    mkdirSync(modules, { recursive: true });
    symlinkSync(ROOT, link, "dir");
  }
  try {
    const res = spawnSync(process.execPath, [join(ROOT, "node_modules", "vitest", "vitest.mjs"), "run", "test/api.test.ts"], { cwd: EXAMPLE, encoding: "utf8", timeout: 110_000, env: { ...cleanEnv, NO_COLOR: "1" } });
    expect(res.status, res.stdout + res.stderr).toBe(0);
    expect(res.stdout).toMatch(/Test Files\s+1 passed/);
    expect(res.stdout + res.stderr).not.toContain("skippedSummary");
  } finally {
    // Only what this test made goes (a user's own install stays).
    if (made) rmSync(link, { force: true });
    if (madeModules) rmSync(modules, { recursive: true, force: true });
  }
});
