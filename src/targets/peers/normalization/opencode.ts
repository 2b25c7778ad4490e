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

/** The view both CLIs share; they differ only in whether the repair trims the name first. */
function opencodeView(trimName: boolean): CallNormalization["view"] {
  return (tool, params) => {
    const repaired = (trimName ? tool.trim() : tool).toLowerCase();
    const name = repaired !== tool && OPENCODE_TOOLS.has(repaired) ? repaired : tool;
    const input = params === undefined ? {} : params;
    return { tool: name, params: isPlainObject(input) ? input : { value: input } };
  };
}

export const OPENCODE_NORMALIZATION: CallNormalization = {
  runtime: "opencode",
  rule: "a name wrong only by case is lowercased to its built-in tool, else kept; missing args are {}; args that are not an object are {value: args}; compared by JSON.stringify (key order kept)",
  source: "opencode-linux-x64@1.18.33 bin/opencode (compiled): experimental_repairToolCall (toolName.toLowerCase() when that tool exists), the AI SDK's parseToolCall (input.trim()===\"\" → {}), the processor's tool-call case (non-object input → {value: input}; doom loop by JSON.stringify(state.input))",
  view: opencodeView(false),
};

/**
 * Kilo's fork of the repair trims the name before lowercasing it, so a name padded with spaces is
 * its tool too (its driven CLI stopped on 3 parallel reads with the middle one padded, where
 * opencode's ran on).
 */
export const KILO_NORMALIZATION: CallNormalization = {
  runtime: "kilo",
  rule: "a name wrong only by case or padding is trimmed and lowercased to its built-in tool, else kept; missing args are {}; args that are not an object are {value: args}; compared by JSON.stringify (key order kept)",
  source: "@kilocode/cli-linux-x64@7.7.9 bin/kilo (compiled): experimental_repairToolCall (toolName.trim().toLowerCase() when that tool exists); the rest as opencode's",
  view: opencodeView(true),
};
