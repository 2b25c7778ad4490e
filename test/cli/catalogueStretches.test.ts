// A closed-loop report with `--loops real` runs at most 8 stretches of a session as stuck agents
// (MAX_REAL_PER_SESSION), so a session holding more runs fewer than the catalogue holds: its header
// and its real-loop section say both, "8 of the catalogue's 11 stretches (at most 8 a session)",
// counted by the run itself: in-process, in worker threads and merged from shards by session (a header that gave the run's number alone read as a smaller catalogue).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ToolEvent } from "../../models/events.js";
import { mineStretches } from "../../src/realLoops/mine.js";
import { realLoopsOf, stretchesRunText } from "../../src/grounded/realLoopAgents.js";
import { loopsim, tempDir } from "./run.js";

/** A session of `loops` failing commands each retried 4 times, with progressing reads between them. */
function session(loops: number, tag: string): ToolEvent[] {
  const events: ToolEvent[] = [];
  let i = 0;
  const pair = (tool: string, params: unknown, answer: { result: string } | { error: string }) => {
    const callId = `c${i++}`;
    events.push({ type: "call", runId: "r", callId, tool, params }, { type: "outcome", runId: "r", callId, tool, params, ...answer });
  };
  for (let k = 0; k < loops; k++) {
    for (let r = 0; r < 4; r++) pair("exec", { command: `make ${tag}${k}` }, { error: `build ${tag}${k} failed: missing header h${k}.h` });
    for (let p = 0; p < 3; p++) pair("read", { path: `src/${tag}${k}_${p}.ts` }, { result: `contents of ${tag}${k}_${p}` });
  }
  return events;
}

function sessionsFolder(): string {
  const dir = tempDir();
  writeFileSync(join(dir, "eleven.jsonl"), session(11, "a").map((e) => JSON.stringify(e)).join("\n") + "\n");
  writeFileSync(join(dir, "two.jsonl"), session(2, "b").map((e) => JSON.stringify(e)).join("\n") + "\n");
  return dir;
}

const compare = (population: string, out: string, extra: string[]) =>
  loopsim(["compare", "--population", `sessions:${population}`, "--loops", "real", "--targets", "openclaw-enabled", "--reaction-grid", "none", "--out", out, "--force", ...extra]);

describe("the catalogue's stretches in a closed-loop report", () => {
  it("counts every mined stretch of a session, those past the cap included", () => {
    expect(mineStretches(session(11, "a"))).toHaveLength(11);
    const real = realLoopsOf({ id: "a", events: session(11, "a") }, 1);
    expect(real.mined).toBe(11);
    expect(real.agents).toHaveLength(8);
    expect(stretchesRunText(106, { maxPerSession: 8, catalogue: 107 })).toBe("106 of the catalogue's 107 stretches (at most 8 a session)");
    expect(stretchesRunText(1, { maxPerSession: 8, catalogue: 1 }, "real stuck stretch")).toBe("1 of the catalogue's 1 real stuck stretch (at most 8 a session)");
    expect(stretchesRunText(5, { maxPerSession: 8 })).toBe("5 stretches (at most 8 a session)");
  });

  it("says how many of the catalogue's stretches ran, in-process, in threads and merged from shards by session", () => {
    const population = sessionsFolder();
    const header = "(--loops real, 10 of the catalogue's 13 stretches (at most 8 a session)) as stuck agents too";
    const intro = "10 of the catalogue's 13 real stuck stretches (at most 8 a session): stretches mined";
    const reports: string[] = [];
    for (const workers of ["1", "2"]) {
      const out = tempDir();
      const r = compare(population, out, ["--workers", workers]);
      expect(r.code, r.stderr).toBe(0);
      const md = readFileSync(join(out, "compare.md"), "utf8");
      expect(md).toContain(header);
      expect(md).toContain(intro);
      expect(readFileSync(join(out, "compare.html"), "utf8")).toContain("10 of the catalogue's 13 stretches (at most 8 a session)");
      reports.push(md);
    }
    const parts = tempDir();
    for (const shard of ["1/2", "2/2"]) expect(compare(population, parts, ["--workers", "1", "--shard", shard, "--by", "sessions"]).code).toBe(0);
    const merged = tempDir();
    const r = loopsim(["compare", "--merge", parts, "--out", merged, "--force"]);
    expect(r.code, r.stderr).toBe(0);
    const fromShards = readFileSync(join(merged, "compare.md"), "utf8");
    expect(fromShards).toContain(header);
    expect(fromShards).toContain(intro);
    expect(reports[1]).toBe(reports[0]);
  });
});
