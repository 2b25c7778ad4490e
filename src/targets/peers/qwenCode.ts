// Qwen Code's loop guard (0.24.4), over one user prompt, checked as each call is requested; a
// detection stops the turn before the call runs, drops pending calls, and no recovery turn follows.
// Always on (the CLI cannot switch these off):
// - the 5th identical call in a row (canonical name + recursively key-sorted args);
// - the 8th git overview command in a row (status, diff without paths, ls-files);
// - past 100 calls in the prompt when some call has been made 6 times; past 1000 calls always.
// A heuristic tier that the CLI leaves off unless `model.skipLoopDetection` is set to false in
// its settings (its default is true): `qwen-code:heuristics` models the CLI with it on:
// - the 6th identical call anywhere in the prompt;
// - an A,B,A,B,A,B alternation of two different calls (three cycles);
// - 8 calls in a row to one tool name, whatever the args;
// - 8 read-like calls among the last 15, once some call in the prompt was not read-like;
// - model text: the 3rd identical thought in a row since the last tool call (qwenThoughts.ts).
// Pinned against the real CLI (@qwen-code/qwen-code) driven through a scripted model: reports/peers.
import { extend, NO_STREAK, type Streak } from "./consecutive.js";
import { ALLOW, peerTarget, type PeerAction, type PeerCall } from "./peerGuard.js";
import { QWEN_THOUGHT_REPEATS, thoughtStep, type ThoughtHistory } from "./qwenThoughts.js";
import { QWEN_NORMALIZATION, qwenRepeatKey } from "./normalization/qwenCode.js";
import type { Target } from "../target.js";

export const QWEN_STOP_AT = 5;
export const QWEN_OVERVIEW_GIT_RUN = 8;
export const QWEN_LONG_TURN = 100;
export const QWEN_LONG_TURN_REPEATS = 6;
export const QWEN_HARD_STOP = 1000;
export const QWEN_GLOBAL_DUPLICATES = 6;
export const QWEN_ALTERNATION_CYCLES = 3;
export const QWEN_SAME_TOOL_RUN = 8;
export const QWEN_READS = 8;
export const QWEN_READ_WINDOW = 15;
const IDENTICAL = "qwen-code:identical-calls";
const OVERVIEW = "qwen-code:overview-git";
const LONG_TURN = "qwen-code:long-turn-repeats";
const HARD = "qwen-code:call-limit";
const GLOBAL_DUPLICATE = "qwen-code:global-duplicate";
const ALTERNATING = "qwen-code:alternating-pattern";
const STAGNATION = "qwen-code:action-stagnation";
const READ_LOOP = "qwen-code:read-file-loop";
const THOUGHTS = "qwen-code:repetitive-thoughts";

interface Heuristics {
  /** Tool names of the last 15 calls. */
  readonly recent: readonly string[];
  readonly seenNonRead: boolean;
  readonly sameName: Streak;
  /** Keys of the last 6 calls. */
  readonly lastKeys: readonly string[];
  readonly counts: ReadonlyMap<string, number>;
}

interface QwenState {
  readonly streak: Streak;
  readonly overviewRun: number;
  readonly calls: number;
  /** How often each key was called in this prompt (for the long-turn rule). */
  readonly counts: ReadonlyMap<string, number>;
  readonly mostRepeated: number;
  readonly heuristics: Heuristics;
  /** Thought signatures since the last tool call (heuristic tier only). */
  readonly thoughts: ThoughtHistory;
}

/** The names a trace's shell tool goes by: Qwen's own, and those of the runtimes traces come from. */
const SHELL_TOOLS: ReadonlySet<string> = new Set(["run_shell_command", "shell", "bash", "exec"]);
const GIT_OVERVIEW = /^git(?:\s+(?:-C\s+\S+|--no-pager))*\s+(status|diff|ls-files)\b/i;

function isRevision(token: string): boolean {
  return token === "HEAD" || token === "@" || /^(?:HEAD|@)(?:[~^]\d*)+$/.test(token) || /^[0-9a-f]{7,40}$/i.test(token) || /^[^\s]+\.{2,3}[^\s]+$/.test(token);
}

/** A git diff that shows the whole tree (flags and revisions only, no paths). */
function isOverviewDiff(args: string): boolean {
  const tokens = args.trim() === "" ? [] : args.trim().split(/\s+/);
  const separator = tokens.indexOf("--");
  if (separator !== -1 && separator < tokens.length - 1) return false;
  return tokens.every((t) => t.startsWith("-") || isRevision(t));
}

