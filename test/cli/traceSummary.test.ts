// `loopsim trace`'s summary counts every event read, text that printed nothing too, and the text
// cuts; a call with an empty tool name is carried, and each runtime judges it its own way.
import { describe, expect, it } from "vitest";
import { loopsim } from "./run.js";

const CHANT = "I will check the configuration file once more now.";
const message = (step: string) => JSON.stringify({ type: "message", runId: "p", text: CHANT, chunk: true, step });
const read = (callId: string, step: string) => JSON.stringify({ type: "call", runId: "p", callId, tool: "read_file", params: { file_path: "a" }, step });

describe("loopsim trace summary", () => {
  it("counts text events and text cuts: 12 chunks, a call, 12 more, a call", () => {
    const lines = [...Array.from({ length: 12 }, () => message("s1")), read("c1", "s1"), ...Array.from({ length: 12 }, () => message("s2")), read("c2", "s2")];
    const res = loopsim(["trace", "-", "--target", "gemini-cli"], lines.join("\n") + "\n");
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toBe("loopsim: <stdin>: 26 events, 1 call: 0 warnings (0 emitted), 1 block, 1 abort, 12 events ignored after an abort; 24 text events: 1 text cut, 0 text warnings\n");
  });

  it("takes an empty tool name: gemini-cli's turn makes it generic_tool, qwen-code's undefined_tool_name", () => {
    const lines = Array.from({ length: 6 }, (_, i) => JSON.stringify({ type: "call", runId: "p", callId: `c${i}`, tool: i % 2 === 0 ? "" : " ", params: {} }));
    const gemini = loopsim(["trace", "-", "--json", "--target", "gemini-cli"], lines.join("\n") + "\n");
    expect(gemini.code, gemini.stderr).toBe(0);
    expect(gemini.stdout.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>).slice(4)).toMatchObject([
      { type: "call", tool: "generic_tool", verdict: "critical", detector: "gemini-cli:tool-call-loop", count: 1 },
      { type: "abort", tool: "generic_tool", count: 2 },
    ]);
    const qwen = loopsim(["trace", "-", "--json", "--target", "qwen-code"], lines.join("\n") + "\n");
    expect(qwen.stdout).toContain('"tool":"undefined_tool_name"');
  });
});
