// What one recorded call taught the agent, and whether a later call heard it again: the per-call
// decisions of the no-new-fact rule. They sit with the importers, beside writes.ts and mask.ts,
// because two layers make them: the miner of real loops (src/realLoops/noNewFact.ts, offline, on a
// whole session) and the candidate guard `candidate:no-new-fact:N` (src/targets/candidates, online,
// one answer at a time). One definition keeps the candidate the miner's rule run online: a family
// of failures, a write that never took effect, a write re-sent, a region re-read mean the same in
// both. Pure and deterministic; values derived from one call are worked out once (perCall.ts).
import type { CallEvent, OutcomeEvent } from "../../models/events.js";
import { outcomeFailed } from "./failure.js";
import { answerLines, failureSignature, hasAnswerLine, leadingLines, maskText, mayHoldMaskedLine, outcomeText, pathsIn, rejectionOf } from "./mask.js";
import { perCall } from "./perCall.js";
import { argsNamedByVariable, createdFileOf, SHELL_TOOLS, writeOf, type WriteKind } from "./writes.js";

/** One answered (or unanswered) call, as the no-new-fact rule reads it. */
export interface FactCall {
  readonly call: Pick<CallEvent, "tool">;
  readonly outcome?: OutcomeEvent;
  /** The masked answer, with the importer's details line (an exit code, a status) after it. */
  readonly result: string;
  /** The args and the result text as recorded, before masking. */
  readonly rawArgs: string;
  readonly rawResult: string;
  readonly failed: boolean;
  /** The kind of refusal when the environment turned the action back without running it (mask.ts rejectionOf). */
  readonly rejected?: string;
  /** The tool said nothing (no text beside the exit status the importer recorded). */
  readonly silent: boolean;
  /** The tool said more than a number or a word (see substantial). */
  readonly substantial: boolean;
  /** For a failed or refused call: its failure, masked (mask.ts failureSignature); otherwise undefined. */
  readonly signature?: string;
}

/** How many calls back a call's answer is compared with earlier answers (no further than the last change). */
export const NEW_FACT_WINDOW = 10;

/** What a call and its answer tell, read once at the edge: the miner and the candidate build it alike. */
export function factCallOf(call: CallEvent, outcome: OutcomeEvent | undefined): FactCall {
  const { message, details } = answerOf(outcome);
  const masked = maskedAnswerOf(message, details);
  const told = unmaskedFactOf(call, outcome, message, details);
  return {
    call,
    ...(outcome === undefined ? {} : { outcome }),
    result: masked.result,
    rawArgs: told.rawArgs,
    rawResult: told.rawResult,
    failed: told.failed,
    silent: told.silent,
    substantial: masked.substantial,
    ...(told.rejected === undefined ? {} : { rejected: told.rejected }),
    ...(told.signature === undefined ? {} : { signature: told.signature }),
  };
}

/** What the tool said, and apart from it the details the importer added (an exit code, a status). */
export function answerOf(outcome: OutcomeEvent | undefined): { readonly message: string; readonly details: string } {
  const message = outcomeText(outcome, false);
  return { message, details: detailsText(outcome, message) };
}

/** The masked answer (FactCall.result) and whether it says something (FactCall.substantial): the part of a FactCall masking makes. */
export function maskedAnswerOf(message: string, details: string): { readonly result: string; readonly substantial: boolean } {
  const maskedMessage = maskText(message);
  return { result: details === "" ? maskedMessage : `${maskedMessage}\n${maskText(details)}`, substantial: substantial(maskedMessage) };
}

/** Every field of a FactCall but the two masking makes (maskedAnswerOf), with the same values factCallOf gives them. */
export function unmaskedFactOf(call: CallEvent, outcome: OutcomeEvent | undefined, message: string, details: string): Omit<FactCall, "call" | "outcome" | "result" | "substantial"> {
  const rawArgs = JSON.stringify(call.params ?? null) ?? "null";
  const failed = outcome !== undefined && outcomeFailed(outcome);
  const rejected = outcome === undefined ? undefined : (rejectionOf(message) ?? (editFoundNoTarget(call.tool, rawArgs, message) ? REPLACEMENT_NOT_PERFORMED : (editorRaised(message) ?? (replacedWithItself(message) ? EDIT_CHANGED_NOTHING : undefined))));
  const signature = rejected !== undefined ? `refused: ${rejected}` : failed ? failureSignature(message, rawArgs, exitCodeOf(outcome)) : undefined;
  return {
    rawArgs,
    rawResult: details === "" ? message : `${message}\n${details}`,
    failed,
    silent: !hasAnswerLine(message),
    ...(rejected === undefined ? {} : { rejected }),
    ...(signature === undefined ? {} : { signature }),
  };
}
/** What a call may have written (writes.ts writeOf), worked out once per call: the miner's writes and its unlanded-edits rule both ask it. */
export const writeKindOf = perCall((c: FactCall): WriteKind => writeOf(c.call.tool, c.rawArgs));