/** A read-only git overview command (status, diff, ls-files), every segment of a compound one. */
export function isOverviewGit(call: PeerCall): boolean {
  if (!SHELL_TOOLS.has(call.tool) || call.params === null || typeof call.params !== "object") return false;
  const command = (call.params as Record<string, unknown>).command;
  if (typeof command !== "string") return false;
  const segments = command.split(/&&|\|\||[;&|\n]/).map((s) => s.trim()).filter((s) => s !== "");
  return (
    segments.length > 0 &&
    segments.every((segment) => {
      const match = GIT_OVERVIEW.exec(segment);
      return match !== null && (match[1]?.toLowerCase() !== "diff" || isOverviewDiff(segment.slice(match[0].length)));
    })
  );
}

const READ_LIKE: ReadonlySet<string> = new Set(["read_file", "read_many_files", "list_directory", "zoom_image"]);

/** Qwen's read-like tools: its readers by name, and any `read_` or `list_` tool. */
export function isReadLike(tool: string): boolean {
  return READ_LIKE.has(tool) || tool.startsWith("read_") || tool.startsWith("list_");
}

const NO_HEURISTICS: Heuristics = { recent: [], seenNonRead: false, sameName: NO_STREAK, lastKeys: [], counts: new Map() };

/** The heuristic tier for one call: its new state and the first rule it trips, if any. */
function heuristicTier(h: Heuristics, tool: string, key: string): { heuristics: Heuristics; hit?: { detector: string; count: number; why: string } } {
  const recent = [...h.recent, tool].slice(-QWEN_READ_WINDOW);
  const seenNonRead = h.seenNonRead || !isReadLike(tool);
  const sameName = extend(h.sameName, tool);
  const lastKeys = [...h.lastKeys, key].slice(-2 * QWEN_ALTERNATION_CYCLES);
  const stateful = tool === "task_list";
  const counts = new Map(h.counts);
  const seen = stateful ? 0 : (counts.get(key) ?? 0) + 1;
  if (!stateful) counts.set(key, seen);
  const heuristics = { recent, seenNonRead, sameName, lastKeys, counts };
  if (seen >= QWEN_GLOBAL_DUPLICATES) return { heuristics, hit: { detector: GLOBAL_DUPLICATE, count: seen, why: `global_tool_call_duplicate: the same call ${seen} times in this prompt` } };
  const [a, b] = lastKeys;
  if (lastKeys.length === 2 * QWEN_ALTERNATION_CYCLES && a !== b && lastKeys.every((k, i) => k === (i % 2 === 0 ? a : b))) {
    return { heuristics, hit: { detector: ALTERNATING, count: lastKeys.length, why: "alternating_tool_call_pattern: two calls alternate three times" } };
  }
  const reads = recent.filter(isReadLike).length;
  if (seenNonRead && recent.length >= QWEN_READS && reads >= QWEN_READS) return { heuristics, hit: { detector: READ_LOOP, count: reads, why: `read_file_loop: ${reads} reads among the last ${recent.length} calls` } };
  if (sameName.length >= QWEN_SAME_TOOL_RUN) return { heuristics, hit: { detector: STAGNATION, count: sameName.length, why: `action_stagnation: ${tool} called ${sameName.length} times in a row` } };
  return { heuristics };
}

function stop(detector: string, count: number, message: string): PeerAction {
  return { kind: "stop", detector, count, message: `Qwen Code: Loop detection halted the run (${message}).` };
}

