// Importers: the fixtures pin each format's edge cases (a branch, parallel calls, outstanding
// calls, a cut-off last line, unknown entry types, orphan outcomes, a turn without a command); the
// shared corpus, when present, imports whole, with counts checked against the files by a separate
// reading, scans deterministically, and a real session minimises to a small scenario.
import { describe, expect, it } from "vitest";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openSession } from "../src/import/session.js";
import { sessionRefs } from "../src/import/sessionRefs.js";
import type { ImportStats } from "../src/import/types.js";
import { TraceOrphans } from "../src/import/orphans.js";
import type { ToolEvent } from "../models/events.js";
import { loopsim, tempDir } from "./cli/run.js";

const FIXTURES = join(import.meta.dirname, "fixtures", "sessions");
const CORPUS = join(import.meta.dirname, "..", "..", "shared", "corpus");
const HAVE_CORPUS = existsSync(CORPUS);
if (!HAVE_CORPUS) console.log(`SKIPPED: the corpus tests need ../shared/corpus, which is not here (${CORPUS})`);

async function imported(file: string): Promise<{ stats: ImportStats; format: string; events: { type: string; tool?: string; runId?: string; callId?: string; error?: unknown; result?: unknown }[] }> {
  const opened = await openSession(file);
  const events: { type: string; tool?: string; runId?: string; callId?: string; error?: unknown; result?: unknown }[] = [];
  for await (const { event } of opened.events) events.push(event as never);
  return { stats: opened.stats, format: opened.format, events };
}

describe("importers on fixtures", () => {
  it("OpenClaw tree layout: only the active branch, runs per prompt, compaction, unknown entries counted", async () => {
    const r = await imported(join(FIXTURES, "pi-tree.jsonl"));
    expect(r.format).toBe("openclaw");
    expect(r.events.filter((e) => e.type === "call").map((e) => e.callId)).toEqual(["t1", "t3", "t4"]);
    expect(r.stats).toMatchObject({ calls: 3, outcomes: 3, errors: 1, compactions: 1, runs: 1, skipped: { new_kind_of_entry: 1 } });
    expect(r.events.find((e) => e.callId === "t1" && e.type === "outcome")?.error).toBe("error");
  });

  it("a cut-off last line is reported and the rest used; a malformed line before the end exits 2 with file:line", async () => {
    const r = await imported(join(FIXTURES, "pi-truncated.jsonl"));
    expect(r.stats.truncatedLastLine).toBe(true);
    expect(r.stats.calls).toBe(1);
    const bad = loopsim(["import", join(FIXTURES, "pi-malformed.jsonl")]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/pi-malformed\.jsonl:3: not valid JSON/);
    expect(bad.stderr).not.toMatch(/at .*\.js:\d+/);
  });

  it("Claude Code: parallel calls over several lines, string and list results, is_error, compaction, orphans", async () => {
    const r = await imported(join(FIXTURES, "claude-parallel.jsonl"));
    expect(r.format).toBe("claude-code");
    expect(r.events.map((e) => `${e.type}:${e.callId ?? ""}`)).toEqual(["call:tu1", "call:tu2", "outcome:tu2", "outcome:tu1", "compaction:", "outcome:tu-unknown"]);
    expect(r.stats).toMatchObject({ calls: 2, outcomes: 3, errors: 1, compactions: 1, orphanOutcomes: 1, runs: 1, skipped: { brand_new_line_type: 1 } });
  });

  it("Codex: calls paired by call_id while several are outstanding, no double counting, exit codes, compaction", async () => {
    const r = await imported(join(FIXTURES, "codex-outstanding.jsonl"));
    expect(r.stats).toMatchObject({ calls: 3, outcomes: 3, errors: 1, compactions: 1, orphanOutcomes: 0, skipped: { unknown_future_line: 1 } });
    const failing = r.events.find((e) => e.type === "outcome" && e.callId === "c1");
    expect(failing?.tool).toBe("exec");
    expect(JSON.stringify(failing?.result)).toMatch(/"status":"failed","exitCode":1/);
    // Volatile header lines are dropped so unchanged output hashes the same.
    expect(JSON.stringify(failing?.result)).not.toMatch(/Wall time/);
  });

  it("SWE-agent: one call per step, tool = first word of the action, empty actions counted", async () => {
    const r = await imported(join(FIXTURES, "swe-agent-example.traj"));
    expect(r.format).toBe("swe-agent");
    expect(r.events.filter((e) => e.type === "call").map((e) => e.tool)).toEqual(["find_file", "open", "python", "python", "submit"]);
    expect(r.stats).toMatchObject({ calls: 5, outcomes: 5, runs: 1, formatErrors: 1 });
  });

  it("mini-swe-agent: turns without a command are counted, not dropped silently", async () => {
    const r = await imported(join(FIXTURES, "mini-no-command.traj.json"));
    expect(r.stats).toMatchObject({ calls: 2, outcomes: 2, errors: 1, formatErrors: 1, runs: 1 });
    expect(r.events[0]?.runId).toBe("mini-no-command");
  });

  it("trace reads a session file directly, and import writes a trace that trace replays to the same verdicts", () => {
    const file = join(FIXTURES, "claude-parallel.jsonl");
    const direct = loopsim(["trace", file, "--json"]);
    expect(direct.code).toBe(0);
    const out = join(tempDir(), "t.jsonl");
    expect(loopsim(["import", file, "--out", out]).code).toBe(0);
    const viaTrace = loopsim(["trace", out, "--json"]);
    expect(viaTrace.stdout).toBe(direct.stdout);
  });
});