/** The kind of refusal (mask.ts REJECTIONS) an edit that did not find what it was to replace reports. */
const REPLACEMENT_NOT_PERFORMED = "replacement not performed";
/** The kind of refusal (mask.ts REJECTIONS) an editor that raised on its own input reports. */
const TOOL_INPUT_REJECTED = "tool input rejected";
/** An edit the editor made with the very text it replaced: the file did not move, though nothing was refused. */
const EDIT_CHANGED_NOTHING = "edit changed nothing";
const NO_TARGET_MAX_CHARS = 600;
/** One scan first: most short answers say nothing of the kind. */
const NO_TARGET_WORDS = /not[ _-]?found|no[ _-]?match|patch point|\b(?:could ?n[o']?t|cannot|can't|unable to|failed to|did ?n[o']?t) (?:find|locate|match)\b|\bno changes?\b|\bnothing (?:to )?(?:change|replace|patch)|\bunchanged\b|mismatch/i;
/**
 * A line an edit script prints when the text it was to replace is not in the file, or that it
 * changed nothing. Agents word their own scripts' refusals freely ("pattern not found", "needle not
 * found, aborting", "target location not found, no changes made", "START_MARKER_NOT_FOUND",
 * "start/end not found or order wrong", "Could not find method", "no change"), so the line is read
 * for its meaning: something (up to a few words) was not found or could not be found or matched,
 * or nothing was changed; a line that also names a shell command bash could not find is no such
 * report (it is bash failing, handled as a failure).
 */
const NO_TARGET_LINE = new RegExp(
  [
    // "<what> not found", "<WHAT>_NOT_FOUND", "NO_MATCH", a few words before it at most
    "^(?!.*command not found).{0,60}?(?:\\b|_)(?:not[ _-]?found|no[ _-]?match)\\b.*",
    // "could not find the block", "unable to locate anchor", "failed to match"
    "^.{0,40}?\\b(?:could ?n[o']?t|cannot|can't|unable to|failed to|did ?n[o']?t) (?:find|locate|match)\\b.*",
    // "no change", "no changes made", "No matching occurrences found to patch", "no suitable patch point"
    "^\\W*no (?:suitable )?(?:patch point|match(?:es|ing)?|changes?)\\b.*",
    // "nothing to replace", "nothing changed", "file unchanged"
    "^.{0,40}?\\b(?:nothing (?:to )?(?:change|replace|patch)d?|unchanged)\\b.*",
    // "context mismatch for block1; aborting": the script checked its anchor and stopped
    "^.{0,40}?\\bmismatch\\b.*\\babort.*",
  ]
    .map((a) => `(?:${a})`)
    .join("|"),
  "i",
);
/**
 * What bash prints when the rest of a command line after a heredoc could not be parsed ("bash: -c:
 * line 20: syntax error near unexpected token `&&'" and the line it quotes, the here-document
 * warning): it is no output of the edit script, which ran and said its piece before it; nothing
 * after it ran either, so it adds nothing the edit did.
 */
const BASH_PARSE_TRAILER = /^(?:\/bin\/)?bash: (?:-c: )?line \d+: (?:syntax error.*|`.*|warning: here-document.*)$/;
/**
 * An edit (a call that writes: a patch script, sed, a heredoc python that writes the file) whose
 * whole answer says it found nothing to replace ("pattern not found", "No patch point found in
 * a.py", "NO_MATCH", "needle not found, aborting") or changed nothing ("no changes made"): the
 * edit was not made, as when the editor refuses "Code to replace not found". The readers marked
 * runs of them stuck ("three regex patch scripts in a row each answer No patch point found";
 * "pattern not found / pattern-not-found / Code to replace not found"; round 7: "same failure five
 * times with differently written patch scripts", each worded differently). Only when every line
 * of the answer says so (at most a few, bash's complaint about the command line after the script
 * aside): an edit that went on to print a diff, a test run or "patched" did something, and a
 * search (no write) that finds nothing is a search, not a refusal.
 */
function editFoundNoTarget(tool: string, rawArgs: string, message: string): boolean {
  // A few short lines at most: a longer answer is no such report, and is not split. bash's
  // report that it could not parse the rest of the command line (the `&&` after a heredoc's
  // terminator) may follow: that rest never ran, so the edit's report is still all that happened
  // (round 7: "pattern not found" then "syntax error near unexpected token `&&'", three times).
  if (message.length > SYNTAX_TAIL_MAX_CHARS) return false;
  // Cheap first look: an answer longer than a report can only be one followed by bash's syntax
  // error (both of SHELL_SYNTAX's forms say "syntax error"); without it, the length check below
  // turns it down anyway, after the words' scan this skips.
  if (message.length > NO_TARGET_MAX_CHARS && !message.includes("syntax error")) return false;
  if (!NO_TARGET_WORDS.test(message)) return false;
  const report = beforeShellSyntaxError(message) ?? message;
  if (report.length > NO_TARGET_MAX_CHARS) return false;
  const lines = answerLines(report.replace(/^\s*bash execution output:\s*/, "")).filter((l) => !BASH_PARSE_TRAILER.test(l));
  if (lines.length === 0 || lines.length > 4 || !lines.every((l) => NO_TARGET_LINE.test(l.trim()))) return false;
  return writeOf(tool, rawArgs).kind !== "none";
}

/** How far into an answer the editor's own traceback is looked for (it comes first: the harness prints it before the output it buffered). */
const EDITOR_TRACEBACK_HEAD = 1500;
/** A frame of the harness's own code (its tools are defined in the script it runs: File "<string>"), and the function it is in. */
const HARNESS_FRAME = /^File "<string>", line \d+, in (<?\w+>?)$/;
/** The editing tool's function: code_replace, str_replace, replace_in_file. */
const EDITOR_FUNCTION = /replace/i;
const EXCEPTION_LINE = /^(?:\w+\.)*\w*(?:Error|Exception)\b/;
/**
 * An edit whose editing tool raised inside itself, in its own code (the harness defines its tools in
 * the script it runs: every frame is File "<string>"): the edit was not made, and the same call
 * again meets the same file. Raised below the editor's function, in the helpers it looks the old
 * text up with (code_replace given as its old code the None a viewer returns: "AttributeError:
 * 'NoneType' object has no attribute 'splitlines'" in its normalize), the old text could not be
 * found, as when it answers "Code to replace not found"; raised in the editor's function itself
 * ("ValueError: too many values to unpack" on args given in the wrong places), its input was
 * rejected. Only when every frame is the harness's own: an exception raised in the repository's
 * code (a test the script ran) is a failure of that code, not a refusal. The frame names the
 * editing function, so the call was an edit whatever its wrapper (CaM records `{"calls":[{bash},
 * {code_replace}]}` under the first call's tool).
 */
function editorRaised(message: string): string | undefined {
  // Looked for in the head only: an answer without one can run to megabytes.
  const at = message.slice(0, EDITOR_TRACEBACK_HEAD + 40).indexOf("Traceback (most recent call last):");
  if (at < 0 || at > EDITOR_TRACEBACK_HEAD) return undefined;
  const lines = answerLines(message.slice(at, at + EDITOR_TRACEBACK_HEAD)).slice(1);
  let inEditor = false;
  let innermostIsEditor = false;
  for (const line of lines) {
    const frame = HARNESS_FRAME.exec(line);
    if (frame !== null) {
      innermostIsEditor = EDITOR_FUNCTION.test(frame[1] ?? "");
      inEditor ||= innermostIsEditor;
      continue;
    }
    // The first line that is no harness frame: the exception, raised in the editor, or a frame elsewhere.
    if (!inEditor || !EXCEPTION_LINE.test(line)) return undefined;
    return innermostIsEditor ? TOOL_INPUT_REJECTED : REPLACEMENT_NOT_PERFORMED;
  }
  return undefined;
}

/** An editor's report of one replacement with the old and the new text it printed ("Replaced L195-207 (13 lines) -> ...\n  Old: ...\n  New: ..."). */
const OLD_NEW_REPORT = /^\s*Replaced\b[^\n]*\n\s*Old: ([\s\S]*?)\n\s*New: ([\s\S]*)$/;
/** Longer reports are not compared (a replacement of hundreds of lines is no no-op report worth the scan). */
const OLD_NEW_MAX_CHARS = 20_000;
/**
 * An edit whose editor reports that it replaced the old text with the very same text (Old == New):
 * the file did not move, as when the editor refuses "Code to replace not found". The readers
 * marked the same no-op code_replace sent again and again stuck ("#7-#9 each report Old == New,
 * i.e. no effect"). Only the whole report: an answer with anything else in it is read as it is.
 */
function replacedWithItself(message: string): boolean {
  if (message.length > OLD_NEW_MAX_CHARS) return false;
  const m = OLD_NEW_REPORT.exec(message);
  return m !== null && (m[1] ?? "").trim() === (m[2] ?? "").trim() && (m[1] ?? "").trim() !== "";
}

/** How long an answer may be for its part before bash's syntax error to be read as an edit's report (the error quotes the line it could not parse, which may run long). */
const SYNTAX_TAIL_MAX_CHARS = 4000;
/**
 * The answer before bash's syntax error, when the answer ends in that error: the error's line and
 * after it only bash's own lines (the line it could not parse, quoted; the importer's details
 * line aside). Undefined when the answer holds no such error, or is too long to be read for one.
 */
function beforeShellSyntaxError(message: string): string | undefined {
  const at = message.search(SHELL_SYNTAX);
  if (at === -1) return undefined;
  const lineStart = message.lastIndexOf("\n", at) + 1;
  const tail = answerLines(answerBody(message.slice(lineStart)));
  return tail.every((l) => l.startsWith("bash: ")) ? message.slice(0, lineStart) : undefined;
}

/**
 * A result's details as JSON (an exit code, a status are part of what the agent learns), without
 * the copy of the output some importers keep beside the text (OpenClaw's exec `aggregated`): the
 * same text twice would only be masked and compared twice.
 */
function detailsText(outcome: OutcomeEvent | undefined, message: string): string {
  const result = outcome?.error === undefined ? outcome?.result : undefined;
  const details = result !== null && typeof result === "object" ? (result as { details?: unknown }).details : undefined;
  if (details === undefined) return "";
  if (details === null || typeof details !== "object" || Array.isArray(details)) return JSON.stringify(details) ?? "";
  const { aggregated, ...rest } = details as Record<string, unknown>;
  return JSON.stringify(aggregated === undefined || aggregated === message || (typeof aggregated === "string" && aggregated.trim() === message.trim()) ? rest : details) ?? "";
}

/** The exit code an importer put into the result's details ({exitCode}), if any (a recorded outcome, or a guard's view of one). */
export function exitCodeOf(outcome: { readonly result?: unknown } | undefined): number | undefined {
  const details = (outcome?.result as { details?: { exitCode?: unknown } } | null | undefined)?.details;
  return typeof details?.exitCode === "number" ? details.exitCode : undefined;
}

/**
 * An answer that could only repeat if nothing changed: some text beyond numbers and placeholders,
 * and more than a word. A calculator's "171.0" and "201.0" mask alike, and a script printing "OK"
 * or "True" for each of three inputs found something out three times.
 */
export const NO_EFFECT_MIN_CHARS = 40;
export function substantial(masked: string): boolean {
  if (masked.trim().length < NO_EFFECT_MIN_CHARS) return false;
  // Letters outside the mask's placeholders, counted only as far as needed (outputs run to megabytes).
  let letters = 0;
  for (let i = 0; i < masked.length; i++) {
    const c = masked.charCodeAt(i);
    if (c === 60 /* < */) {
      const close = masked.indexOf(">", i);
      if (close > i && close - i <= 40 && /^<\w+>$/.test(masked.slice(i, close + 1))) {
        i = close;
        continue;
      }
    }
    if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) letters++;
    if (letters >= NO_EFFECT_MIN_CHARS / 2) return true;
  }
  return false;
}

/** A command as the agent means it: without a leading cd into the work folder and a stderr redirection. */
export const commandOf = perCall((c: FactCall): string => `${c.call.tool} ${commandText(c.rawArgs)}`);
/** Args without a leading cd, a stderr redirection and white space runs (commandOf, without the tool). */
function commandText(rawArgs: string): string {
  let args = rawArgs.replace(LEADING_CD, '{"command":"');
  // Each replace only where it can change something (a long script is otherwise scanned with
  // \s* tried at every character, and rebuilt space for space): test/loopsFastPaths.test.ts.
  if (args.includes("2>&1")) args = args.replace(/\s*2>&1/g, "");
  if (WIDE_SPACE_ANYWHERE.test(args)) args = args.replace(/\s+/g, " ");
  return args;
}
/** White space that /\s+/ -> " " changes: a run of two, or any white space but a space. */
const WIDE_SPACE_ANYWHERE = /[^\S ]| {2}/;
const LEADING_CD = /^\{"command":"cd [^\s&;]+ && /;

/**
 * commandOf(a) === commandOf(b), most pairs told apart by the commands' heads: the first
 * COMMAND_HEAD characters or so, made as commandOf makes the whole (the replaces are left to
 * right, and a head cut after a character that is no white space and no part of "2>&1" is one
 * that no replace reaches across, so it is made into the start of what the whole is made into).
 * Two commands whose heads differ where both have characters differ; commandOf, which rebuilds a
 * long script with its white space made one space, is then never made for either (compared for
 * every call with the calls in a window before it). test/loopsFastPaths.test.ts holds it to
 * commandOf compared.
 */
export function sameCommand(a: FactCall, b: FactCall): boolean {
  if (a.call.tool !== b.call.tool) return false;
  if (a.rawArgs === b.rawArgs) return true;
  const x = commandHead(a);
  const y = commandHead(b);
  if (!(x.length <= y.length ? y.startsWith(x) : x.startsWith(y))) return false;
  return commandOf(a) === commandOf(b);
}
/** How many characters of a command's args (after a leading cd) its head is made of, at most. */
const COMMAND_HEAD = 160;
/** The head of a call's command (see sameCommand): the whole command, without its tool, when the args are short. */
const commandHead = perCall((c: FactCall): string => {
  const raw = c.rawArgs;
  const cd = LEADING_CD.exec(raw)?.[0].length ?? 0;
  if (raw.length - cd <= COMMAND_HEAD) return commandOf(c).slice(c.call.tool.length + 1);
  let end = cd + COMMAND_HEAD;
  // Back to a character no replace can reach across: no white space (a run collapsed, or removed
  // with a "2>&1" after it) and no character of "2>&1" (removed whole).
  while (end > cd && HEAD_UNSETTLED.test(raw[end - 1] as string)) end--;
  return commandText(raw.slice(0, end));
});
const HEAD_UNSETTLED = /[\s2>&]/;

/** An answered call that asks something: writing a new file (cat > fix2.patch <<EOF) asks nothing, and its answer is no answer heard again. */
export const asksSomething = (c: FactCall): boolean => c.outcome !== undefined && createdFileOf(c.rawArgs) === undefined;

/** The quoted terms of a call's args (what a grep looks for), sorted: two wordings of one search share them. */
export const quotedTerms = perCall((c: FactCall): string => [...new Set([...c.rawArgs.matchAll(/\\"([^"\\]{3,80})\\"|'([^'\n]{3,80})'/g)].map((m) => (m[1] ?? m[2]) as string))].sort().join("\u0000"));
/** The files a call's args name (mask.ts pathsIn): compared with each earlier call in a window, worked out once. */
export const filesOf = perCall((c: FactCall): string => pathsIn(c.rawArgs));
export const WITHIN_MIN_LINES = 3;
/** A masked result without the details line the importer appended ({"status":..., "exitCode":...}). */
// What result.replace(/\n\{[^\n]*\}$/, "") gives (only the last line can match: `$` is the end of the
// text), read from the end instead of trying the pattern after every newline of a long answer.
export const answerBody = (result: string): string => {
  const newline = result.lastIndexOf("\n");
  return newline !== -1 && result.length - newline >= 3 && result.charCodeAt(newline + 1) === 123 /* { */ && result.charCodeAt(result.length - 1) === 125 /* } */ ? result.slice(0, newline) : result;
};
/**
 * a.result === b.result, read from the raw answers first: the same raw answer is the same masked
 * answer (no mask matches across a newline, so the answer masked with its details line after it is
 * the two masked apart), and the miner masks an answer only when a rule first reads it (mine.ts
 * maskedAnswer): a repeat answered as before is then compared without masking either answer. And
 * answers of different numbers of lines never mask alike (masking keeps every newline and puts
 * none in): of the 29,990 pairs of answers the miner compared over the datasets, 472 were the
 * same raw answer, 27,714 were told apart so, and 65 of the rest masked alike.
 * test/loopsFastPaths.test.ts holds it to the masked answers compared.
 */
export const sameResult = (a: FactCall, b: FactCall): boolean => a.rawResult === b.rawResult || (newlinesOf(a) === newlinesOf(b) && a.result === b.result);
/** How many newlines a call's raw answer holds (as many as its masked answer). */
const newlinesOf = perCall((c: FactCall): number => {
  const raw = c.rawResult;
  let count = 0;
  for (let at = raw.indexOf("\n"); at !== -1; at = raw.indexOf("\n", at + 1)) count++;
  return count;
});
export const sameDetails = (i: FactCall, j: FactCall): boolean => detailsOf(i) === detailsOf(j);
/**
 * The details line the importer appended to a masked result (with its newline), or "":
 * c.result.slice(answerBody(c.result).length), from the raw answer's last line masked alone (a
 * line masks to a {...} line exactly when it is one: no mask touches a brace or a newline), so
 * that comparing two answers' details masks neither answer (test/loopsFastPaths.test.ts).
 */
export const detailsOf = perCall((c: FactCall): string => {
  const raw = c.rawResult;
  const body = answerBody(raw).length;
  return body === raw.length ? "" : `\n${maskText(raw.slice(body + 1))}`;
});

/**
 * A wait that paid off: the very call after the repeats is the same call, as recorded, and its
 * answer is new (a build finished, a page loaded). Polling a running process until it answers is
 * waiting, not being stuck (OpenHands #5355 is about guards that stop it).
 */
export function waitPaidOff(calls: readonly FactCall[], last: number): boolean {
  const a = calls[last] as FactCall;
  const b = calls[last + 1];
  return b !== undefined && b.outcome !== undefined && b.rawArgs === a.rawArgs && b.call.tool === a.call.tool && !sameResult(b, a);
}

/** A harness that wraps each action in code of its own and could not parse it: the action never ran. */
export const HARNESS_PARSE = /^\s*File "<string>", line \d+[\s\S]{0,2000}?\n\s*(?:SyntaxError|IndentationError|TabError)\b/;
export const UNPARSED = "harness could not parse the action";
export const INSTALL_FAILED = "install failed";
/**
 * Two failures of one family. Failed installs are one when one's packages are all among the
 * other's (pip install numpy pandas timed out, then pip install numpy, then conda install numpy
 * pandas: the same packages cannot be had); installs of other packages (erfa, then pyerfa) are
 * deps tried one by one.
 */
export function sameFamily(a: string | undefined, b: string): boolean {
  if (a === b) return true;
  if (a === undefined || !a.startsWith(`${INSTALL_FAILED}: `) || !b.startsWith(`${INSTALL_FAILED}: `)) return false;
  const x = a.slice(INSTALL_FAILED.length + 2).split(" ");
  const y = b.slice(INSTALL_FAILED.length + 2).split(" ");
  const within = (p: string[], q: string[]) => p.every((w) => w !== "" && q.includes(w));
  return within(x, y) || within(y, x);
}
/** The packages an install names, sorted, without its options (pip install numpy pandas -q). */
function installedPackages(c: FactCall): string {
  const words = /\b(?:install|add)\s+([^"&|;>\n]*)/.exec(c.rawArgs)?.[1] ?? "";
  // A distribution's name for a Python package (python3-numpy) is the package (numpy).
  return [...new Set(words.split(/\s+/).filter((w) => /^[A-Za-z][\w.-]*$/.test(w)).map((w) => w.toLowerCase().replace(/^python3?-(?=\w)/, "").replace(/-/g, "_")))].sort().join(" ");
}
/** An install killed by the harness's timeout. */
const INSTALL = /\b(?:pip3?|conda|apt-get|apt|npm|yarn|pnpm|poetry|uv|mamba)\s+(?:[\w-]+\s+)*(?:install|add)\b/;
/** bash could not parse the command line: nothing in it ran. */
export const SHELL_SYNTAX = /syntax error near unexpected token|syntax error: unexpected end of file/;

/**
 * The failure a call met, as a family: what the agent learned from it, whatever its wording. A
 * refusal of one kind (a patch that did not apply, then a corrupt patch: the file did not change
 * either way), an install that timed out, an action the harness could not parse (File
 * "<string>" ... SyntaxError, whatever the message), else the failure's masked signature. Unparsed
 * actions are one family only when they come one right after the other (staleCalls): the
 * precision reading of round 2 judged runs with new reads between them false alarms (work went
 * on beside a format failure), and runs of them back to back stuck (nothing ran four times).
 */
// Asked for each call once per later call in a window: worked out once per call.
export const failureFamily = perCall(familyOf);
function familyOf(c: FactCall): string | undefined {
  if (c.rejected !== undefined) return `refused: ${c.rejected}`;
  if (!c.failed && c.signature === undefined) return undefined;
  if (HARNESS_PARSE.test(c.rawResult.slice(0, 3000))) return UNPARSED;
  // An install that timed out or failed installed nothing, however it was worded (pip, then
  // conda): the same packages again are the same lesson. Other packages are another lesson
  // (installing missing deps one by one is work: the precision reading of round 2 judged runs
  // that lumped installs of different packages together false alarms).
  if (failedInstall(c)) return `${INSTALL_FAILED}: ${installedPackages(c)}`;
  // A here-document never closed swallowed the rest of the command line, and the interpreter
  // could not parse the script it got: whatever Python said, the lesson is the terminator (round 7).
  if (heredocSwallowedScript(c)) return HEREDOC_NEVER_CLOSED;
  // bash's syntax error after output: what the script before it said is the lesson (chainSignature).
  if (c.signature !== undefined && SHELL_SYNTAX.test(c.signature) && ranBeforeSyntaxError(c)) return `ran, then a syntax error: ${c.result}`;
  // The exit status and the words of the command in the line are how it was run, not what failed
  // (bash -lc "..." says "bash: -c: syntax error" with 127 where the plain command said it with 2).
  // A tool's "Sorry: " before the error and the place after it, "(toctree.py, line 174)", are
  // how it was reported, not what failed (pytest and py_compile on one broken file).
  return c.signature === undefined ? undefined : signatureFamily(c.signature);
}
/** A failure signature as a family (familyOf): without how the command was run or how the error was reported. */
export function signatureFamily(signature: string): string {
  return signature
    .replace(/^exit -?\d+: /, "")
    .replace(/\bbash\b/g, "<arg>")
    .replace(/^Sorry: /, "")
    .replace(/\s*\([^()]*\)$/, "");
}

/**
 * A failed call that only installs (pip install numpy pandas -q, its output piped to tail): its
 * failure is the install's. An install chained to a run (pip install x && python t.py) may have
 * installed x before the run failed.
 */
function failedInstall(c: FactCall): boolean {
  // A package index refreshed first (apt-get update && apt-get install -y python3-numpy) is still only the install.
  return c.failed && INSTALL.test(c.rawArgs) && !/&&|;|\|\|/.test(c.rawArgs.replace(/^\{"command":"cd [^\s&;]+ && /, "").replace(/\bapt(?:-get)? update(?: -\w+)* && /, ""));
}
/**
 * A call that changed nothing whatever its command says: refused, never parsed, killed by a
 * timeout, or a command line bash could not parse that printed nothing else. A shell syntax error
 * AFTER output (a heredoc script that ran and printed "patched", then `PY && sed` that bash could
 * not parse) is no such call: the script before it ran (the precision reading of round 2 judged
 * chains resting on that trailing error false alarms).
 */
export function neverTookEffect(c: FactCall): boolean {
  const family = failureFamily(c);
  // A script whose own text could not be parsed ran none of it, whatever its exit status (piped, 0).
  if (family === undefined) return ownProgramUnparsed(c);
  // A named tool (book_reservation, update_*) that answered with a failure refused the action: the
  // runtime checks its input before it changes anything (a shell command may fail half done).
  if (c.failed && !SHELL_TOOLS.has(c.call.tool)) return true;
  return family.startsWith("refused") || HARNESS_PARSE.test(c.rawResult.slice(0, 3000)) || family.startsWith(INSTALL_FAILED) || (SHELL_SYNTAX.test(family) && !ranBeforeSyntaxError(c)) || ownProgramUnparsed(c);
}

/**
 * The program the call gave (a Python script on stdin or in -c, a sed, perl or awk expression)
 * could not be parsed, so none of it ran: Python reports a SyntaxError in the script it was given
 * (File "<stdin>", "<string>") with no "Traceback" before it, a compile-time error raised before
 * the first statement ran (a SyntaxError after a Traceback came from a running script, importing
 * a file it may have just written: that edit landed); sed, perl and awk refuse their own program.
 */
export function ownProgramUnparsed(c: FactCall): boolean {
  if (c.outcome === undefined) return false;
  const body = answerBody(c.rawResult);
  // Python: the answer opens at the location in the script it was given, and the parse error
  // follows within a few lines (the offending source line, the caret): a command chained after
  // the script (&& nl -ba f.py) may print after it. sed, perl, awk: their refusal anywhere.
  const report = body.slice(0, PARSE_REPORT_CHARS);
  // The location line holds File "<: an answer without it (nearly all) is not cut into lines for it.
  if (report.includes('File "<')) {
    const lines = report.replace(/^\s*bash execution output:\s*/, "").split("\n", PARSE_REPORT_LINES + 1 + HEREDOC_WARNINGS_MAX);
    // bash's warnings that a here-document was never closed come first: the script then ran to
    // the end of the command line (`PY && sed ...` became a line of it), and that is what failed to parse.
    let open = 0;
    while (open < HEREDOC_WARNINGS_MAX && HEREDOC_WARNING.test(lines[open] ?? "")) open++;
    if (SCRIPT_LOCATION.test(lines[open] ?? "") && lines.slice(open + 1, open + 1 + PARSE_REPORT_LINES).some((l) => PARSE_ERROR.test(l))) return true;
  }
  return EXPRESSION_REFUSED.test(body.slice(0, 3000));
}
/** bash's warning that a here-document's terminator never came ("wanted `PY'"): everything after its opening line became the script. */
export const HEREDOC_WARNING = /^\s*bash: (?:-c: )?(?:line \d+: )?warning: here-document at line \d+ delimited by end-of-file \(wanted `[^\n]*'\)\s*$/;
/** How many such warnings may open the answer (one per unclosed here-document). */
const HEREDOC_WARNINGS_MAX = 3;
/** The family of a script a never-closed here-document swallowed and the interpreter could not parse. */
export const HEREDOC_NEVER_CLOSED = "here-document never closed: the script it swallowed could not be parsed";
/**
 * bash warned that a here-document was never closed, and the interpreter could not parse the
 * script it got (ownProgramUnparsed, after the warning): the terminator's line (`PY && sed -n
 * ...`, `PY && pytest ...`) became part of the script, so none of it ran. The lesson is the
 * terminator, whatever Python's message (a stray quote found first at line 20, or the `PY &&`
 * line at 27): the readers marked such runs stuck while the agent rewrote the script's body and
 * never the terminator ("four patch heredocs each ending in PY && sed ... the agent rewrites the
 * script body instead of the terminator"). Without the warning, a SyntaxError is the script's
 * own, and each message is its own lesson.
 */
export const heredocSwallowedScript = perCall((c: FactCall): boolean => {
  const head = c.rawResult.slice(0, 400);
  if (c.outcome === undefined || !head.includes("here-document")) return false;
  const first = head.replace(/^\s*bash execution output:\s*/, "").split("\n", 1)[0] as string;
  return HEREDOC_WARNING.test(first) && ownProgramUnparsed(c);
});
/** Python's report of a parse error opens at the location in the script it was given, with no Traceback before (see ownProgramUnparsed). */
const SCRIPT_LOCATION = /^\s*File "<(?:stdin|string)>", line \d+\s*$/;
/** ... and names the error a few lines on: the location, the source line, the caret, the error. */
const PARSE_ERROR = /^\s*(?:SyntaxError|IndentationError|TabError)\b/;
const PARSE_REPORT_LINES = 4;
/** A source line may run long (a whole patch on one line): enough of the answer to reach the error. */
const PARSE_REPORT_CHARS = 20000;
/** sed's, perl's or awk's refusal of its own program: nothing of it ran (see ownProgramUnparsed). */
const EXPRESSION_REFUSED = /\bsed: -e expression #\d+, char \d+:|Execution of -e aborted due to compilation errors|\bawk: (?:cmd\. )?line:? ?\d+: (?:syntax error|missing \S+ near|runaway)/;

/**
 * The answer holds lines before bash's syntax error that say something: some of the command ran
 * and reported. Not: bash's own errors for the pieces of a mangled command line (command not
 * found, No such file or directory; one such error may span lines when the word it names holds
 * newlines: "bash: line 42: , REPLACED)" ... "&& sed -n '1,240p' x.html: No such file or
 * directory"), nor an edit's report that it changed nothing ("pattern not found", "already
 * patched", "no changes made"): what ran made no change and told nothing but what the error
 * tells (round 7: the readers marked such chains stuck, "already patched" with the same failing
 * chain after it). A script that printed anything else ran and said something (the round-2
 * precision reading judged chains resting on that trailing error false alarms: "patched", then
 * the error, was a patch that applied).
 */
export const ranBeforeSyntaxError = perCall((c: FactCall): boolean => {
  const lines = answerLines(answerBody(c.rawResult));
  const at = lines.findIndex((l) => SHELL_SYNTAX.test(l));
  if (at <= 0) return false;
  const edit = writeKindOf(c).kind !== "none";
  for (let k = 0; k < at; k++) {
    const line = lines[k] as string;
    if (edit && NO_CHANGE_LINE.test(line)) continue;
    if (!FAILED_PIECE.test(line)) return true;
    // An error of bash's that does not end as its errors end goes on to the line that does.
    if (BASH_OWN.test(line) && !BASH_ERROR_END.test(line)) {
      let end = k + 1;
      while (end < at && !BASH_ERROR_END.test(lines[end] as string)) end++;
      if (end < at) k = end;
    }
  }
  return false;
});
/** A line bash prints for a piece of a mangled command line that failed too. */
const FAILED_PIECE = /^(?:\/bin\/)?bash: |command not found|No such file or directory|^\s*\^|`[^`]*'$/;
/** bash's own error line, named as `bash: ` or by its path when it was run as /bin/bash (the trailer's pattern takes both). */
const BASH_OWN = /^(?:\/bin\/)?bash: /;
/** How bash's error about a word ends (the word itself may hold newlines). */
const BASH_ERROR_END = /: (?:command not found|No such file or directory|Permission denied|ambiguous redirect|Is a directory|Not a directory)$/;
/**
 * A line an edit script prints when it changed nothing: it found nothing to replace
 * (NO_TARGET_LINE), or the change was there already, or it says so ("no changes made").
 */
const NO_CHANGE_LINE = new RegExp(`${NO_TARGET_LINE.source}|^(?:.{0,60}\\b)?(?:already (?:patched|applied|fixed|present|in place|up to date)|no (?:changes?|files?) (?:were |was )?(?:made|applied|modified|patched|written|needed)|no changes?|nothing (?:changed|to (?:change|patch|replace|do)))\\b[^\\n]{0,60}$`, "i");

/** The lines of an answer as facts: code lines without their numbers, the importer's details line dropped, masked. */
// Each call's answer is compared with up to NEW_FACT_WINDOW later ones: mask its lines once, and
// make the set a later answer's lines are looked up in once.
export const factLines = perCall((c: FactCall): readonly string[] => factLinesFromResult(c) ?? factLinesOf(c));
export const factLineSet = perCall((c: FactCall): ReadonlySet<string> => new Set(factLines(c)));
/**
 * factLines(c).slice(0, WITHIN_MIN_LINES), masking only the lines it reads (mask.ts leadingLines):
 * what hearsAgain and shownBefore ask before they compare two answers line by line, most of which
 * they never do. A line is masked as factLinesOf masks it, its white space made one space first,
 * when it holds a date before white space other than one space (the one place where that differs
 * from factLinesFromResult's masking first: DATE_BEFORE_WIDE_SPACE matches inside one line), and as
 * factLinesFromResult does otherwise; the pattern is asked of the lines read, not of a whole
 * answer that may run to megabytes.
 */
export const leadingFactLines = perCall((c: FactCall): readonly string[] => leadingLines(answerBody(c.rawResult), WITHIN_MIN_LINES, factLineOf));
const factLineOf = (line: string): string => (DATE_BEFORE_WIDE_SPACE.test(line) ? maskText(line.replace(/\s+/g, " ")) : oneSpaced(maskText(line)));
/** The non-blank lines of the masked answer without its details line, harness tags dropped (answerLines): split once for every rule that reads them. */
export const maskedAnswerLines = perCall((c: FactCall): readonly string[] => answerLines(answerBody(c.result)));
/** A date followed by white space other than one space before a non-space: masking before or after the white space is made one space may differ there ("2026-12-03  10:00"). */
const DATE_BEFORE_WIDE_SPACE = /\d{4}-\d{2}-\d{2}(?! \S)[^\S\n]/;
/** White space a factLinesOf collapse would change in trimmed lines: a run of two, or any white space other than a space. */
const WIDE_SPACE = /[^\S\n ]| {2}/;
/**
 * factLinesOf from the answer factCallOf masked already (c.result), without masking it again, or
 * undefined when that may differ. The masks neither match across a newline nor touch a
 * harness tag or the braces of the details line, so the masked answer's lines are the answer's
 * lines masked; trimming and making white space one space commute with the masks, except where
 * a date's optional time is read across white space (DATE_BEFORE_WIDE_SPACE: then the plain
 * computation runs). test/loopsFastPaths.test.ts holds it to factLinesOf.
 */
export function factLinesFromResult(c: FactCall): readonly string[] | undefined {
  if (c.result.includes("<time>") && DATE_BEFORE_WIDE_SPACE.test(c.rawResult)) return undefined;
  // Line by line: joining, replacing and splitting the whole answer again took longer.
  return changedLines(maskedAnswerLines(c), oneSpaced);
}
/** A trimmed line with its white space runs made one space (the same string when it has none to change). */
const oneSpaced = (line: string): string => (WIDE_SPACE.test(line) ? line.replace(/\s+/g, " ") : line);
/**
 * `lines` with `change` applied to each, the same array when it changes none: the lines of one
 * answer are shared by every rule that reads them (perCall), so they are copied, never changed in
 * place, and only when a line changes (most answers have no line to change).
 */
export function changedLines(lines: readonly string[], change: (line: string) => string): readonly string[] {
  let out: string[] | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const changed = change(line);
    if (changed === line) continue;
    out ??= lines.slice();
    out[i] = changed;
  }
  return out ?? lines;
}
/** The plain computation factLines stands for (factLinesFromResult takes a shortcut to it). */
export function factLinesOf(c: FactCall): string[] {
  // The lines as printed, numbers included: a view with line numbers (nl -ba) after one without
  // tells the agent where to edit, which the precision reading of round 2 judged a new fact.
  // Masked as one text, not line by line: no mask matches across a newline or puts one in, so
  // the lines of the masked whole are the masked lines (test/loopsFastPaths.test.ts), and a long
  // answer is masked in a few scans instead of seven per line.
  // Whitespace runs are made one space over the joined text, not line by line: a line holds no
  // newline, so /[^\S\n]+/ on the whole gives what /\s+/ gives on each line, in one scan.
  const lines = answerLines(answerBody(c.rawResult));
  if (lines.length === 0) return [];
  return maskText(lines.join("\n").replace(/[^\S\n]+/g, " "))
    .split("\n")
    .filter((l) => l !== "");
}


/**
 * Whether an answer re-reads the region an earlier answer showed, rather than zooming into it: at
 * more than two thirds of the earlier answer's lines come back (sed -n '1443,1465p' after
 * '1443,1470p'). A few lines out of a view just read is how agents zoom in (not stuck, by the
 * readers' protocol: 340-345 after 335-345 is a closer look, and the readers judged chains of
 * such views not stuck); the same lines again, or nearly all of them, is a re-read.
 */
export function sameRegion(now: ReadonlySet<string>, before: readonly string[]): boolean {
  if (before.length === 0) return false;
  let back = 0;
  for (const l of before) if (now.has(l)) back++;
  return back * 3 > before.length * 2;
}

/**
 * Every line of c's answer is one of p's: linesIn(factLines(c), factLineSet(p)), with c's first
 * line looked up among p's lines before p's set is made (a set is made once per call and kept):
 * most views of a file after another start elsewhere, and no set is then needed (a third of the
 * sets hearsAgain made, in a profile of loops). And before p's lines are masked, the first line is
 * looked for in p's raw answer (mask.ts mayHoldMaskedLine), and c's own answer is masked whole
 * only when p's may hold it. Held to linesIn in test/loopsFastPaths.test.ts.
 */
export function shownBefore(c: FactCall, p: FactCall): boolean {
  const first = leadingFactLines(c)[0];
  if (first !== undefined && !(mayHoldMaskedLine(p.rawResult, first, true) && factLines(p).includes(first))) return false;
  return linesIn(factLines(c), factLineSet(p));
}

/** Every line of `lines` is one of `before`. */
export function linesIn(lines: readonly string[], had: ReadonlySet<string>): boolean {
  return lines.every((l) => had.has(l));
}


/**
 * Whether call `c` hears again what the earlier call `p` heard (both answered, no change between,
 * `adjacent` when p is the call right before c): "again" for the same failure family, the same
 * answer to the same command, search or viewer, the same empty answer to the same search or
 * command, or a re-read of the same region; "zoom" for a narrower view of what p showed (a closer
 * look, no news but no re-read either); undefined otherwise.
 */
export function hearsAgain(p: FactCall, c: FactCall, adjacent: boolean): "again" | "zoom" | undefined {
  const family = failureFamily(c);
  if (family !== undefined) return sameFamily(failureFamily(p), family) && (family !== UNPARSED || adjacent) ? "again" : undefined;
  if (failureFamily(p) !== undefined) return undefined;
  const files = filesOf(c);
  const sameFiles = files !== "" && filesOf(p) === files;
  // Asked only on the same files (the only place it counts): most pairs name different files, and
  // reading a script's quoted terms is a scan of all its quotes.
  const sameTerms = (): boolean => quotedTerms(c) !== "" && quotedTerms(p) === quotedTerms(c);
  if (c.silent) {
    // An empty answer is news unless the same search on the same files, or the same command, heard it before.
    return p.silent && sameDetails(p, c) && ((sameFiles && sameTerms()) || sameCommand(p, c)) ? "again" : undefined;
  }
  // The same answer to the same command, to the same search on the same files, or from a
  // named viewer on the same files. Not a named tool's same call about no file (a chat
  // runtime's search_direct_flight again: the customer may have changed the request between,
  // which the record does not show; the precision reading judged one such false alarm), nor
  // different commands on one file (pylint a.py -v,
  // then -rn: each flag asks something new, and the precision reading judged such sweeps
  // false alarms), nor to new scripts that print the same verdict (three experiments).
  const shell = SHELL_TOOLS.has(c.call.tool);
  // The masked answers last: the miner masks an answer when a rule first reads it (mine.ts maskedAnswer).
  if (((sameCommand(p, c) && (shell || sameFiles)) || (sameFiles && (!shell || sameTerms()))) && sameResult(p, c)) return "again";
  if (!sameFiles || leadingFactLines(c).length < WITHIN_MIN_LINES) return undefined;
  // A view all of whose lines an earlier answer showed: a re-read when it shows most of that
  // region again (sameRegion), else zooming, a closer look at part of it (the readers'
  // protocol: narrowing is not stuck).
  if (!shownBefore(c, p)) return undefined;
  return sameRegion(factLineSet(c), factLines(p)) ? "again" : "zoom";
}

/**
 * Both `p` and `c` are refused edits, and `c` carries text that calls between them showed for the
 * first time: a line of its old code (old_code, old_str) that `p`'s old code did not have, that an
 * answer `between` them shows and no answer `before` `p` did (a comment line a viewer hides, shown
 * by nl at last, then put into the next edit). The reads taught the edit something: work, not the
 * same refusal heard again (the round-4 precision reading judged such chains false alarms: "each
 * old_code corrected from new facts gathered in between"). An edit whose old code the args do not
 * give (a script's) carries none. One test for the miner's chains, its no-new-fact rule and the
 * online candidate, so the three cannot drift apart.
 */
export function correctedRefusal(p: FactCall, c: FactCall, before: readonly FactCall[], between: readonly FactCall[]): boolean {
  if (p.rejected === undefined || c.rejected === undefined) return false;
  const had = new Set(oldCodeLines(p));
  const fresh = oldCodeLines(c).filter((l) => !had.has(l));
  return fresh.some((l) => between.some((b) => shownLines(b).has(l)) && !before.some((b) => shownLines(b).has(l)));
}
/** The lines of the old code an edit's args give (old_code, old_str, in any sub-call), trimmed, the short ones left out. */
const oldCodeLines = perCall((c: FactCall): readonly string[] => {
  if (!c.rawArgs.includes('"old_')) return [];
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) for (const x of v) walk(x);
    else if (v !== null && typeof v === "object")
      for (const [k, x] of Object.entries(v)) {
        if ((k === "old_code" || k === "old_str") && typeof x === "string") out.push(...x.split("\n"));
        else walk(x);
      }
  };
  walk(JSON.parse(c.rawArgs) as unknown);
  return out.map((l) => l.trim()).filter((l) => l.length >= OLD_LINE_MIN);
});
/** Lines shorter than this (a bare `else:`, a closing bracket) say nothing about where they came from. */
const OLD_LINE_MIN = 8;
/** The lines an answer shows, trimmed, without the line number a viewer or nl puts before them. */
const shownLines = perCall((c: FactCall): ReadonlySet<string> => new Set(c.rawResult.split("\n").map((l) => l.replace(/^\s*\d+[:\s]\s?/, "").trim())));

/**
 * A write that could be a re-send of an earlier one when sent again as it was. An append (>>)
 * adds again, so it is never one; nor is a call whose args the record names by a variable
 * ({"expr":"cmd"}): it is a different call each time, whatever the record says.
 */
export function resendable(c: FactCall): boolean {
  return !c.rawArgs.includes(">>") && !knownOnlyByVariable(c);
}

/** The record names the call's args (or part of them) only by a variable (writes.ts argsNamedByVariable): no two are the same call. */
export function knownOnlyByVariable(c: FactCall): boolean {
  return argsNamedByVariable(c.rawArgs);
}

/** `c` re-sends `q`: the same tool, the same args as recorded, answered with the same masked text. */
export function resends(c: FactCall, q: FactCall): boolean {
  return q.rawArgs === c.rawArgs && q.call.tool === c.call.tool && q.outcome !== undefined && sameResult(q, c);
}
