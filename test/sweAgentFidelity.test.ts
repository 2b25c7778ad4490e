// SWE-agent importer fidelity (issue 28): a step the environment ran is a call, whatever its
// text; only a step the harness rejected without running it is a format error. The fixtures are
// built in the shape of public SWE-agent trajectories (0.x: rejected steps carry the parser's
// format-error reply; 1.x: rejected steps have an empty observation and no execution time).
import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { openSession } from "../src/import/session.js";
import { outcomeFailed } from "../src/import/failure.js";
import { classifyStep, stepResult } from "../src/import/sweAgent.js";
import type { ToolEvent } from "../models/events.js";

const FIXTURES = join(import.meta.dirname, "fixtures", "swe-agent");

async function imported(file: string) {
  const opened = await openSession(join(FIXTURES, file));
  const events: ToolEvent[] = [];
  for await (const e of opened.events) events.push(e.event);
  return { stats: opened.stats, format: opened.format, events };
}

describe("SWE-agent: every step the environment ran is a call", () => {
  it("58 stray DISCUSSION actions that bash answered `command not found` are 58 calls with failed outcomes", async () => {
    const { stats, events } = await imported("discussion-loop.traj");
    const outcomes = events.filter((e) => e.type === "outcome");
    const discussion = outcomes.filter((e) => e.type === "outcome" && e.tool === "DISCUSSION");
    expect(discussion).toHaveLength(58);
    expect(discussion.every(outcomeFailed)).toBe(true);
    // open, edit, pytest (output, not failed by the shell), 58 DISCUSSION, a shell syntax error
    expect(stats).toMatchObject({ calls: 62, outcomes: 62, errors: 59, formatErrors: 1, harnessSteps: 1, runs: 1 });
    expect(outcomes.filter(outcomeFailed).map((e) => (e.type === "outcome" ? e.tool : "")).filter((t) => t !== "DISCUSSION")).toEqual(["python"]);
    expect(stats.notes.join("\n")).toMatch(/59 steps the shell answered with its own error .*calls, counted as failed/);
  });

  it("1.x: a step recorded with an empty observation and zero execution time was rejected; one that ran and printed nothing is a call", async () => {
    const { stats, format, events } = await imported("v1-rejected.traj");
    expect(format).toBe("swe-agent");
    expect(events.filter((e) => e.type === "call").map((e) => (e.type === "call" ? e.tool : ""))).toEqual(["ls", "touch", "sleep", "submit"]);
    expect(stats).toMatchObject({ calls: 4, errors: 1, formatErrors: 2 });
  });

  it("classifies by what answered the step, never by the action's first word", () => {
    expect(classifyStep("DISCUSSION", "bash: DISCUSSION: command not found")).toBe("call");
    expect(classifyStep("THOUGHT: look at it", "")).toBe("call");
    expect(classifyStep("DISCUSSION\nfix it", "Your output was not formatted correctly. You must always include one discussion and one command")).toBe("format-error");
    expect(classifyStep("ls", "Your last output did not use any tool calls!")).toBe("format-error");
    expect(classifyStep("vim a.py", "Operation 'vim a.py' is not supported by this environment.")).toBe("format-error");
    expect(classifyStep("vim a.py", "Interactive operation 'vim' is not supported by this environment")).toBe("format-error");
    expect(classifyStep("echo 'x", "Your bash command contained syntax errors and was NOT executed. Please fix")).toBe("format-error");
    // a command whose own output quotes the reply later on still ran
    expect(classifyStep("grep -r formatted .", "sweagent/parsing.py: Your output was not formatted correctly")).toBe("call");
    expect(classifyStep("exit_format", "Exit due to format error")).toBe("harness");
    expect(classifyStep("", "anything")).toBe("format-error");
  });

  it("a shell's own error is a failed outcome by the one failure definition; other output is not", () => {
    const failed = (text: string) => outcomeFailed({ type: "outcome", runId: "r", callId: "c", tool: "t", params: {}, result: stepResult(text) });
    expect(failed("/bin/bash: line 1: DISCUSSION: command not found")).toBe(true);
    expect(failed("bash: syntax error near unexpected token `('")).toBe(true);
    expect(failed("/bin/bash: line 3: syntax error: unexpected end of file")).toBe(true);
    expect(failed("sh: 1: pytest: not found")).toBe(true);
    expect(failed("EXECUTION TIMED OUT BECAUSE THE COMMAND WAS RUNNING FOR MORE THAN 1800.0 SECONDS.")).toBe(true);
    expect(failed("Traceback (most recent call last):\nValueError")).toBe(false);
    expect(failed("the word bash: appears in this output mid-line, command not found")).toBe(false);
  });
});
