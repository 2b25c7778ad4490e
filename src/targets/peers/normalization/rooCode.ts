// Roo Code: its native tool-call parser reads an empty arguments string as {} and resolves a few
// tool aliases to canonical names (resolveToolAlias); an unknown name is not a tool use at all.
// Its ToolRepetitionDetector then compares safe-stable-stringify({name, params}) (keys sorted).
// The alias table belongs to Roo's own tool set, none of which loopsim's agents call: names are
// kept as given. null args are not an object: kept as null.
import type { CallNormalization } from "./callView.js";

export const ROO_NORMALIZATION: CallNormalization = {
  runtime: "roo-code",
  rule: "name as given (Roo's own aliases are of its own tools), missing args are {}, args compared with keys sorted",
  source: "RooCodeInc/Roo-Code src/core/assistant-message/NativeToolCallParser.ts (toolCall.arguments === \"\" ? {} : JSON.parse), src/core/tools/ToolRepetitionDetector.ts serializeToolUse (safe-stable-stringify)",
  view: (tool, params) => ({ tool, params: params === undefined ? {} : params }),
};