/** Counts read straight from the files, independently of the importers. */
function expectedCounts(file: string): { calls: number; outcomes: number; errors: number; compactions: number } {
  if (file.includes(".json#")) return adpCounts(file);
  const text = readFileSync(file, "utf8");
  if (file.endsWith(".traj.json")) {
    // Every action the environment ran and answered (the shared convention of issue 35): an
    // assistant message whose next message holds its return code or a timeout notice. Format-error
    // replies and the submission's patch answer nothing. Failed: a non-zero return code, or a timeout.
    const doc = JSON.parse(text) as { messages: { role: string; content: string }[] };
    let calls = 0;
    let errors = 0;
    doc.messages.forEach((m, i) => {
      const prev = doc.messages[i - 1];
      if (m.role !== "user" || prev?.role !== "assistant") return;
      const code = /<returncode>(-?\d+)<\/returncode>/.exec(m.content);
      const timedOut = code === null && /timed out and has been killed/i.test(m.content);
      if (code === null && !timedOut) return;
      calls++;
      if ((code !== null && code[1] !== "0") || timedOut) errors++;
    });
    return { calls, outcomes: calls, errors, compactions: 0 };
  }
  const lines = text.split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l) as Record<string, any>);
  if (lines.some((l) => l.type === "session_meta")) {
    const items = lines.filter((l) => l.type === "response_item").map((l) => l.payload);
    const outputs = items.filter((p) => p.type === "function_call_output" || p.type === "custom_tool_call_output");
    const exitCode = (o: any) => /Process exited with code (\d+)/.exec(o.output)?.[1] ?? /"exit_code":(\d+)/.exec(o.output)?.[1];
    return {
      calls: items.filter((p) => p.type === "function_call" || p.type === "custom_tool_call").length,
      outcomes: outputs.length,
      errors: outputs.filter((o) => exitCode(o) !== undefined && exitCode(o) !== "0").length,
      compactions: lines.filter((l) => l.type === "compacted").length,
    };
  }
  if (lines.some((l) => l.type === "session")) {
    const messages = lines.filter((l) => l.type === "message").map((l) => l.message);
    const results = messages.filter((m) => m.role === "toolResult");
    return {
      calls: messages.filter((m) => m.role === "assistant" && Array.isArray(m.content)).flatMap((m) => m.content).filter((b: any) => b.type === "toolCall").length,
      outcomes: results.length,
      errors: results.filter((m) => m.isError === true).length,
      compactions: lines.filter((l) => l.type === "compaction").length,
    };
  }
  const blocks = (type: string) => lines.flatMap((l) => (Array.isArray(l.message?.content) ? l.message.content : [])).filter((b: any) => b.type === type);
  return {
    calls: blocks("tool_use").length,
    outcomes: blocks("tool_result").length,
    errors: blocks("tool_result").filter((b: any) => b.is_error === true).length,
    compactions: lines.filter((l) => l.subtype === "compact_boundary").length,
  };
}

/** One ADP trajectory (`file#id`), counted straight from the file: actions are calls, an action
 * answered by an observation before the next action has an outcome; failed: "ERROR:", a rejected edit, a non-zero
 * "exit code N", or a timeout. */
