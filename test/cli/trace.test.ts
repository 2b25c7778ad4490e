// `loopsim trace` and `loopsim config` from the outside: output format, exit codes, messages.
import { describe, expect, it } from "vitest";
import { loopsim, tempFile } from "./run.js";

const poll = { action: "poll", sessionId: "s1" };
const line = (event: unknown) => JSON.stringify(event);
const pollCall = (i: number) => line({ type: "call", runId: "r1", callId: `c${i}`, tool: "process", params: poll });
const pollOut = (i: number) =>
  line({ type: "outcome", runId: "r1", callId: `c${i}`, tool: "process", params: poll, result: { content: [{ type: "text", text: "running" }], details: { status: "running" } } });

describe("loopsim trace", () => {
  it("prints one JSON line per event with verdicts, recorded flags, aborts and ignored events", () => {
    const events: string[] = [];
    for (let i = 0; i < 11; i++) events.push(pollCall(i), pollOut(i));
    const file = tempFile("t.jsonl", events.join("\n") + "\n");
    const config = tempFile("c.json5", "{ tools: { loopDetection: { enabled: true } } }");
    const res = loopsim(["trace", file, "--config", config, "--json"]);
    expect(res.code).toBe(0);
    const lines = res.stdout.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(22);
    expect(lines[1]).toEqual({ index: 1, type: "outcome", runId: "r1", tool: "process", recorded: true });
    expect(lines[20]).toMatchObject({ index: 20, type: "call", verdict: "warning", detector: "known_poll_no_progress", count: 10, emitted: true });
  });

  it("reports a guard abort right after its outcome and ignores the run afterwards", () => {
    const events = [line({ type: "compaction", runId: "r1" })];
    for (let i = 0; i < 4; i++) events.push(pollCall(i), pollOut(i));
    const res = loopsim(["trace", "-", "--json"], events.join("\n"));
    const lines = res.stdout.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[7]).toMatchObject({ index: 6, type: "abort", error: "compaction_loop_persisted", runId: "r1", tool: "process", count: 3 });
    expect(lines[8]).toEqual({ index: 7, type: "call", runId: "r1", ignored: true });
  });

  it("prints a readable timeline without --json", () => {
    const res = loopsim(["trace", "-"], [pollCall(0), pollOut(0)].join("\n"));
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/#00000 +r1 +call +process +allow/);
  });

  it.each([
    ["not JSON", "{oops", /t\.jsonl:2: not valid JSON/],
    ["unknown event type", line({ type: "wat" }), /t\.jsonl:2: event\.type: unknown event type "wat"/],
    ["missing tool", line({ type: "call", params: {} }), /t\.jsonl:2: event\.tool: missing/],
    ["unknown key", line({ type: "call", tool: "x", runid: "r" }), /t\.jsonl:2: event\.runid: unknown key/],
  ])("exit 2 naming the line for %s, after complete lines", (_name, bad, pattern) => {
    const file = tempFile("t.jsonl", [pollCall(0), bad, pollOut(0)].join("\n"));
    const res = loopsim(["trace", file, "--json"]);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(pattern);
    expect(res.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(res.stdout.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as unknown)).toHaveLength(1);
  });

  it.each([
    ["0", "{ tools: { loopDetection: { warningThreshold: 0 } } }", /tools\.loopDetection\.warningThreshold: must be a positive integer \(got 0\)/],
    ["2.5", "{ tools: { loopDetection: { criticalThreshold: 2.5 } } }", /criticalThreshold: must be a positive integer \(got 2\.5\)/],
    ['"10"', '{ tools: { loopDetection: { historySize: "10" } } }', /historySize: must be a positive integer \(got "10"\)/],
    ["unknown key", "{ tools: { loopDetection: { enabeld: true } } }", /tools\.loopDetection\.enabeld: unknown key/],
    ["warning >= critical", "{ tools: { loopDetection: { warningThreshold: 20, criticalThreshold: 20 } } }", /criticalThreshold: must be greater than warningThreshold/],
    ["bad JSON5", "{ tools: ", /c\.json5:1:\d+: not valid JSON5/],
  ])("exit 2 for a config with %s", (_name, text, pattern) => {
    const config = tempFile("c.json5", text);
    const res = loopsim(["trace", "-", "--config", config], pollCall(0));
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(pattern);
  });

  it("exit 2 for an unknown agent and for --agent without --config", () => {
    const config = tempFile("c.json5", "{ agents: { list: [{ id: 'a' }] } }");
    expect(loopsim(["trace", "-", "--config", config, "--agent", "b"], "").stderr).toMatch(/agent "b" is not in agents.list \(known: a\)/);
    expect(loopsim(["trace", "-", "--agent", "b"], "").code).toBe(2);
  });

  it("engine and oracle print identical bytes", () => {
    const events: string[] = [];
    for (let i = 0; i < 30; i++) events.push(pollCall(i), pollOut(i));
    const config = tempFile("c.json5", "{ tools: { loopDetection: { enabled: true } } }");
    const a = loopsim(["trace", "-", "--json", "--config", config], events.join("\n"));
    const b = loopsim(["trace", "-", "--json", "--oracle", "--config", config], events.join("\n"));
    expect(a.stdout).toBe(b.stdout);
    expect(a.stdout).toMatch(/"verdict":"critical"/);
  });
});

describe("loopsim config", () => {
  const file = tempFile(
    "openclaw.json5",
    `{
      // global defaults
      tools: { loopDetection: { enabled: true, criticalThreshold: 20, } },
      agents: { list: [
        { id: "safe-runner", tools: { loopDetection: { enabled: true, warningThreshold: 8, criticalThreshold: 16 } } },
        { id: "wide", tools: { loopDetection: { warningThreshold: 25 } } },
      ] },
    }`,
  );
  it("shows the effective config of an agent with sources", () => {
    const res = loopsim(["config", file, "--agent", "safe-runner", "--json"]);
    expect(res.code).toBe(0);
    const report = JSON.parse(res.stdout) as { effective: Record<string, unknown>; repairs: unknown[]; postCompactionGuard: boolean };
    expect(report.effective).toMatchObject({ enabled: true, warningThreshold: 8, criticalThreshold: 16 });
    expect(report.repairs).toEqual([]);
    expect(report.postCompactionGuard).toBe(true);
  });
  it("reports repairs that the merge makes necessary (C3, C4)", () => {
    const res = loopsim(["config", file, "--agent", "wide"]);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/criticalThreshold +26 +global, repaired from 20/);
    expect(res.stdout).toMatch(/post-compaction guard: ON/);
  });
  it("lists every error with its path and exits 2", () => {
    const bad = tempFile("bad.json", JSON.stringify({ tools: { loopDetection: { historySize: 0, foo: 1 } }, agents: { list: [{ id: "x", tools: { loopDetection: { warningThreshold: -1 } } }] } }));
    const res = loopsim(["config", bad]);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/3 invalid values/);
    expect(res.stderr).toMatch(/agents\.list\[0\]\.tools\.loopDetection\.warningThreshold: must be a positive integer \(got -1\)/);
  });
});
