// What "the same call" and "the same result" mean for mining real loops: text with everything a
// retry changes without the agent learning anything masked out. Timestamps, UUIDs and other hex
// ids, temporary paths and every run of digits (line numbers, pids, counters, durations, ports)
// are replaced by placeholders, so a `javac` re-run whose output differs only by a bash line
// number, or a poll whose only change is a clock, reads as the same text. Pure and deterministic.
// It sits with the importers, below the targets, because two layers need it: the miner of real
// loops (src/realLoops) and the candidate guard rules (src/targets/candidates), which key a
// failure by its masked text.
import type { CallEvent, OutcomeEvent } from "../../models/events.js";

/** A run of six or more hex characters is an id when it holds a digit and a letter (checked on the match: lookaheads at every word boundary cost more than the rest of the masking). */
const hexId = (run: string): string => {
  const body = run.replace(/^0x/i, "");
  return /\d/.test(body) && /[a-f]/i.test(body) ? "<id>" : run;
};

/** What every date holds, -DD-D, led by a character the scan finds fast (the date's own pattern starts with a digit, tried at every one). */
const DATE_MIDDLE = /-\d\d-\d/;
/** What a UUID holds in its middle, led by a character the scan finds fast. */
const UUID_MIDDLE = /-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-/i;
/** DATE_MIDDLE or UUID_MIDDLE, in one scan: most texts hold neither, and are passed over by it. */
const DATE_OR_UUID_MIDDLE = /-(?:\d\d-\d|[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-)/i;
const DATE = /\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?/g;
const CLOCK = /\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b/g;
/** What every clock time holds, D:DD:D: a scan for it is about twice as fast as the replace that finds none. */
const CLOCK_MIDDLE = /\d:\d\d:\d/;
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
const TMP_PATH = /(?:\/tmp|\/var\/folders|\/private\/var\/folders|\/var\/tmp)(?:\/[\w.@+-]+)*/g;
const TMP_NAME = /\btmp[\w-]{4,}\b/g;

/**
 * Placeholders, applied in this order (a timestamp before its digits, a UUID before its hex):
 * - ISO dates and times, with or without a zone: 2026-12-03T10:00:01.123Z, 2026-12-03 10:00:01
 * - clock times on their own: 10:00:01, 10:00:01.5
 * - UUIDs
 * - temporary files and folders: /tmp/..., /var/folders/..., tmpab12_x
 * - hex ids of six or more characters with at least one digit and one letter (commit hashes,
 *   object addresses); hexId leaves every other run as it is, and a run with both has a digit
 *   next to a letter somewhere (applied by hexIdsMasked, which gives what the replace gives and
 *   looks only around such pairs: a text without one is passed over in one scan)
 * - every run of digits.
 * A mask whose text cannot hold a match is skipped, by a cheap necessary test (a date holds
 * -DD-D, a UUID -xxxx-xxxx-xxxx-, both tried in one scan first; a clock time D:DD:D; a temporary path or name holds
 * /var/ or tmp): most texts fail them. The tests are made on the text as given where a mask
 * before cannot make a match appear (its placeholder holds no dash, slash, digit or "tmp", and
 * breaks every run it sits in), so one scan serves two masks (test/loopsFastPaths.test.ts holds
 * maskText to the masks applied one by one).
 */
export function maskText(text: string): string {
  let out = text;
  const dateOrUuid = DATE_OR_UUID_MIDDLE.test(text);
  if (dateOrUuid && DATE_MIDDLE.test(out)) out = out.replace(DATE, "<time>");
  // On the text as given: a date's placeholder holds no digit or colon, so it makes no D:DD:D appear.
  if (CLOCK_MIDDLE.test(text)) out = out.replace(CLOCK, "<time>");
  if (dateOrUuid && UUID_MIDDLE.test(out)) out = out.replace(UUID, "<id>");
  // "tmp" is in /tmp and /var/tmp; /var/folders holds /var/.
  const tmp = text.includes("tmp");
  if ((tmp && out.includes("/tmp")) || out.includes("/var/")) out = out.replace(TMP_PATH, "<tmp>");
  if (tmp && out.includes("tmp")) out = out.replace(TMP_NAME, "<tmp>");
  return idsAndDigitsMasked(out);
}

const isWordCode = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const DIGIT = /\d/g;
const WHOLE_HEX_RUN = /^(?:0x)?[0-9a-f]{6,}$/i;
const DIGIT_RUNS = /\d+/g;

/**
 * The last two masks in one scan: text.replace(/\b(?:0x)?[0-9a-f]{6,}\b/gi, hexId), then every run
 * of digits to "#". Both change only words (runs of [0-9A-Za-z_]) that hold a digit: the hex
 * pattern matches whole words only, and hexId changes a run only when it holds a digit and a
 * letter; "<id>" holds no digit for the second mask to change. So the scan goes from digit to
 * digit, and each word around one is looked at once, whole: an id becomes "<id>", any other word
 * has its digit runs masked (two scans of every text, one for digit-letter pairs and one for
 * digits, cost about 5% of `loops`; test/loopsFastPaths.test.ts holds this to the masks applied
 * one by one).
 */
function idsAndDigitsMasked(text: string): string {
  const digits = DIGIT;
  digits.lastIndex = 0;
  let out = "";
  let copied = 0;
  // test, not exec: the digit's place is lastIndex - 1, and no match array is made for each of them.
  while (digits.test(text)) {
    const at = digits.lastIndex - 1;
    let start = at;
    while (start > 0 && isWordCode(text.charCodeAt(start - 1))) start--;
    // A word of digits alone (a line number, a count: most of them) is "#" whatever its length: a
    // hex run without a letter is no id, and its one run of digits becomes "#". Only the first
    // digit of a word is found here (the scan goes on after the word), so the word is digits
    // alone when it starts at that digit and holds no other word character after it.
    let allDigits = start === at;
    let end = at + 1;
    for (let c = text.charCodeAt(end); end < text.length && isWordCode(c); c = text.charCodeAt(++end)) if (c > 57) allDigits = false;
    let masked: string;
    if (allDigits) masked = "#";
    else {
      const word = text.slice(start, end);
      const id = WHOLE_HEX_RUN.test(word) ? hexId(word) : word;
      masked = id === word ? word.replace(DIGIT_RUNS, "#") : id;
    }
    out += text.slice(copied, start) + masked;
    copied = end;
    digits.lastIndex = end;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** A call's masked shape: its tool and its args as JSON, masked. */
export function maskedCall(call: Pick<CallEvent, "tool" | "params">): string {
  return maskedShape(call.tool, JSON.stringify(call.params ?? null) ?? "null");
}
/** maskedCall from the args' JSON when the caller made it already (the miner's calls keep it as rawArgs): not stringified twice. */
export function maskedShape(tool: string, argsJson: string): string {
  return `${tool} ${maskText(argsJson)}`;
}

/** The text of an outcome: a result's text blocks joined, or its JSON; an error as text. With details (an exit code, a status) unless told otherwise. */
export function outcomeText(outcome: Pick<OutcomeEvent, "result" | "error"> | undefined, withDetails = true): string {
  if (outcome === undefined) return "";
  if (outcome.error !== undefined) return typeof outcome.error === "string" ? outcome.error : (JSON.stringify(outcome.error) ?? "");
  const result = outcome.result;
  if (typeof result === "string") return result;
  if (result === undefined || result === null) return "";
  const content = (result as { content?: unknown }).content;
  const details = (result as { details?: unknown }).details;
  if (Array.isArray(content)) {
    const text = content.map((c) => (typeof (c as { text?: unknown })?.text === "string" ? (c as { text: string }).text : JSON.stringify(c))).join("\n");
    // Details (an exit code, a status) are part of what the agent learns.
    return details === undefined || !withDetails ? text : `${text}\n${JSON.stringify(details)}`;
  }
  return JSON.stringify(result) ?? "";
}

/**
 * What varies in an error without the agent learning anything new, masked beyond maskText: paths
 * (a/b.py, /usr/bin/x, file.py: where a failure happened, not what it is), quoted tokens the call
 * itself holds (`&&' in "syntax error near unexpected token `&&'", a file name the command named),
 * and the first word of each line of the command (`bash: line 3: Let: command not found` for a line
 * of prose sent as a command is the same failure whatever its first word). A quoted token the call
 * did not hold stays: "No module named 'pytz'" after "No module named 'asgiref'" is news.
 */
const QUOTED = /`([^`'\n]{0,200})'|`([^`\n]{0,200})`|'([^'\n]{0,200})'|"([^"\n]{0,200})"/g;
const PATH = /(?:[\w.~-]*\/[\w./~-]+|\b[\w-]+\.(?:py|js|ts|tsx|json|txt|md|c|h|cpp|java|rs|go|rb|sh|cfg|ini|toml|yaml|yml|html|css|rst|pyx|pyi))\b/g;
const WORD = /[A-Za-z_][\w.-]*/g;

/** A file named with its extension, with or without folders (a sed script's s/a/b/ is no file). */
const FILE = /(?:[\w.~-]*\/)*[\w-]+\.(?:py|js|ts|tsx|json|txt|md|c|h|cpp|java|rs|go|rb|sh|cfg|ini|toml|yaml|yml|html|css|rst|pyx|pyi|sty|tex)\b/g;
/** Where a file name can end: a dot and one of FILE's extensions. Every FILE match holds one. */
const EXTENSION = /\.(?:py|js|ts|tsx|json|txt|md|c|h|cpp|java|rs|go|rb|sh|cfg|ini|toml|yaml|yml|html|css|rst|pyx|pyi|sty|tex)\b/g;
/** The characters a FILE match is made of (\w . ~ - /): a match never crosses any other. */
const isPathCode = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 46 || c === 126 || c === 47 || c === 45;

/** The files a call's args name, sorted and once each: what a call acts on or runs. */
export function pathsIn(args: string): string {
  // FILE alone is what this computes, but run over a whole command it backtracks at every
  // character of every word (its folder part may start anywhere), which made it the miner's
  // costliest step once the rules compared files. A match lies inside one maximal run of path
  // characters (the character after a run is no word character, so FILE's closing \b reads the
  // same in the run as in the whole), and only a run holding a dot and an extension can hold one:
  // FILE is run on those runs alone, left to right, which finds the same matches
  // (test/loopsFastPaths.test.ts checks it against FILE over the whole args).
  const found = new Set<string>();
  EXTENSION.lastIndex = 0;
  for (let hit = EXTENSION.exec(args); hit !== null; hit = EXTENSION.exec(args)) {
    let start = hit.index;
    while (start > 0 && isPathCode(args.charCodeAt(start - 1))) start--;
    let end = hit.index + hit[0].length;
    while (end < args.length && isPathCode(args.charCodeAt(end))) end++;
    for (const file of args.slice(start, end).match(FILE) ?? []) found.add(file);
    // The rest of this run is done: look for the next extension after it.
    EXTENSION.lastIndex = end;
  }
  return [...found].sort().join(" ");
}

/** The first word of each line of a call's args: what a shell would have tried to run. */
function leadingWords(args: string): Set<string> {
  const words = new Set<string>();
  for (const line of args.split(/\n|\\n/)) {
    // The args come as JSON: the command's first line follows its key ({"command":"Let me ...).
    const m = /^\s*(?:\{?"[\w-]+"\s*:\s*")?\s*([A-Za-z_][\w.-]*)/.exec(line);
    if (m !== null) words.add(m[1] as string);
  }
  return words;
}

const HARNESS_TAG = /^<\/?(?:output|output_head|output_tail|warning|returncode)>$/;

/** The non-blank lines of a tool's answer, without the tags a harness wraps output in. */
export function answerLines(message: string): string[] {
  return leadingLines(message, Infinity, asGiven);
}
const asGiven = (line: string): string => line;

/**
 * The first `count` lines answerLines gives of the message, each put through `derive`, the ones it
 * makes "" dropped: answerLines(message).map(derive).filter(l => l !== "").slice(0, count), reading
 * only as far as they go. With a derive that masks the line: no mask matches across a newline, puts
 * one in or touches white space at a line's ends, and a line is blank or a harness tag masked
 * exactly when it is as given, so a masked message's lines are its lines masked one by one. The
 * miner asks whether an answer's first line is among an earlier answer's and whether it has three
 * lines before it compares two answers line by line, and most answers compared so are never masked
 * whole (test/loopsFastPaths.test.ts holds these to the lines of the masked answer).
 */
export function leadingLines(message: string, count: number, derive: (line: string) => string): string[] {
  // What split, trim and filter give, in one pass over the answer, read only as far as `count` lines go (outputs run to megabytes).
  const lines: string[] = [];
  for (let start = 0; lines.length < count; ) {
    const end = message.indexOf("\n", start);
    const line = (end === -1 ? message.slice(start) : message.slice(start, end)).trim();
    if (line !== "" && !HARNESS_TAG.test(line)) {
      const derived = derive(line);
      if (derived !== "") lines.push(derived);
    }
    if (end === -1) break;
    start = end + 1;
  }
  return lines;
}

/** What splits a masked line into text the raw answer holds as it is: every placeholder maskText puts in, and (for a fact line, whose white space runs were made one space) white space. */
const PLACEHOLDER = /#|<(?:time|id|tmp)>/;
const PLACEHOLDER_OR_SPACE = /#|<(?:time|id|tmp)>|\s/;

/**
 * Whether a raw answer may hold a line that masks to `line` (a masked line, or a line cut from one
 * at its start or end, its white space made one space when `spaced`): false only when it cannot.
 * maskText puts each placeholder in place of a run of the text and leaves the text between runs as
 * it was, so the longest stretch of `line` between placeholders (and, when spaced, white space) is
 * text the raw line held as it is. One native search of the raw answer tells most answers apart
 * without masking them: views of one file mostly start at different lines (test/loopsFastPaths.test.ts
 * holds it to the lines masked).
 */
export function mayHoldMaskedLine(raw: string, line: string, spaced: boolean): boolean {
  let longest = "";
  for (const piece of line.split(spaced ? PLACEHOLDER_OR_SPACE : PLACEHOLDER)) if (piece.length > longest.length) longest = piece;
  return longest === "" || raw.includes(longest);
}

/** answerLines(message).length > 0, read only as far as the first such line (most answers start with one; outputs run to megabytes). */
export function hasAnswerLine(message: string): boolean {
  return leadingLines(message, 1, asGiven).length > 0;
}

/** answerLines(message).slice(-count), read from the end of the answer (a failed build's output can run to megabytes). */
export function lastAnswerLines(message: string, count: number): string[] {
  const lines: string[] = [];
  for (let end = message.length; lines.length < count; ) {
    const newline = end === 0 ? -1 : message.lastIndexOf("\n", end - 1);
    const line = message.slice(newline + 1, end).trim();
    if (line !== "" && !HARNESS_TAG.test(line)) lines.unshift(line);
    if (newline === -1) break;
    end = newline;
  }
  return lines;
}

/**
 * A line that reports a failure: an error, an exception, something not found, refused, invalid,
 * timed out. A tool's report about its input (a linter's coded findings, a build's "finished with
 * problems, 3 warnings", a score, a test run's tally) is not one, nor is a warning: the tool ran
 * and answered, and running it on other inputs is a way of learning about them.
 */
const FAILURE_WORDS = /error|exception|traceback|not found|no such|cannot|can't|could not|couldn't|unable to|invalid|denied|not allowed|not permitted|fatal|failed|unexpected|unrecognized|unknown|missing|not available|not enough|timed out|refused|abort|not defined|does not exist|doesn't exist|no module|killed|segmentation fault|not a (?:file|directory)|is a directory/i;
const WARNING = /^\W*warn/i;
/** A test run's tally ("3 failed, 12 passed in 0.4s"): the same for any failing test; the failure is the line naming the test. */
const TALLY = /\b\d+ (?:passed|failed|errors?|skipped|xfailed|deselected)\b.*\bin \d+(?:\.\d+)?s\b|^=+ .* =+$/;
/** A linter's coded finding about its input ("a.py:3:0: C0114: Missing module docstring"): a report, not a failure of the call. */
const FINDING = /^\S+:\d+:\d+: [A-Z]+\d+\b/;
/** How far up from the end of an answer its failure line is looked for (a traceback names it last; bash complains last). */
const FAILURE_LINE_DEPTH = 5;

/**
 * The failure an outcome reports, as one masked line, or undefined when the answer names none: the
 * last of its last few non-blank lines that reports a failure (where a traceback names its
 * exception, bash its complaint, a compiler its error; a harness's reminder or a tool's closing
 * "All Finished" after it is passed over), with what the call put into it masked, so that
 * different commands failing for one reason give one signature. The exit code stays (127 not
 * found, 2 usage, 1 anything): it is part of what the agent was told. An empty answer (grep
 * finding nothing) has no signature: greps for different things that find nothing are a search.
 */
export function failureSignature(message: string, args: string, exitCode: number | undefined): string | undefined {
  const line = lastAnswerLines(message, FAILURE_LINE_DEPTH)
    .reverse()
    .find((l) => FAILURE_WORDS.test(l) && !WARNING.test(l) && !TALLY.test(l) && !FINDING.test(l));
  if (line === undefined) return undefined;
  const words = leadingWords(args);
  const quoted = line.replace(QUOTED, (whole, ...groups: unknown[]) => {
    const inner = groups.slice(0, 4).find((g) => typeof g === "string") as string | undefined;
    return inner !== undefined && inner !== "" && args.includes(inner) ? "<q>" : whole;
  });
  const masked = maskText(quoted.replace(PATH, "<path>")).replace(WORD, (w) => (words.has(w) ? "<arg>" : w));
  return `${exitCode === undefined ? "" : `exit ${exitCode}: `}${masked.replace(/\s+/g, " ")}`;
}

/**
 * The environment refused the action without running it: an edit a linter or a syntax check
 * turned back, a patch that did not apply, a tool input the runtime rejected, a command a policy
 * does not allow. Each pattern is the wording of one harness (named beside it); the answer says
 * nothing happened, whatever exit status the format records.
 */
export const REJECTIONS: readonly (readonly [string, RegExp])[] = [
  ["edit rejected by the linter", /Your proposed edit has introduced new syntax error|Your changes have NOT been applied|edit(?:ing)? (?:was|has been) (?:rejected|reverted)|^Error: Syntax error in replaced code/i], // SWE-agent; CaM's code_replace
  ["replacement not performed", /No replacement was performed|did not appear verbatim|String to replace not found|Code to replace not found|old_str .{0,40}(?:not found|is not unique)/i], // OpenHands, Claude Code, str_replace editors
  ["patch did not apply", /apply_patch verification failed|Failed to find expected lines|patch does not apply|Invalid patch|corrupt patch at line/i], // Codex, git
  ["tool input rejected", /<tool_use_error>|InputValidationError|Invalid (?:tool|function) (?:call|arguments)|Unknown tool|Tool .{0,60} (?:does not exist|not found)/i], // Claude Code, chat runtimes
  ["action not allowed", /\b(?:command|action|operation|tool) (?:is )?not (?:allowed|permitted)\b|blocked by (?:policy|the sandbox)|requires approval/i], // sandboxes, policies
];

/**
 * All the refusals as one alternation, tested first: most answers are no refusal, and one scan
 * of the head costs half of five. Built only when the patterns can be joined as they are (the same
 * flags, no back-references or named groups, which joining would renumber).
 */
const ANY_REJECTION = REJECTIONS.every(([, p]) => p.flags === "i" && !/\\[1-9]|\\k<|\(\?<[^=!]/.test(p.source)) ? new RegExp(REJECTIONS.map(([, p]) => `(?:${p.source})`).join("|"), "i") : undefined;

/**
 * For each kind of refusal, words (case aside) one of which every text its pattern matches holds:
 * a head with none of them is no refusal, told by one scan that is about a third cheaper than the
 * alternation of all the patterns (tried at nearly every character of every answer's head). The
 * shortcut is on only while every kind in REJECTIONS has its words here (a kind added without them
 * turns it off); test/loopsFastPaths.test.ts holds it to the patterns, on texts each pattern matches.
 */
const REJECTION_CUES: Readonly<Record<string, string>> = {
  "edit rejected by the linter": "proposed edit|been applied|rejected|reverted|in replaced code",
  "replacement not performed": "replacement was|verbatim|to replace not|old_str",
  "patch did not apply": "apply_patch|expected lines|does not apply|invalid patch|corrupt patch",
  "tool input rejected": "tool_use_error|inputvalidation|invalid tool|invalid function|unknown tool|tool .{0,60} (?:does not exist|not found)",
  "action not allowed": "not allowed|not permitted|blocked by|requires approval",
};
const ANY_REJECTION_CUE = REJECTIONS.every(([kind]) => Object.hasOwn(REJECTION_CUES, kind)) ? new RegExp(REJECTIONS.map(([kind]) => REJECTION_CUES[kind] as string).join("|"), "i") : undefined;

/** The kind of refusal an outcome's text reports, or undefined when the action ran. */
export function rejectionOf(rawResult: string): string | undefined {
  // Only the head of the answer: a refusal says so first, and a long output that quotes such words deep inside ran.
  const head = rawResult.slice(0, 600);
  if (ANY_REJECTION_CUE !== undefined && !ANY_REJECTION_CUE.test(head)) return undefined;
  if (ANY_REJECTION !== undefined && !ANY_REJECTION.test(head)) return undefined;
  for (const [kind, pattern] of REJECTIONS) if (pattern.test(head)) return kind;
  return undefined;
}
