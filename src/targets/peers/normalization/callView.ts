// A call as one runtime's guard sees it. Every runtime takes the tool name and args the model
// sent and does something of its own to them before its guard compares calls: Gemini CLI trims
// the name, Qwen Code maps legacy names, opencode lowercases a name it would otherwise not find,
// and most map missing args to {}. None of them applies OpenClaw's rule E2 (trim, lowercase,
// `bash`→`exec`): that is OpenClaw's alone. Each runtime's rule lives in a file of its own in
// this folder, with the source line it was read from, and is pinned by the agreement probes on
// names and args (src/agreement/probeSet.ts).
import { isPlainObject } from "../../../../models/outcomeHash.js";

export interface CallView {
  readonly tool: string;
  readonly params: unknown;
}

export interface CallNormalization {
  /** The runtime whose rule this is. */
  readonly runtime: string;
  /** The rule in one line, for notes and docs. */
  readonly rule: string;
  /** Where it was read: package@version and file:line, or the repository path. */
  readonly source: string;
  /** The name and args the runtime's guard sees, from those the model sent. */
  view(tool: string, params: unknown): CallView;
}

/** JavaScript's `args || {}`: any falsy args (missing, null, false, 0, "") become {}. */
export function orEmpty(params: unknown): unknown {
  return params === undefined || params === null || params === false || params === 0 || params === "" || (typeof params === "number" && Number.isNaN(params)) ? {} : params;
}

/** Name and args exactly as given (runtimes whose source shows no normalisation before the guard). */
export function asGiven(runtime: string, rule: string, source: string): CallNormalization {
  return { runtime, rule, source, view: (tool, params) => ({ tool, params }) };
}

export { isPlainObject };
