// `compare --loops real --stretches read:FILE`: the real-outcomes figures on the stuck stretches
// people marked reading whole sessions (a judgements file's sessions and heldOut.sessions), not on
// the miner's; only the sessions read run, and a read session whose call count differs from the
// miner's numbering (or that the population lacks) is left out and named.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loopsim, tempDir } from "./run.js";

const FIXTURES = "test/fixtures/real-loops";

function judgementsFile(body: Record<string, unknown>): string {
  const file = join(tempDir(), "judgements.json");
  writeFileSync(file, JSON.stringify({ criteria: ["fixture"], judgements: {}, ...body }));
  return file;
}

const READINGS = {
  sessions: { "javac-loop.jsonl": { calls: 10, stuck: [{ from: 3, to: 9, reason: "javac fails the same way" }] } },
  heldOut: {
    protocol: ["fixture"],
    sessions: {
      "progressing.jsonl": { calls: 12, stuck: [{ from: 0, to: 1, reason: "a fixture's reading" }] },
      "failing-install.jsonl": { calls: 99, stuck: [] },
      "nowhere.jsonl": { calls: 3, stuck: [] },
    },
  },
};

const compare = (stretches: string, extra: string[] = []) =>
  loopsim(["compare", "--population", `sessions:${FIXTURES}`, "--loops", "real", "--stretches", stretches, "--targets", "openclaw-enabled", "--reaction-grid", "none", ...extra]);

describe("compare --stretches read:FILE", () => {
  it("grades every guard on the read stretches of the read sessions only, says so, and names the sessions left out", () => {
    const file = judgementsFile(READINGS);
    const r = compare(`read:${file}`, ["--json"]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { realOutcomes: { sessions: { n: number }; stretches: { n: number }; stretchSource: unknown; rows: { caught: { n: number } }[] } };
    expect(out.realOutcomes.sessions.n).toBe(2);
    expect(out.realOutcomes.stretches.n).toBe(2);
    expect(out.realOutcomes.rows[0]?.caught.n).toBe(2);
    expect(out.realOutcomes.stretchSource).toEqual({
      from: "read",
      file,
      read: 4,
      sessions: 2,
      stretches: 2,
      leftOut: [
        { session: "failing-install.jsonl", why: "read as 99 calls, the miner numbers 7" },
        { session: "nowhere.jsonl", why: "no session of the population has this reference" },
      ],
    });
    // Same seed, same bytes.
    expect(compare(`read:${file}`, ["--json"]).stdout).toBe(r.stdout);
    const md = compare(`read:${file}`).stdout;
    expect(md).toContain("**The stuck stretches of the real-outcomes figures were read by people, not mined:** 2 stretches marked stuck reading 2 sessions whole (of 4 read in");
    expect(md).toContain("`failing-install.jsonl` (read as 99 calls, the miner numbers 7)");
  });

  it("held-out:FILE grades on the held-out readings alone and says they shaped no rule", () => {
    const file = judgementsFile(READINGS);
    const r = compare(`held-out:${file}`, ["--json"]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { realOutcomes: { sessions: { n: number }; stretches: { n: number }; stretchSource: { from: string; read: number; sessions: number } } };
    // progressing.jsonl alone: javac-loop.jsonl is a development reading, failing-install.jsonl is miscounted, nowhere.jsonl absent.
    expect(out.realOutcomes.stretchSource).toMatchObject({ from: "read-held-out", read: 3, sessions: 1, stretches: 1 });
    expect(out.realOutcomes.sessions.n).toBe(1);
    const md = compare(`held-out:${file}`).stdout;
    expect(md).toContain("its `heldOut.sessions` alone, held out from the rules: no rule of the miner, nor a candidate built from one, was shaped on them (the file's protocol lines say when they were read and what the rules' authors saw)");
    const none = compare(`held-out:${judgementsFile({ sessions: READINGS.sessions })}`);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("holds no held-out readings");
  });

  it("tune on read stretches says so above its recommendations, in Markdown and HTML", () => {
    const file = judgementsFile(READINGS);
    const out = join(tempDir(), "tune");
    const r = loopsim(["tune", "--population", `sessions:${FIXTURES}`, "--loops", "real", "--stretches", `read:${file}`, "--grid", "criticalThreshold=20", "--reaction-grid", "none", "--out", out]);
    expect(r.code).toBe(0);
    const md = readFileSync(join(out, "report.md"), "utf8");
    const note = md.indexOf("**The stuck stretches of the real-outcomes figures were read by people, not mined:** 2 stretches");
    expect(note).toBeGreaterThan(0);
    expect(note).toBeLessThan(md.indexOf("## Recommendations"));
    const html = readFileSync(join(out, "report.html"), "utf8");
    expect(html.indexOf("The stuck stretches of the real-outcomes figures were read by people, not mined: 2 stretches")).toBeGreaterThan(0);
    expect(html.indexOf("The stuck stretches of the real-outcomes figures were read by people")).toBeLessThan(html.indexOf("<h2>Recommendations</h2>"));
  });

  it("refuses a missing file, a file with no readings, and an unknown form, naming the problem (exit 2)", () => {
    const missing = compare(`read:${join(tempDir(), "absent.json")}`);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("absent.json");
    const empty = compare(`read:${judgementsFile({})}`);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain("holds no readings of whole sessions");
    const unknown = compare("people");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("--stretches people: use mined");
    expect(unknown.stderr).toContain("held-out:FILE");
    const noLoops = loopsim(["compare", "--population", `sessions:${FIXTURES}`, "--stretches", "mined", "--targets", "openclaw-enabled", "--reaction-grid", "none"]);
    expect(noLoops.code).toBe(2);
    expect(noLoops.stderr).toContain("add --loops real");
  });
});
