// The package as a user gets it: `npm pack`, the tarball installed into an empty prefix, and the
// installed command run (--version, trace, tune). Installing fetches loopsim's dependencies (from
// npm's cache when it has them); with neither cache nor registry the test says SKIPPED and why.
import { spawnSync } from "node:child_process";
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { tempDir } from "./cli/run.js";

const ROOT = join(import.meta.dirname, "..");
const npm = (args: string[], cwd: string) => spawnSync("npm", args, { cwd, encoding: "utf8", timeout: 240_000, env: { ...process.env, npm_config_update_notifier: "false" } });

it("npm pack, install the tarball into a fresh prefix, and run the installed loopsim", { timeout: 300_000 }, (context) => {
  const packs = tempDir();
  // dist/ is already built by `npm test`; --ignore-scripts keeps pack from rebuilding it under running tests.
  const pack = npm(["pack", "--ignore-scripts", "--pack-destination", packs], ROOT);
  expect(pack.status, pack.stderr).toBe(0);
  const tarball = readdirSync(packs).find((f) => f.endsWith(".tgz"));
  expect(tarball).toBeDefined();
  const listing = spawnSync("tar", ["-tzf", join(packs, tarball as string)], { encoding: "utf8" }).stdout;
  expect(listing).toContain("package/dist/src/cli/main.js");
  expect(listing).toContain("package/bin/loopsim.js");
  expect(listing).not.toMatch(/package\/dist\/.*\.test\.js/);

  const prefix = tempDir();
  const install = npm(["install", "--prefix", prefix, "--prefer-offline", "--no-audit", "--no-fund", join(packs, tarball as string)], prefix);
  if (install.status !== 0) {
    const why = /ENOTCACHED|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|network/i.exec(install.stderr)?.[0];
    if (why !== undefined) {
      console.log(`SKIPPED: installing the packed tarball needs loopsim's dependencies from npm's cache or registry (${why})`);
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
});
