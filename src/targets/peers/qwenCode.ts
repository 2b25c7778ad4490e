// Qwen Code's always-on loop guard (0.24): a key per call (canonical tool name + recursively
// key-sorted args), counted over the whole user prompt. It stops the turn, before the call runs,
// on the 5th identical call in a row; on the 8th overview git command in a row (status, diff,
// ls-files); past 100 calls in the prompt when some call has been made 6 times; and at the
// 1000th call. Pending calls are dropped and no recovery turn follows. Its heuristic tier (6
// identical anywhere, ABAB x3, read-heavy, same tool 8 in a row) is off by default: not modelled.
// Pinned against the real CLI (@qwen-code/qwen-code) driven through a scripted model: reports/peers.
import { unorderedKey } from "./callKeys.js";
import { extend, NO_STREAK, type Streak } from "./consecutive.js";
import { ALLOW, peerTarget, type PeerAction, type PeerCall } from "./peerGuard.js";
import { QWEN_THOUGHT_REPEATS } from "./qwenThoughts.js";

export const QWEN_STOP_AT = 5;
export const QWEN_OVERVIEW_GIT_RUN = 8;
export const QWEN_LONG_TURN = 100;
export const QWEN_LONG_TURN_REPEATS = 6;
export const QWEN_HARD_STOP = 1000;
const IDENTICAL = "qwen-code:identical-calls";
const OVERVIEW = "qwen-code:overview-git";
const LONG_TURN = "qwen-code:long-turn-repeats";
const HARD = "qwen-code:call-limit";

interface QwenState {
  readonly streak: Streak;
  readonly overviewRun: number;
  readonly calls: number;
  /** How often each key was called in this prompt (for the long-turn rule). */
  readonly counts: ReadonlyMap<string, number>;
  readonly mostRepeated: number;
}

const SHELL_TOOLS: ReadonlySet<string> = new Set(["run_shell_command", "shell", "bash", "exec"]);

/** A read-only git overview command (status, diff, ls-files), the ones agents spin on. */
export function isOverviewGit(call: PeerCall): boolean {
  if (!SHELL_TOOLS.has(call.tool) || call.params === null || typeof call.params !== "object") return false;
  const command = (call.params as Record<string, unknown>).command;
  return typeof command === "string" && /^\s*git\s+(status|diff|ls-files)\b/.test(command);
}

function stop(detector: string, count: number, message: string): PeerAction {
  return { kind: "stop", detector, count, message: `Qwen Code: Loop detection halted the run (${message}).` };
}

export const QWEN_CODE_TARGET = peerTarget<QwenState>({
  name: "qwen-code",
  summary: `Qwen Code: the ${QWEN_STOP_AT}th identical call in a row (args key-sorted) stops the prompt before it runs; also ${QWEN_OVERVIEW_GIT_RUN} git overview commands in a row, and long prompts with a call made ${QWEN_LONG_TURN_REPEATS} times; results are not compared`,
  notes: [
    "args compared with keys sorted recursively (the same args in another key order are the same call)",
    "a run stands for one user prompt: its counts never reset within it",
    "the stop is checked before the call runs: the stopping call and any pending calls do not run, no recovery turn",
    "its task_list tool (exempt while its result changes) is not modelled: no simulated agent calls it",
    "the heuristic tier is off by default (skipLoopDetection: true) and not modelled",
    `model text: its repeated-thoughts rule (${QWEN_THOUGHT_REPEATS} identical thoughts since the last tool call, qwenThoughts.ts) is in that tier, so this model is blind to text`,
    "the long-turn rule is read as: a call beyond the 100th in the prompt, while some call has been made 6 times or more",
  ],
  detectors: [IDENTICAL, OVERVIEW, LONG_TURN, HARD],
  warns: false,
  reducer: {
    initial: () => ({ streak: NO_STREAK, overviewRun: 0, calls: 0, counts: new Map(), mostRepeated: 0 }),
    onCall(state, call) {
      const key = unorderedKey(call.tool, call.params);
      const streak = extend(state.streak, key);
      const overviewRun = isOverviewGit(call) ? state.overviewRun + 1 : 0;
      const calls = state.calls + 1;
      const counts = new Map(state.counts);
      const seen = (counts.get(key) ?? 0) + 1;
      counts.set(key, seen);
      const next: QwenState = { streak, overviewRun, calls, counts, mostRepeated: Math.max(state.mostRepeated, seen) };
      if (streak.length >= QWEN_STOP_AT) return { state: next, action: stop(IDENTICAL, streak.length, `consecutive_identical_tool_calls: ${call.tool} repeated ${streak.length} times with identical arguments`) };
      if (overviewRun >= QWEN_OVERVIEW_GIT_RUN) return { state: next, action: stop(OVERVIEW, overviewRun, `${overviewRun} git overview commands in a row`) };
      if (calls >= QWEN_HARD_STOP) return { state: next, action: stop(HARD, calls, `${calls} tool calls in one prompt`) };
      if (calls > QWEN_LONG_TURN && next.mostRepeated >= QWEN_LONG_TURN_REPEATS) return { state: next, action: stop(LONG_TURN, next.mostRepeated, `past ${QWEN_LONG_TURN} calls with a call made ${next.mostRepeated} times`) };
      return { state: next, action: ALLOW };
    },
    onOutcome: (state) => ({ state, action: ALLOW }),
  },
});
