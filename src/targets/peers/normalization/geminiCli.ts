// Gemini CLI's turn, before its LoopDetectionService sees a call: the name trimmed (an empty one
// becomes `generic_tool`) and `args || {}` (missing and null args are {}). No lowercasing, no
// aliases. The loop key is then `name:JSON.stringify(args)`, key order kept (geminiCli.ts).
import type { CallNormalization } from "./callView.js";
import { orEmpty } from "./callView.js";

export const GEMINI_NORMALIZATION: CallNormalization = {
  runtime: "gemini-cli",
  rule: "name trimmed (empty: generic_tool), args || {}",
  source: "@google/gemini-cli-core@0.61.0 dist/src/core/turn.js:218-220 (Turn.handlePendingFunctionCall)",
  view: (tool, params) => ({ tool: tool.trim() || "generic_tool", params: orEmpty(params) }),
};
