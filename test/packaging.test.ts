// The package as a user gets it: `npm pack`, the tarball installed into a copy of the example
// guard project (examples/guard-project, which also depends on vitest and typescript), the
// installed command run (--version, trace, tune), and the project's own checks: `tsc` typechecks
// its imports of "loopsim" and "loopsim/vitest", and its `vitest run` passes on its guard and
// fails, with conform's replay line, on the broken variant. Installing fetches the dependencies
// (from npm's cache when it has them); with neither cache nor registry the test says SKIPPED.
import { spawnSync } from "node:child_process";
import { cpSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { tempDir } from "./cli/run.js";

const ROOT = join(import.meta.dirname, "..");
// A child vitest must not think it is one of this run's workers.
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("VITEST") && k !== "NODE_OPTIONS" && k !== "TINYPOOL_WORKER_ID"));
const npm = (args: string[], cwd: string) => spawnSync("npm", args, { cwd, encoding: "utf8", timeout: 240_000, env: { ...cleanEnv, npm_config_update_notifier: "false" } });

it("npm pack, install the tarball into the example guard project, run the installed loopsim and the project's own tests", { timeout: 300_000 }, (context) => {
  const packs = tempDir();
  // dist/ is already built by `npm test`; --ignore-scripts keeps pack from rebuilding it under running tests.
  const pack = npm(["pack", "--ignore-scripts", "--pack-destination", packs], ROOT);
  expect(pack.status, pack.stderr).toBe(0);
  const tarball = readdirSync(packs).find((f) => f.endsWith(".tgz"));
  expect(tarball).toBeDefined();
  const listing = spawnSync("tar", ["-tzf", join(packs, tarball as string)], { encoding: "utf8" }).stdout;
  expect(listing).toContain("package/dist/src/cli/main.js");
  expect(listing).toContain("package/bin/loopsim.js");
  expect(listing).toContain("package/dist/src/api/index.d.ts");
  expect(listing).toContain("package/dist/src/api/vitest.d.ts");
  expect(listing).not.toMatch(/package\/dist\/.*\.test\.js/);

  const prefix = join(tempDir(), "guard-project");
  cpSync(join(ROOT, "examples", "guard-project"), prefix, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(prefix, "package.json"), "utf8")) as { devDependencies: Record<string, string> };
  manifest.devDependencies.loopsim = `file:${join(packs, tarball as string)}`;
  writeFileSync(join(prefix, "package.json"), JSON.stringify(manifest, null, 2));
  const install = npm(["install", "--prefer-offline", "--no-audit", "--no-fund"], prefix);
  if (install.status !== 0) {
    const why = /ENOTCACHED|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|network/i.exec(install.stderr)?.[0];
    if (why !== undefined) {
      console.log(`SKIPPED: installing the packed tarball into the example project needs its dependencies from npm's cache or registry (${why})`);
      context.skip();
    }
    expect(install.status, install.stderr).toBe(0);
  }
  // The tarball ships dist/ built: installing runs no script, so npm has nothing to warn about.
  expect(install.stderr).not.toMatch(/install-scripts|prepare/);
  const bin = join(prefix, "node_modules", ".bin", "loopsim");
  const run = (args: string[]) => spawnSync(bin, args, { cwd: prefix, encoding: "utf8", timeout: 120_000 });
  expect(run(["--version"]).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  const trace = join(prefix, "t.jsonl");
  writeFileSync(trace, '{"type":"call","runId":"r","callId":"c1","tool":"read","params":{"path":"a"}}\n');
  const traced = run(["trace", trace]);
  expect(traced.status, traced.stderr).toBe(0);
  expect(traced.stdout).toMatch(/call\s+read\s+allow/);
  const tuned = run(["tune", "--agents", "12", "--grid", "warningThreshold=5,10;criticalThreshold=20", "--out", join(prefix, "report")]);
  expect(tuned.status, tuned.stderr).toBe(0);
  expect(readdirSync(join(prefix, "report")).sort()).toEqual(["report.html", "report.json", "report.md"]);

  // The library, typed: the example's imports of "loopsim" and "loopsim/vitest" typecheck.
  const npx = (args: string[], env: Record<string, string> = {}) => spawnSync(join(prefix, "node_modules", ".bin", args[0] as string), args.slice(1), { cwd: prefix, encoding: "utf8", timeout: 240_000, env: { ...cleanEnv, NO_COLOR: "1", ...env } });
  const plain = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, "");
  const typecheck = npx(["tsc", "--noEmit"]);
  expect(typecheck.status, typecheck.stdout + typecheck.stderr).toBe(0);
  // The laws at a twentieth of their cases: this checks the wiring, not the guard (a law whose
  // cases come short of what it must reach is skipped as vacuous, never passed).
  const passing = npx(["vitest", "run"], { LOOPSIM_DEPTH: "0.05" });
  expect(passing.status, passing.stdout + passing.stderr).toBe(0);
  expect(plain(passing.stdout)).toMatch(/Tests\s+\d+ passed/);
  const failing = npx(["vitest", "run"], { LOOPSIM_DEPTH: "0.05", LOOP_GUARD: "./src/broken-guard.mjs" });
  expect(failing.status).toBe(1);
  const out = plain(failing.stdout + failing.stderr);
  expect(out).toContain("my-guard-broken fails scenario k2-heartbeat-runs (rules R1, K2)");
  // loopsim is in node_modules/.bin, not on PATH (unless installed globally too): the replay line says npx loopsim.
  expect(out).toMatch(/replay: (npx )?loopsim conform --target \S+broken-guard\.mjs --law fresh-run-starts-from-zero --seed 20261202 --path [\d:]+/);
});