export function qwenTarget(heuristics: boolean): Target {
  return peerTarget<QwenState>({
    name: heuristics ? "qwen-code:heuristics" : "qwen-code",
    summary: heuristics
      ? `Qwen Code with model.skipLoopDetection false: its always-on stops, plus the ${QWEN_GLOBAL_DUPLICATES}th identical call anywhere in the prompt, ${QWEN_ALTERNATION_CYCLES} A/B cycles, ${QWEN_SAME_TOOL_RUN} calls in a row to one tool, ${QWEN_READS} reads among the last ${QWEN_READ_WINDOW}`
      : `Qwen Code: the ${QWEN_STOP_AT}th identical call in a row (args key-sorted) stops the prompt before it runs; also ${QWEN_OVERVIEW_GIT_RUN} git overview commands in a row, and long prompts with a call made ${QWEN_LONG_TURN_REPEATS} times; results are not compared`,
    notes: [
      "args compared with keys sorted recursively (the same args in another key order are the same call)",
      "a run stands for one user prompt: its counts never reset within it; one detector per session, reset at every event of another run, as the client holds one service and resets it whenever a user query starts an interaction (@qwen-code/qwen-code@0.24.4 chunks/chunk-DPEB6S2R.js:82264); run ids compared exactly",
      "the stop is checked before the call runs: the stopping call and any pending calls do not run, no recovery turn",
      "its task_list tool (exempt while its result changes) is not modelled: no simulated agent calls it",
      "the long-turn rule: a call beyond the 100th in the prompt while some call has been made 6 times or more; beyond the 1000th always",
      "git overview commands are those of its run_shell_command; a trace's shell tool (shell, bash, exec) stands for it",
      heuristics
        ? "the heuristic tier on, as with model.skipLoopDetection: false in the CLI's settings; read-like tools are Qwen's own (read_file, read_many_files, list_directory, zoom_image, read_*, list_*): another runtime's `read` is not one"
        : "the heuristic tier is off, as the CLI ships it (settings model.skipLoopDetection defaults to true): see qwen-code:heuristics",
      heuristics
        ? `model text: its repeated-thoughts rule, the ${QWEN_THOUGHT_REPEATS}rd identical thought (bold subject and first 200 characters, lower-cased) in a row since the last tool call stops the prompt (qwenThoughts.ts); messages are not read`
        : `model text: its repeated-thoughts rule (${QWEN_THOUGHT_REPEATS} identical thoughts since the last tool call) is in the heuristic tier, so this model is blind to text: see qwen-code:heuristics`,
    ],
    detectors: heuristics ? [IDENTICAL, OVERVIEW, LONG_TURN, HARD, GLOBAL_DUPLICATE, ALTERNATING, STAGNATION, READ_LOOP, THOUGHTS] : [IDENTICAL, OVERVIEW, LONG_TURN, HARD],
    normalization: QWEN_NORMALIZATION,
    warns: false,
    scope: "session",
    reducer: {
      initial: () => ({ streak: NO_STREAK, overviewRun: 0, calls: 0, counts: new Map(), mostRepeated: 0, heuristics: NO_HEURISTICS, thoughts: [] }),
      onCall(state, call) {
        const key = qwenRepeatKey(call.tool, call.params);
        const streak = extend(state.streak, key);
        const overviewRun = isOverviewGit(call) ? state.overviewRun + 1 : 0;
        const calls = state.calls + 1;
        const counts = new Map(state.counts);
        const seen = call.tool === "task_list" ? 0 : (counts.get(key) ?? 0) + 1;
        if (call.tool !== "task_list") counts.set(key, seen);
        // A tool call request empties the thought history.
        const always: QwenState = { ...state, streak, overviewRun, calls, counts, mostRepeated: Math.max(state.mostRepeated, seen), thoughts: [] };
        if (streak.length >= QWEN_STOP_AT) return { state: always, action: stop(IDENTICAL, streak.length, `consecutive_identical_tool_calls: ${call.tool} repeated ${streak.length} times with identical arguments`) };
        if (overviewRun >= QWEN_OVERVIEW_GIT_RUN) return { state: always, action: stop(OVERVIEW, overviewRun, `shell_command_stagnation: ${overviewRun} git overview commands in a row`) };
        if (calls > QWEN_HARD_STOP) return { state: always, action: stop(HARD, calls, `turn_tool_call_cap: ${calls} tool calls in one prompt`) };
        if (calls > QWEN_LONG_TURN && always.mostRepeated >= QWEN_LONG_TURN_REPEATS) return { state: always, action: stop(LONG_TURN, always.mostRepeated, `turn_tool_call_cap: past ${QWEN_LONG_TURN} calls with a call made ${always.mostRepeated} times`) };
        if (!heuristics) return { state: always, action: ALLOW };
        const tier = heuristicTier(state.heuristics, call.tool, key);
        const next = { ...always, heuristics: tier.heuristics };
        return tier.hit === undefined ? { state: next, action: ALLOW } : { state: next, action: stop(tier.hit.detector, tier.hit.count, tier.hit.why) };
      },
      onOutcome: (state) => ({ state, action: ALLOW }),
      // The default model is blind to text (no onText): the rule is the heuristic tier's.
      ...(heuristics
        ? {
            onText(state: QwenState, text: { readonly type: "message" | "thought"; readonly text: string }) {
              if (text.type !== "thought") return { state, action: ALLOW };
              const { history, loop } = thoughtStep(state.thoughts, text.text);
              const next = { ...state, thoughts: history };
              return { state: next, action: loop ? stop(THOUGHTS, QWEN_THOUGHT_REPEATS, `repetitive_thoughts: the same thought ${QWEN_THOUGHT_REPEATS} times in a row`) : ALLOW };
            },
          }
        : {}),
    },
  });
}

export const QWEN_CODE_TARGET = qwenTarget(false);
export const QWEN_HEURISTICS_TARGET = qwenTarget(true);
