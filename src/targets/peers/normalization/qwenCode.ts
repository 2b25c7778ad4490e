// Qwen Code's turn and loop key: the name trimmed (the driven CLI showed a padded name reach its
// loop key trimmed: probe name-padded-6; the line that trims it was not found in its bundle), an
// empty one `undefined_tool_name`, no lowercasing; `args || {}`; a call through its `tool_call` bridge counts as the
// target tool (lowercased) with the bridged args; the repeat key maps legacy names
// (search_file_content→grep_search, replace→edit, task→agent) and sorts arg keys recursively.
import { unorderedKey } from "../callKeys.js";
import type { CallNormalization } from "./callView.js";
import { isPlainObject, orEmpty } from "./callView.js";

const LEGACY_NAMES: ReadonlyMap<string, string> = new Map([
  ["search_file_content", "grep_search"],
  ["replace", "edit"],
  ["task", "agent"],
]);

/** canonicalToolName: a legacy name as its current one, any other name unchanged. */
export function qwenCanonicalName(tool: string): string {
  return LEGACY_NAMES.get(tool) ?? tool;
}

export const QWEN_NORMALIZATION: CallNormalization = {
  runtime: "qwen-code",
  rule: "name trimmed (empty: undefined_tool_name), never lowercased; args || {}, the tool_call bridge unwrapped; the key maps legacy names and sorts keys",
  source: "@qwen-code/qwen-code@0.24.4 (trimming observed on the driven CLI, probe name-padded-6) chunks/chunk-DPEB6S2R.js:32577-32578 (Turn.handlePendingFunctionCall), :37974 (getLoopDetectionToolCall), :32119 (getToolCallRepeatKey), chunk-RSWOFJBY.js:162 (canonicalToolName)",
  view(tool, params) {
    const name = tool.trim() || "undefined_tool_name";
    const args = orEmpty(params);
    if (name !== "tool_call" || !isPlainObject(args) || typeof args.name !== "string") return { tool: name, params: args };
    const bridged = args.arguments;
    return { tool: qwenCanonicalName(args.name).toLowerCase(), params: isPlainObject(bridged) ? bridged : args };
  },
};

/** getToolCallRepeatKey: the canonical name and the args with keys sorted. */
export function qwenRepeatKey(tool: string, params: unknown): string {
  return unorderedKey(qwenCanonicalName(tool), params);
}
