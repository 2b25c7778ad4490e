// The readings behind the real-loop figures, beyond the first reader: recall on held-out sessions
// (read after the rules were set, so not fitted to them) and a blind second reading of stretches
// (the precision's agreement). Each is printed with its n and interval, and a second reading of a
// stretch the first never judged is an error, not a silent extra row.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loopsim, tempDir } from "./run.js";

const FIXTURES = "test/fixtures/real-loops";

function judgements(extra: Record<string, unknown>): string {
  const file = join(tempDir(), "judgements.json");
  writeFileSync(
    file,
    JSON.stringify({
      criteria: ["fixture"],
      judgements: {
        "javac-loop.jsonl@3": { verdict: "stuck", reason: "the same javac error six times" },
        "failing-install.jsonl@1": { verdict: "false-alarm", reason: "a fixture's choice" },
      },
      ...extra,
    }),
  );
  return file;
}

describe("held-out recall and the blind second reading", () => {
  it("reports recall on held-out sessions apart, by dataset and rule, with the calls flagged that no reader marked", () => {
    const file = judgements({
      heldOut: {
        protocol: ["fixture: read after the rules were set"],
        sessions: {
          "javac-loop.jsonl": { dataset: "javac", calls: 10, stuck: [{ from: 3, to: 9, reason: "javac fails the same way" }] },
          "progressing.jsonl": { dataset: "other", calls: 12, stuck: [{ from: 0, to: 1, reason: "a fixture's miss" }] },
        },
      },
    });
    const r = loopsim(["loops", FIXTURES, "--judgements", file, "--json"]);
    expect(r.code).toBe(0);
    const c = JSON.parse(r.stdout) as { recallHeldOut: { sessions: number; stuckRead: number; covered: number; recall: number; byRule: Record<string, number>; byDataset: Record<string, { covered: number; stuckRead: number }> } };
    // 7 + 2 read stuck; the repeat #3-#8 covers 6 of them.
    expect(c.recallHeldOut).toMatchObject({ sessions: 2, stuckRead: 9, covered: 6, recall: 0.6667, byRule: { repeat: 6 } });
    expect(c.recallHeldOut.byDataset).toEqual({ javac: expect.objectContaining({ stuckRead: 7, covered: 6 }), other: expect.objectContaining({ stuckRead: 2, covered: 0 }) });
    const md = loopsim(["loops", FIXTURES, "--judgements", file]).stdout;
    expect(md).toContain("## Recall on held-out sessions");
    expect(md).toContain("Recall of stuck calls: 66.7% (35.4-87.9%, n=9)");
    expect(md).toContain("| javac | 1 | 10 | 7 | 6 | 85.7% (48.7-97.4%, n=7) | 0 |");
  });

  it("reports how a blind second reading of held-out sessions agrees, per session and per call, and refuses one whose call count differs", () => {
    const heldOut = {
      protocol: ["fixture"],
      sessions: {
        "javac-loop.jsonl": { calls: 10, stuck: [{ from: 3, to: 8, reason: "javac" }] },
        "progressing.jsonl": { calls: 12, stuck: [] },
        "failing-install.jsonl": { calls: 7, stuck: [] },
      },
    };
    const second = {
      protocol: ["fixture: second reader"],
      sessions: {
        "javac-loop.jsonl": { calls: 10, stuck: [{ from: 4, to: 9, reason: "javac" }] },
        "progressing.jsonl": { calls: 12, stuck: [] },
        "failing-install.jsonl": { calls: 7, stuck: [{ from: 1, to: 3, reason: "install" }] },
      },
    };
    const r = loopsim(["loops", FIXTURES, "--judgements", judgements({ heldOut: { ...heldOut, secondReader: second } }), "--json"]);
    expect(r.code).toBe(0);
    const c = JSON.parse(r.stdout) as { recallHeldOut: { agreement: { sessions: { n: number; agree: number; kappa: number | null }; callsBoth: number; callsFirstOnly: number; callsSecondOnly: number } } };
    expect(c.recallHeldOut.agreement).toMatchObject({ sessions: { n: 3, agree: 2 }, callsBoth: 5, callsFirstOnly: 1, callsSecondOnly: 4 });
    // first: yes no no; second: yes no yes -> po 2/3, pe 1/3*2/3 + 2/3*1/3 = 4/9, kappa (6/9-4/9)/(5/9) = 0.4
    expect(c.recallHeldOut.agreement.sessions.kappa).toBe(0.4);
    const bad = { ...second, sessions: { ...second.sessions, "progressing.jsonl": { calls: 11, stuck: [] } } };
    const refused = loopsim(["loops", FIXTURES, "--judgements", judgements({ heldOut: { ...heldOut, secondReader: bad } })]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('$.heldOut.secondReader.sessions["progressing.jsonl"].calls: 11, but the first reading counted 12');
  });

  it("prints the agreement of a blind second reading, its kappa and each disagreement", () => {
    const file = judgements({
      precisionSecondReader: {
        protocol: ["fixture: read blind"],
        judgements: {
          "javac-loop.jsonl@3": { verdict: "stuck", reason: "same error" },
          "failing-install.jsonl@1": { verdict: "stuck", reason: "the same install fails five times" },
        },
      },
    });
    const r = loopsim(["loops", FIXTURES, "--judgements", file]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("### A blind second reading");
    expect(r.stdout).toContain("the two agree on 1 of 2 (50.0%; Cohen's kappa 0.00). The first reader found 1 of the 2 stuck, the second 2. On the 2 stretches of the sample this run finds, precision by the second reader alone is 100.0% (34.2-100.0%, n=2).");
    expect(r.stdout).toContain("| `failing-install.jsonl@1` | false-alarm: a fixture's choice | stuck: the same install fails five times |");
  });

  it("refuses a second reading of a stretch the first reading does not judge, naming its JSON path", () => {
    const file = judgements({ precisionSecondReader: { protocol: [], judgements: { "nowhere.jsonl@1": { verdict: "stuck", reason: "x" } } } });
    const r = loopsim(["loops", FIXTURES, "--judgements", file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('$.precisionSecondReader.judgements["nowhere.jsonl@1"]: a second reading of a stretch the first reading does not judge');
  });
});
