// A runtime that cannot run here is a check not made, said in the agreement report with its
// reason (exit 1), not an abort that loses the runtimes that did run; and agreement reports made
// apart (the driven CLIs take minutes each) merge into one with `conform --merge`, a later part's
// report of a runtime replacing an earlier one.
import { describe, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loopsim, tempDir } from "./run.js";

const OFFLINE = { npm_config_registry: "http://127.0.0.1:9/", npm_config_fetch_retries: "0", npm_config_fetch_timeout: "2000" };
const COMMITTED = join(import.meta.dirname, "..", "..", "reports", "peers", "agreement.json");

interface Report {
  readonly model: string;
  readonly against: string;
  readonly differ: number;
  readonly na: number;
  readonly probes: readonly { readonly verdict: string }[];
}
interface AgreementFile {
  readonly command: string;
  readonly reports: readonly Report[];
  readonly notRun: readonly { model: string; against: string; reason: string }[];
}

const read = (dir: string) => JSON.parse(readFileSync(join(dir, "agreement.json"), "utf8")) as AgreementFile;

describe("agreement reports: runtimes not run, and merging", () => {
  it("a runtime that cannot be fetched (driven or in-process) is reported as not run, with why, and exits 1", () => {
    const out = tempDir();
    const r = loopsim(["conform", "--against", "crush@0.96.1", "--against", "gemini-cli@0.1.0", "--probe", "repeat-5", "--out", out], undefined, undefined, { ...OFFLINE, LOOPSIM_CACHE: tempDir() });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    const file = read(out);
    expect(file.reports).toEqual([]);
    expect(file.notRun).toEqual([
      { model: "crush", against: "crush@0.96.1", reason: expect.stringMatching(/registry cannot be reached.*loopsim targets fetch crush@0\.96\.1/) },
      { model: "gemini-cli", against: "gemini-cli@0.1.0", reason: expect.stringMatching(/registry cannot be reached.*loopsim targets fetch gemini-cli@0\.1\.0/) },
    ]);
    const md = readFileSync(join(out, "agreement.md"), "utf8");
    expect(md).toContain("- **crush model: not run against crush@0.96.1**: crush@0.96.1: the npm registry cannot be reached");
    expect(md).toContain("## Not run here");
    expect(r.stderr).toContain("loopsim: crush model: not run against crush@0.96.1; gemini-cli model: not run against gemini-cli@0.1.0");
    // A name that is no runtime stays the user's mistake.
    const unknown = loopsim(["conform", "--against", "nosuch@1.0"]);
    expect(unknown.code).toBe(2);
  });

  it("conform --merge joins agreement reports; a runtime that ran in one part is not 'not run' from another", () => {
    const committed = JSON.parse(readFileSync(COMMITTED, "utf8")) as AgreementFile;
    // The committed opencode report, its agreeing probes only (the text probes are n/a there), so
    // that a merge with nothing else missing exits 0.
    const committedOpencode = committed.reports.find((r) => r.model === "opencode" && r.differ === 0);
    expect(committedOpencode, "the committed report has an opencode report with no difference").toBeDefined();
    const opencode = committedOpencode === undefined ? undefined : { ...committedOpencode, na: 0, probes: committedOpencode.probes.filter((p) => p.verdict === "agree") };
    const dir = tempDir();
    const ran = join(dir, "ran.json");
    const missed = join(dir, "missed.json");
    writeFileSync(ran, JSON.stringify({ command: "loopsim conform --against x", reports: [opencode], notRun: [] }));
    writeFileSync(missed, JSON.stringify({ command: "loopsim conform --against y", reports: [], notRun: [{ model: "opencode", against: opencode?.against, reason: "not here" }, { model: "kilo", against: "kilo@7.8.1", reason: "no linux-x64 binary" }] }));

    const both = loopsim(["conform", "--merge", ran, missed, "--out", join(dir, "both")]);
    expect(both.code, both.stderr).toBe(1); // kilo@7.8.1 is still not run
    const merged = read(join(dir, "both"));
    expect(merged.reports.map((r) => r.against)).toEqual([opencode?.against]);
    expect(merged.notRun.map((n) => n.against)).toEqual(["kilo@7.8.1"]);
    expect(merged.command).toBe(`loopsim conform --against ${opencode?.against} --against kilo@7.8.1 --out ${join(dir, "both")}`);
    expect(both.stderr).toContain("kilo model: not run against kilo@7.8.1");

    // Only the runtime that ran elsewhere was missed: nothing is left unchecked, so exit 0.
    const missedOpencode = join(dir, "missed-opencode.json");
    writeFileSync(missedOpencode, JSON.stringify({ command: "loopsim conform --against y", reports: [], notRun: [{ model: "opencode", against: opencode?.against, reason: "not here" }] }));
    const covered = loopsim(["conform", "--merge", missedOpencode, ran, "--json"]);
    expect(covered.code, covered.stderr).toBe(0);
    expect((JSON.parse(covered.stdout) as AgreementFile).notRun).toEqual([]);

    // The same runtime in a later part replaces the earlier report (a re-run after a model change).
    const rerun = join(dir, "rerun.json");
    writeFileSync(rerun, JSON.stringify({ command: "loopsim conform --against z", reports: [{ ...opencode, agree: 0, differ: 1 }], notRun: [] }));
    const replaced = loopsim(["conform", "--merge", ran, rerun, "--json"]);
    expect(replaced.code).toBe(1);
    expect(replaced.stderr).toContain(`loopsim: opencode against ${opencode?.against}: the report in ${rerun} replaces the one in ${ran}`);
    expect((JSON.parse(replaced.stdout) as AgreementFile).reports.map((r) => r.differ)).toEqual([1]);

    writeFileSync(join(dir, "bad.json"), JSON.stringify({ reports: [{ schema: "loopsim/other@1" }] }));
    const bad = loopsim(["conform", "--merge", join(dir, "bad.json")]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("reports[0].schema: is not loopsim/agreement@1");
  });
});