function adpCounts(ref: string): { calls: number; outcomes: number; errors: number; compactions: number } {
  const hash = ref.lastIndexOf("#");
  const list = JSON.parse(readFileSync(ref.slice(0, hash), "utf8")) as { id: string; content: Record<string, any>[] }[];
  // Repeated ids are told apart by occurrence: "0~2" is the 2nd trajectory with id "0".
  const [id, nth] = ref.slice(hash + 1).split("~");
  const trajectory = list.filter((t) => String(t.id) === id)[Number(nth ?? "1") - 1];
  let calls = 0;
  let outcomes = 0;
  let errors = 0;
  let open = false;
  for (const step of trajectory?.content ?? []) {
    const isCall = (step.class_ === "api_action" && typeof step.function === "string" && step.function.trim() !== "") || (step.class_ === "code_action" && typeof step.content === "string" && step.content.trim() !== "");
    if (isCall) {
      calls++;
      open = true;
    } else if (String(step.class_).endsWith("_observation") && open) {
      outcomes++;
      open = false;
      const text = typeof step.content === "string" ? step.content : typeof step.axtree === "string" ? step.axtree : typeof step.html === "string" ? step.html : typeof step.url === "string" ? step.url : "";
      const code = /exit code[:\s]+(-?\d+)/i.exec(text);
      // SWE-agent's rejected edit left the file as it was: a failed call too (issue 35).
      if ((code !== null && Number(code[1]) !== 0) || /^\s*ERROR:/.test(text) || /^\s*(Your proposed edit has introduced new syntax error|No replacement was performed)/i.test(text) || /timed out|timeout after \d+/i.test(text)) errors++;
    }
  }
  return { calls, outcomes, errors, compactions: 0 };
}

describe.skipIf(!HAVE_CORPUS)("the shared corpus", async () => {
  const files = HAVE_CORPUS ? (await sessionRefs([CORPUS])).refs.map((r) => r.ref) : [];

  it("holds sessions in all five formats", async () => {
    const formats = new Set<string>();
    for (const f of files) formats.add((await openSession(f)).format);
    expect([...formats].sort()).toEqual(["adp", "claude-code", "codex", "mini-swe-agent", "openclaw"]);
  });

  it.each(files.map((f) => [f.slice(CORPUS.length + 1), f]))("%s imports with the counts the file holds", async (_name, file) => {
    const r = await imported(file);
    const want = expectedCounts(file);
    expect({ calls: r.stats.calls, outcomes: r.stats.outcomes, errors: r.stats.errors, compactions: r.stats.compactions }).toEqual(want);
    expect(r.stats.truncatedLastLine).toBe(false);
  });

  it("scanning the corpus is deterministic", () => {
    const a = loopsim(["scan", CORPUS, "--json"]);
    const b = loopsim(["scan", CORPUS, "--json"]);
    expect(a.code).toBe(0);
    expect(a.stdout).toBe(b.stdout);
    expect(JSON.parse(a.stdout).summary.sessions).toBe(files.length);
    expect(JSON.parse(a.stdout).summary.unreadable).toBe(0);
  });

  it("a real session under a strict config minimises to a small scenario that replays byte for byte", () => {
    const dir = tempDir();
    const config = join(dir, "strict.json5");
    writeFileSync(config, "{ tools: { loopDetection: { enabled: true, warningThreshold: 2, criticalThreshold: 3, globalCircuitBreakerThreshold: 4 } } }");
    const session = join(CORPUS, "pi-sessions", "before-compaction.jsonl");
    const out = join(dir, "min.json");
    const rec = loopsim(["scenario", "record", session, "--config", config, "--minimize", "first-block", "--out", out]);
    expect(rec.code, rec.stderr).toBe(0);
    expect(rec.stderr).toMatch(/kept \d+ of 904 events/);
    expect(statSync(out).size).toBeLessThan(statSync(session).size / 100);
    const replay = loopsim(["replay", out]);
    expect(replay.code, replay.stdout).toBe(0);
    const scenario = JSON.parse(readFileSync(out, "utf8"));
    expect(scenario.expected.facts.firstBlock).not.toBeNull();
    // Calls and their outcomes are removed together: no outcome is left without its call.
    const orphans = new TraceOrphans();
    for (const e of scenario.source.events as ToolEvent[]) orphans.see(e);
    expect(orphans.count).toBe(0);
  });
});

