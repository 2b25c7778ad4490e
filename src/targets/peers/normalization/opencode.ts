// opencode (and Kilo, which ships its engine): the AI SDK reads an empty arguments string as {};
// a tool name the model got wrong only by case is repaired to the lowercase built-in tool
// (experimental_repairToolCall); the doom-loop check then compares the tool name and
// JSON.stringify of the input, where an input that is not an object is wrapped as {value: input}.
// A name that is no built-in tool becomes opencode's `invalid` tool in the real CLI: not modelled
// (a trace's tools are taken as the runtime's own), so such a name is kept as given.
import type { CallNormalization } from "./callView.js";
import { isPlainObject } from "./callView.js";

/** opencode 1.18's built-in tools (the names its repair can lowercase a call to). */
export const OPENCODE_TOOLS: ReadonlySet<string> = new Set(["bash", "read", "write", "edit", "multiedit", "patch", "apply_patch", "glob", "grep", "list", "task", "todowrite", "todoread", "webfetch", "websearch", "codesearch", "skill", "question", "batch", "lsp"]);

export const OPENCODE_NORMALIZATION: CallNormalization = {
  runtime: "opencode",
  rule: "a name wrong only by case is lowercased to its built-in tool, else kept; missing args are {}; args that are not an object are {value: args}; compared by JSON.stringify (key order kept)",
  source: "opencode-linux-x64@1.18.33 bin/opencode (compiled): experimental_repairToolCall (toolName.toLowerCase() when that tool exists), the AI SDK's parseToolCall (input.trim()===\"\" → {}), the processor's tool-call case (non-object input → {value: input}; doom loop by JSON.stringify(state.input))",
  view(tool, params) {
    const lower = tool.toLowerCase();
    const name = lower !== tool && OPENCODE_TOOLS.has(lower) ? lower : tool;
    const input = params === undefined ? {} : params;
    return { tool: name, params: isPlainObject(input) ? input : { value: input } };
  },
};
