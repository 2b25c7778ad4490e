// Recorded calls spelled in opencode's and Kilo's tool schema where the record plainly says the
// same thing (opencodeArgs.ts); everything else goes to the CLI exactly as recorded.
import { describe, expect, it } from "vitest";
import { opencodeArgs } from "../src/targets/runtimes/opencodeArgs.js";
import { opencodeToolCall } from "../src/targets/runtimes/opencodeCli.js";

describe("opencodeArgs", () => {
  it("renames another agent's file keys in place, key order and values kept, for names the CLI repairs to its file tools", () => {
    expect(JSON.stringify(opencodeArgs("Read", { file_path: "/w/a.py", offset: 3, limit: 9 }))).toBe('{"filePath":"/w/a.py","offset":3,"limit":9}');
    expect(JSON.stringify(opencodeArgs(" edit ", { file_path: "/w/a.py", old_string: "x", new_string: "y", replace_all: true }))).toBe('{"filePath":"/w/a.py","oldString":"x","newString":"y","replaceAll":true}');
    expect(opencodeArgs("write", { path: "a.txt", content: "z" })).toEqual({ filePath: "a.txt", content: "z" });
    expect(opencodeArgs("edit", { path: "a.ts", oldText: "x", newText: "y" })).toEqual({ filePath: "a.ts", oldString: "x", newString: "y" });
  });
  it("keeps the args as recorded when a renamed key would meet one already there, and for other tools or non-objects", () => {
    const both = { file_path: "/a", filePath: "/b" };
    expect(opencodeArgs("read", both)).toBe(both);
    const grep = { pattern: "x", path: "src" };
    expect(opencodeArgs("grep", grep)).toBe(grep);
    const unknown = { file_path: "a.py", lines: [1, 40] };
    expect(opencodeArgs("print_code_context", unknown)).toBe(unknown);
    expect(opencodeArgs("read", null)).toBe(null);
    expect(opencodeArgs("read", "a.txt")).toBe("a.txt");
  });
  it("runs an action of several shell commands as one command, each in its own subshell, in order", () => {
    const calls = [
      { tool: "bash", params: { command: "cd src && ls" } },
      { tool: "bash", params: { command: "python - <<'PY'\nprint(1)\nPY" } },
    ];
    expect(opencodeArgs("bash", { calls })).toEqual({ command: "(\ncd src && ls\n)\n(\npython - <<'PY'\nprint(1)\nPY\n)" });
  });
  it("does not invent a command the record does not hold: an expression, or another tool among the calls, goes as recorded", () => {
    for (const args of [
      { command: { expr: "cmd" } },
      { calls: [{ tool: "bash", params: { command: "ls" } }, { tool: "bash", params: { command: { expr: "cmd" } } }] },
      { calls: [{ tool: "bash", params: { command: "ls" } }, { tool: "save_code_to_file", params: { file_path: "a.py", code: { expr: "code" } } }] },
    ]) expect(opencodeArgs("bash", args)).toBe(args);
  });
  it("is what the adapter sends for a trace's call; a probe's own actions are unchanged", () => {
    expect(opencodeToolCall({ kind: "raw", name: "Read", args: { file_path: "/w/a.txt" } }, "/w")).toEqual({ name: "Read", args: { filePath: "/w/a.txt" } });
    expect(opencodeToolCall({ kind: "read", file: "a.txt" }, "/w")).toEqual({ name: "read", args: { filePath: "/w/a.txt" } });
  });
});
