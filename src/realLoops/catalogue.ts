// The catalogue of real stuck stretches: every stretch mined from the sessions under some paths,
// with where it is, its rule and kind, its shape and an excerpt; a summary by rule, kind, dataset,
// format, model and outcome label, with lengths and the share of calls and tokens spent stuck;
// and, when a reading is given, the precision of the definition (stretches judged) and its recall
// (stuck calls of sessions read whole). Built from one row per listed session, in listing order:
// a run and the merge of its shards feed the same rows to the same builder, so the JSON and the
// Markdown are byte for byte the same for the same inputs.
import type { ToolEvent } from "../../models/events.js";
import type { BadFile } from "../import/sessionRefs.js";
import { plural } from "../format/words.js";
import { nearestRank } from "../stats/nearestRank.js";
import { eventTokens, tokensOfJson } from "../sim/tokens.js";
import { percentWithInterval, wilson, type Interval } from "../stats/wilson.js";
import { OUTCOMES, outcomeOf } from "./labels.js";
import { precisionAgreementOf, precisionOf, recallOf, stretchId, type Judgements, type Precision, type PrecisionAgreement, type ReadingAgreement, type Recall, type SessionReading, type Verdict, readingAgreementOf } from "./judgements.js";
import { rejudgedRecallOf, type RejudgedRecall } from "./rangeRejudging.js";
import { halfOfReadings, type SplitScheme } from "./developmentSplit.js";
import { idleRecheckOf, kindOfRule, minedCalls, STRETCH_RULES, stretchesOf, unlandedEditsOf, unmovedBreakOf, type MinedCall, type MineParameters, type Stretch, type StretchKind, type StretchRule } from "./mine.js";

export const CATALOGUE_SCHEMA = "loopsim/real-loops@2";

/** How much of a call's args or result an excerpt shows. */
const EXCERPT_CHARS = 160;
const SHAPE_CHARS = 100;
/** The model column's value for a session whose format records no model name. */
export const NO_MODEL = "(not recorded)";

/** A mined stretch (its shape clipped for reading) with where it is, an excerpt and its verdict. */
export interface CatalogueStretch extends Pick<Stretch, "rule" | "kind" | "firstCall" | "lastCall" | "length" | "shape" | "repeats"> {
  readonly id: string;
  readonly session: string;
  /** The first folder of the session's ref: the dataset or corpus source it belongs to. */
  readonly dataset: string;
  readonly format: string;
  readonly model: string;
  readonly label: string;
  /** Tokens of the stretch's calls and results (src/sim/tokens.ts, about 4 characters a token). */
  readonly tokens: number;
  /** The failure every call met, masked (same-failure and same-rejection stretches). */
  readonly signature?: string;
  readonly excerpt: { readonly tool: string; readonly args: string; readonly first: string; readonly last: string };
  readonly judgement?: { readonly verdict: Verdict; readonly reason: string };
}

/** What one listed session contributes: a row of a run, and of a shard's partial result. */
export interface SessionRow {
  /** Position in the whole listing (what a shard's slice and the merge's order go by). */
  readonly at: number;
  readonly id: string;
  /** Why the file could not be read, when it could not. */
  readonly unreadable?: string;
  readonly format?: string;
  readonly model?: string;
  readonly label?: string;
  readonly calls?: number;
  readonly tokens?: number;
  readonly stretches?: readonly CatalogueStretch[];
}

export interface Tally {
  sessions: number;
  calls: number;
  tokens: number;
  stretches: number;
  stuckCalls: number;
  stuckTokens: number;
  sessionsWithStretches: number;
}

export interface LengthSummary {
  readonly min: number;
  readonly median: number;
  readonly p90: number;
  readonly max: number;
  /** Stretches by length: 3, 4, 5-9, 10-19, 20 or more calls (and 2 when --min 2). */
  readonly histogram: Readonly<Record<string, number>>;
}

export interface LabelShare {
  readonly sessions: number;
  readonly withStretch: number;
  readonly share: number;
  readonly interval: Interval;
}

export interface Catalogue {
  readonly schema: typeof CATALOGUE_SCHEMA;
  /** The command that regenerates this catalogue, every flag that shapes it quoted. */
  readonly command: string;
  readonly paths: readonly string[];
  readonly parameters: MineParameters;
  readonly definition: readonly string[];
  readonly summary: {
    readonly sessions: number;
    readonly calls: number;
    readonly tokens: number;
    readonly stretches: number;
    readonly stuckCalls: number;
    readonly stuckTokens: number;
    readonly stuckCallShare: number;
    readonly stuckTokenShare: number;
    readonly sessionsWithStretches: number;
    readonly byRule: Readonly<Record<string, { readonly kind: StretchKind; readonly stretches: number; readonly calls: number; readonly lengths: LengthSummary }>>;
    readonly byKind: Readonly<Record<string, { readonly stretches: number; readonly calls: number }>>;
    readonly bySource: Readonly<Record<string, Tally>>;
    readonly byFormat: Readonly<Record<string, Tally>>;
    readonly byModel: Readonly<Record<string, Tally>>;
    /** Sessions by outcome label (--labels), and how many of them hold a stretch. */
    readonly byLabel: Readonly<Record<string, LabelShare>>;
    /** The same by outcome: resolved (resolved, success), failed (unresolved*, failure), other (eval_error, no_eval), unlabelled. */
    readonly byOutcome: Readonly<Record<string, LabelShare>>;
    readonly lengths: LengthSummary;
  };
  readonly judged?: {
    readonly file: string;
    readonly criteria: readonly string[];
    readonly byRule: Readonly<Record<string, Precision>>;
    readonly bySource: Readonly<Record<string, Precision>>;
    /** Judged ids this run did not find: stretches of an earlier definition, or of sessions outside the paths. */
    readonly notFound: readonly string[];
  } & Precision;
  readonly recall?: { readonly file: string; readonly protocol: readonly string[]; readonly byRule: Readonly<Record<string, number>>; readonly agreement: readonly string[] } & Recall;
  /** Recall on each half of the development readings, when the reading splits them (developmentSplit.ts). */
  readonly recallBySplit?: { readonly scheme: SplitScheme; readonly protocol: readonly string[]; readonly fit: Recall; readonly test: Recall };
  /** Recall by the second reader's reading of its (smaller) sample. */
  readonly recallBySecondReader?: { readonly protocol: readonly string[] } & Recall;
  /** Recall on sessions held out from the rules: read blind and never used to shape them. */
  readonly recallHeldOut?: {
    readonly protocol: readonly string[];
    readonly byRule: Readonly<Record<string, number>>;
    readonly byDataset: Readonly<Record<string, Recall>>;
    /** How a second, blind reader's reading of some of these sessions agrees with the first. */
    readonly agreement?: ReadingAgreement;
    /** The stuck ranges read again by the precision criteria, and recall against what they confirm. */
    readonly byPrecisionCriteria?: RejudgedRecall;
  } & Recall;
  /** A blind second reading of a sample of the judged stretches against the first reading. */
  readonly precisionAgreement?: PrecisionAgreement;
  readonly stretches: readonly CatalogueStretch[];
  readonly unreadable: readonly BadFile[];
  /** Plain .json files in the folders that hold no session (a labels file): passed over, named. */
  readonly passedOver: readonly string[];
}

export function definitionLines(p: MineParameters): string[] {
  return [
    "A call's shape is its tool and its args as JSON with timestamps, UUIDs and hex ids, temporary paths and every run of digits (line numbers, pids, counters) masked; its result is the outcome's text, masked the same way.",
    "Calls are numbered from 0, in file order: every call the environment ran and answered, and every call the record holds with no answer (a turn cut off before its calls ran, as in pi and Claude Code sessions), which keeps its number but, having said nothing, neither repeats nor fails; a format error the harness ran nothing for is no call.",
    "Identical calls (kind identical):",
    `- repeat: ${p.repeat} or more consecutive calls with the same shape and the same masked result, where no two neighbours differ both in their recorded args and in their recorded result (asking about another thing and hearing about it is not a repeat).`,
    `- failing: ${p.failing} or more consecutive calls with the same shape whose every outcome failed (error, non-zero exit, timeout), whatever the errors say.`,
    `- alternation: ${p.alternation} or more consecutive calls taking turns between two calls, A B A B, each answered as the same call two before.`,
    "Changing args (kind changing-args): the calls may differ (nothing need repeat, though an identical write re-sent counts under no-new-fact); the answers show no call moved the agent on.",
    `- same-failure: ${p.sameFailure} or more failed calls in a row that fail as the chain's first call did; one failed call of another kind may sit between two of the same (A X A; two errors taking turns while the agent fights one problem, A B A B A, count as the A's), inside the stretch but not counted toward the ${p.sameFailure} (counting it was tried and judged a false alarm: a pip install between two runs is a change, and different remedies each failing are work). One call of a named tool that succeeded and wrote nothing (a search, a think; not a shell command, which may be the fix itself) may also sit between the same recorded call failing the same way twice (A r A), inside the stretch but not counted: the same update rejected again after a search is the same lesson, while another payment id answered by the same error text is news about that payment. A sighting of the chain's first failure in the three calls before it counts toward the ${p.sameFailure} (the stretch is the chain alone) when no call between worked (answered something substantial that reports no failure: a script that ran, a fresh view; the round-2 precision reading judged a chain counted across such calls a false alarm). A call that made a change that took effect and then ran tests that failed (a patch script, then pytest; a checkout, then pytest) joins no chain after its first call: a test re-run after a real change is not stuck even when it fails the same way (the first reading judged revert-and-baseline chains false alarms). When bash's syntax error comes after output (a heredoc script ran and printed, then \`PY && sed\` could not be parsed), the whole masked answer is compared, not the syntax error: the script before it ran and said something (the round-2 precision reading judged chains resting on that trailing error false alarms). Round 7, a command line nothing of which said anything is chained like a refusal, whatever its script's body: bash's syntax error is one failure however the line was run (bash -lc, exit 127, or plain, exit 2), and output before it says nothing when it is only bash's own errors for the pieces of the mangled line (one may span lines, when the word it names holds newlines) or, for an edit, its report that it changed nothing ('already patched', 'no changes made'; a report that it found nothing to replace, then the error, is refused like 'Code to replace not found'); a script a here-document never closed swallowed (bash's warning 'here-document ... delimited by end-of-file (wanted \`PY\')', then Python's SyntaxError with no Traceback: the \`PY && sed\` line became part of the script) is one failure whatever Python's message, and none of it ran. A chain may open on a script that ran and printed, then met the syntax error (its output is its own news); a call after it joins when nothing new was said before the same error (nothing, bash's errors, a no-change report, or an earlier call of the chain's answer whole again). Why (round 7, the readers' misses): the agent rewrites the script and keeps the broken wrapper 3 to 27 times, and each answer teaches only the same quoting lesson again ('#9 re-sent the patch (already patched) with the same failing chain, #10 ... failing the same way; the repro build never runs'). Not flagged: scripts that each ran and said something new before the trailing error (a patch that applied, then another: work), a script that ran and said something new between two rejected lines (A X A: not counted). A failure's signature is the last of the answer's last five non-blank lines that reports a failure (an error, an exception, not found, refused, invalid, timed out ...; a warning, a test run's tally and a linter's coded finding are reports about the input, not failures of the call), with its exit code, and with paths, the quoted tokens the call itself holds and the first word of each line of the command masked ('bash: Let: command not found' is one failure whatever the prose). Why in a row: a call that succeeds between two failures may have fixed something (an edit, then the test again is work even when the test fails the same way). An answer with no failure line has no signature: greps for different things that find nothing are a search. A missing module the answer ends on ('No module named X', nothing of the script's own after it) is one failure whatever route reached it and whatever the exit status (pytest, python -m, an import check, a unittest loader, each piped to tail so the pipe exits 0: round 4, the readers marked such runs stuck; a start-up warning followed by the script's output is none).`,
    `- same-rejection: the same, where every failure was a refusal by the environment of an action it did not run (a linter or syntax check turning an edit back, a patch that did not apply, a tool input rejected, a command not allowed), for the same kind of refusal. An edit that writes (a script, a sed) whose whole answer, a few lines at most, says it found nothing to replace ('pattern not found', 'No patch point found in a.py', 'NO_MATCH') was refused like 'Code to replace not found': the edit was not made. Round 7: agents word their own scripts' refusals freely, so the answer is read for its meaning, not for a wording: every line says that what the edit was to replace (a pattern, needle, anchor, marker, block, start or end, insertion point, a few words at most) was not found, could not be found or matched, or that nothing was changed ('needle not found, aborting', 'target location not found, no changes made', 'START_MARKER_NOT_FOUND', 'start/end not found or order wrong', 'Could not find insertion point', 'no changes made', 'context mismatch for block1; aborting'), bash's complaint about the command line after the heredoc aside (the script ran and said its piece; nothing after it ran). An editor that raised in its own code while it looked up its old text (code_replace given the None a viewer returns: 'NoneType' object has no attribute 'splitlines' in its normalize) refused the replacement the same way; one that raised in its own function (args given in the wrong places) rejected its input, another kind; code_replace's 'Error: Syntax error in replaced code' is its syntax check turning the edit back, as a linter does; an editor that reports replacing the old text with the very same text (Old == New) changed nothing, a kind of its own. Why: the readers marked runs of such answers stuck ('same failure five times with differently written patch scripts', 'the same no-op code_replace re-sent'), and the file never moved. Not a refusal: a search (no write) that finds nothing, which is a search; a 'not found' line inside a longer answer ('pattern not found, showing context:' and the context; 'pattern not found, trying alternative approach' and what it then did), which did something; bash not finding a command; an exception raised in the repository's code or in the agent's own function around the editor. Up to 3 calls that wrote nothing (views of the file, a repr dump of the lines) may sit between two refusals of edits of the same file, inside the stretch but not counted toward the ${p.sameFailure}: a refusal changed nothing and neither did the reads, so the next edit meets the file the last one met, and the same refusal again is the same lesson whatever the reads showed (round 4: the readers marked 'Code to replace not found' again and again with only re-views between stuck). Not across a write that took effect, nor for a failure that is no refusal (a run after a read may have been prepared by it). A refused edit whose old code carries a line that the reads between showed for the first time (a comment line a viewer hides, shown by nl at last) was corrected from them: it goes on the chain but does not count toward the ${p.sameFailure}, and no-new-fact does not take it for a refusal heard again (the round-4 precision reading judged chains where every attempt was so corrected false alarms, and long chains with one such correction among the same refusals stuck).`,
    `- unchanged-recheck: ${p.recheck} or more consecutive calls that each re-check one of the 8 calls before it with no write between, plus the re-checked call when it comes just before the run; at least 2 of them must hear an answer of the run itself whole again (a repeat of something from before the run is a check after work, a narrower view is a new question: the precision reading judged stretches resting on those false alarms). A call re-checks an earlier one when it is the same command (a leading cd and 2>&1 aside) with the same masked answer or the same last 5 lines (a long output is elided where a clock moves it); or the same tool on the same files with the same substantial answer; or the same tool, files and quoted search terms with the same answer, empty included (grep "def __ne__" a.py, then cat a.py | grep "def __ne__": nothing, twice); or, as a narrower view, the same tool and files with every line of a 3-line-or-longer answer among the earlier answer's lines (line numbers aside). A write is an editing tool, a state-changing tool (update_*, book_*, cancel_*), or a shell command that writes (sed -i, perl -i, the -i flag given after the expression too, a redirection into a file made by the shell itself, not a '>' inside a quoted string or a heredoc script, tee, mv, cp, rm, patch, git apply/checkout/stash/reset, an install, a script body that writes a file), or a command the record names only by a variable; creating a file no earlier call named (cat > new_test.py <<EOF) is none, and neither is running a script (its effect shows in the answers after it). Why: with nothing changed, nothing new can be heard, and the same answer came back (the same region re-read, the same test re-run, a fix script that changed nothing re-run). Not flagged: an identical re-run AFTER an edit (the reproduce script run after each change is work), reads of different regions or zooming into what was just read (a run of narrower views alone), different searches that find nothing, A/B checks with a revert between, searches for different legs or fares (different args, different answers), a new file written (its empty answer is no answer heard again).`,
    `- no-effect: ${p.noEffect} or more consecutive calls from one tool naming the same files (paths in their args), with at least two different shapes, none failed or refused, each answered with the same masked text of 40 characters or more (20 of them letters): the same file content after each edit, the same listing. Short answers ('OK', '171.0') and empty ones (an edit that succeeded says nothing) never count: the same short answer to different questions is news each time. Nor does an answer the session gives to more than 2 calls outside the run (a harness's 'Process running with session ID ...', the same passing test run): it is an acknowledgement, not a sign that the run's calls had no effect. Why the same files: an edit of one file tried three ways that shows the same lines each time had no effect, while three new test scripts or three different tests printing the same verdict are three experiments (the first reading judged 4 of the 6 no-effect runs without this condition false alarms, all of that kind).`,
    `- no-new-fact: a first call and ${p.noNewFact - 1} or more calls after it that each add no new fact to what the calls since the last write that took effect (at most 10 back) heard, where ONE fact is heard ${p.noNewFact} times or more (its first hearing, inside the run or in the 10 calls before it, and the calls that hear it again) and the run is ${p.noNewFact} calls or more: different facts heard twice each (a view re-read once, then a test re-run once) are not added up (round 3: the round-2 precision reading judged such runs false alarms, and the readers' protocol asks for the same failure or non-result three times). Facts: the same failure family again (a refusal of the same kind: a patch that does not apply, then a corrupt patch; actions the harness could not parse, File "<string>" ... SyntaxError whatever the message, only back to back; a failure line that differs only in its exit status, a 'Sorry: ' before it or the place after it; a failed install of the same packages or some of them, through pip, conda or apt (python3-numpy is numpy; an apt-get update before it aside); bash's syntax error after output is the whole answer, not a family), the same masked answer to the same command, search or viewer, a re-read of the same region (3 or more lines as printed, line numbers included, all shown by one earlier answer, at least two thirds of whose lines come back: a view with line numbers after one without tells where to edit), the same empty answer to the same command or search, or a write re-sent exactly as recorded and answered as before with no other write between (the same patch file written again byte for byte, the same \`git checkout f && sed -i ...\` again: the state it makes is the state already made; not an append, not a command known only by a variable). A write that took effect ends what was heard; a refused patch, an action never parsed, a command line bash could not parse that printed nothing else, a script whose own text Python, sed, perl or awk could not parse (File \"<stdin>\" ... SyntaxError with no Traceback before it: none of it ran, whatever the exit status), a failed install, a re-sent write and a named tool's call that answered with a failure (book_reservation refused: the runtime checks its input before it changes anything; a shell command may fail half done) take no effect; a lone backup copy (cp a.py a.py.bak) writes only its destination, and a find that deletes (find -name '*.pyc' -delete) is a write. Zooming (a narrower view of what an earlier answer showed) counts neither way. Up to 2 calls may sit between two calls of the same failure, 1 between other calls, inside the stretch but not counted, and at most one of them may have read something new: the rest failed, said nothing or zoomed. The first call joins when it comes just before (or, for a failure, with such calls between). Not a wait that paid off (the very next call is the last one again, as recorded, with a new answer). A same-failure or same-rejection stretch goes on, under its own rule, through such calls right after it (the same refusal after a re-view of the unchanged lines). Why: the readers' protocol marks a stretch where no call after the first taught anything, whatever the arguments. Not flagged: different commands on one file that print the same (flag sweeps, new scripts with the same verdict), reads of new content between refusals (work toward the next attempt), deps installed or tried one by one (erfa, then pyerfa), diagnostic re-runs after a cache was cleared.`,
    `- unlanded-edits: ${unlandedEditsOf(p)} or more attempts to write one file (a shell command that writes, an editor tool, a command known only by a variable), none of which took effect, with at most 3 calls between two of them that write nothing and view that file (cat, nl, sed -n, grep, a code viewer) or name no file and taught nothing (failed, said nothing), among which ONE lesson comes back ${unlandedEditsOf(p)} times or more: the same masked failure (the same quoting error, the same refusal, the same 'markers not found') or the same silent no-op re-shown unchanged; other unlanded attempts and views between stay inside but do not count; from the first of the repeated lessons to the last, on the calls the rules above left. Did not take effect: refused or never parsed (a patch that did not apply, 'Code to replace not found', an edit script that says it found nothing to replace, the harness's File "<string>" ... SyntaxError, a command line bash could not parse), a script whose own text Python, sed, perl or awk could not parse (none of it ran), or an attempt that ran after which the next view of the file (or a view chained after the attempt in its own command: && nl -ba f.py | sed -n ..., every numbered line as an earlier view printed it, number and text), before any write, shows the region a view before it showed, line for line. An attempt whose effect is unknown (it printed nothing or 'patched' and the file was not re-shown) is taken to have landed and ends the run, and so does a new file created, a view of another file, or a run of a script (a re-run after a real change is work). A refused edit corrected from lines the views between showed first stays in the run but does not count. Why (round 5, the readers' biggest miss): the agent tries one edit again and again, each attempt failing with a different message (does not apply, then corrupt patch, then a harness SyntaxError), so the rules that need one signature break, yet the file never moved and no attempt after the first taught anything (readers: "patch never lands", "attempts to repair visit_Constant all fail to apply", "file unchanged until the agent switched to sed"). Narrowed after the round-5 precision reading (9 of its 17 new stretches stuck): unlanded attempts that each fail differently are not flagged, as each got past the last one's mistake ("#8 gets past it and hits a different error, which #9 fixes"), and an answer that is news ('marker_not_found': the earlier patch never applied) is a new lesson; the readers' stuck ones kept hitting one quoting or escaping error 3 times or more. Not flagged: edits that landed and broke the file differently (the file changed), installs, a chat runtime's refused booking (news about that booking: the other rules judge it).`,
    `- unmoved-break: ${unmovedBreakOf(p)} or more checks (a py_compile, an import, a test run's collection) whose answers report the same Python parse error (SyntaxError, IndentationError, TabError) in the same file at the same line, as printed, with attempts to write between them (a script that says 'patched' or nothing, a sed, an editor tool, a command known only by a variable; or the check itself, chained after a write): at most 6 calls between two checks, each an attempt or a call that wrote nothing and viewed a file, failed or said nothing, none reporting another parse error and none a restore (git checkout f, git reset --hard, cp f.bak f: the check after it is a baseline, which the precision readers judged work); the same check again with no attempt between stays inside but does not count; from the first attempt after the first check (that check was news) to the last check, on the calls the rules above left. Why (round 7, the readers' misses: "py_compile keeps failing with 'IndentationError: expected an indented block (widgets.py, line 228)' while the agent re-applies the same replacement, each 'patched'"; "the identical IndentationError at line 1096 around edits that did not apply"): unlanded-edits takes an attempt whose effect is unknown to have landed, and same-failure breaks at every write, yet Python reports the first place it cannot parse, so a repair of that place moves the error on or ends it, and a write that adds or removes lines above it moves it too: the same error at the same line (with the same text on it, where the report prints it) after a write is evidence that the broken lines were not touched, and the check taught nothing the check before the write had not. Not flagged: an error that moved (another line, another message: the write landed and broke the file differently, which is work), a test failing the same way after a repair (an assertion is no evidence the write changed nothing: the precision readers judged such re-runs work), the agent's own script that Python could not parse (File "<string>", "<stdin>": unlanded-edits reads those), a run between that said something else, two sightings only, re-checks with no attempt between.`,
    `- idle-recheck: one answer to a look (a view of a region, a grep, a git diff, a check that did not fail) heard ${idleRecheckOf(p)} times or more with no write that took effect since its first hearing (the same answer again, as no-new-fact hears it: the same command or search answered the same, the same region re-read; or a zoom into a view whose line numbers skip, as a code viewer that elides lines prints it, that still skips: the lines asked for hidden again), at least one hearing after the first a whole one (zooms alone are a closer look), with at most 4 calls between two hearings, each of which did nothing: an attempt that never took effect (an awk, perl or sed whose own program could not be parsed, an action the harness could not parse, a refused edit), a call that heard something again or zoomed, an empty answer, a short 'not found'; from the first hearing to the last, overlapping runs of different answers made one, on the calls the rules above left, save that a run may take the place of a shorter no-new-fact stretch it holds whole (no-new-fact lets no call sit between a look and its first re-hearing, and finds only the tail of such a run). Why (round 8, the readers' misses: "the same view shown 3 times; the only fix that ran between failed 'runaway string constant' and the others were format-rejected, so the re-views could not show anything new"; "git diff empty, grep non_data empty, view unchanged, again and again" around edits that failed on quoting; "print_code_context (1,120) and (60,90) return the same elided view"): the agent's turns between were mostly never run (format errors leave no call), so the looks come nearly back to back, yet a failed attempt between a look and its first re-hearing breaks unchanged-recheck and no-new-fact; nothing between took effect, so the file the third look read is the file the first read. Not flagged: a failure heard again (the failure rules read those), anything across a write that may have landed (a check after it is work), a call between that read something new or found something, zooms alone, two hearings only, a wait that paid off.`,
    "Not stuck: a repeat whose very next call is the same recorded call with a new result (a wait that paid off: a build finished, a page loaded); calls never answered; stretches inside another (stretches never overlap; the identical rules are applied first, the changing-args rules to the calls left).",
    "Outcome labels (resolved, unresolved) are never read by the miner: they only split the report.",
  ];
}

/** The first folder of a session's id (its dataset or corpus source), or the file for a file given alone. */
export function sourceOf(session: string): string {
  const slash = session.indexOf("/");
  return slash < 0 ? session.replace(/#.*$/, "") : session.slice(0, slash);
}

/** A short excerpt of its own (a slice would keep the whole text of a long result alive with the catalogue). */
const clip = (text: string, n: number) => {
  const flat = text.replace(/\s+/g, " ").trim();
  return Buffer.from(flat.length <= n ? flat : `${flat.slice(0, n - 1)}…`, "utf8").toString("utf8");
};

/**
 * The tokens of a call's events (eventTokens, summed). The call event's come from the args' JSON
 * factCallOf made (rawArgs): unless it is "null" (args absent, or JSON of nothing), it is
 * JSON.stringify(params), the length tokensOf counts; held to the plain sum in
 * test/loopsFastPaths.test.ts.
 */
export function callTokens(events: readonly ToolEvent[], call: MinedCall): number {
  let sum = 0;
  for (const at of call.events) {
    const event = events[at] as ToolEvent;
    sum += event === call.call && call.rawArgs !== "null" ? tokensOfJson(call.rawArgs) : eventTokens(event);
  }
  return sum;
}

/** Everything a session contributes to the catalogue, computed once (in a run or in a shard). */
export function sessionRow(at: number, session: string, format: string, events: readonly ToolEvent[], parameters: MineParameters, about: { readonly model?: string; readonly label?: string } = {}): SessionRow {
  const calls = minedCalls(events);
  const found = stretchesOf(calls, parameters);
  const model = about.model ?? NO_MODEL;
  const label = about.label ?? "unlabelled";
  const tokens = calls.reduce((sum, c) => sum + callTokens(events, c), 0);
  const stretches = found.map((s): CatalogueStretch => {
    const first = calls[s.firstCall] as MinedCall;
    const last = calls[s.lastCall] as MinedCall;
    let stuckTokens = 0;
    for (let c = s.firstCall; c <= s.lastCall; c++) stuckTokens += callTokens(events, calls[c] as MinedCall);
    const signature = s.rule === "same-failure" || s.rule === "same-rejection" ? first.signature : undefined;
    return {
      id: stretchId(session, s.firstCall),
      session,
      dataset: sourceOf(session),
      format,
      model,
      label,
      rule: s.rule,
      kind: s.kind,
      firstCall: s.firstCall,
      lastCall: s.lastCall,
      length: s.length,
      tokens: stuckTokens,
      shape: s.shape.map((x) => clip(x, SHAPE_CHARS)),
      repeats: s.repeats,
      ...(signature === undefined ? {} : { signature: clip(signature, SHAPE_CHARS) }),
      excerpt: { tool: first.call.tool, args: clip(first.rawArgs, EXCERPT_CHARS), first: clip(first.rawResult, EXCERPT_CHARS), last: clip(last.rawResult, EXCERPT_CHARS) },
    };
  });
  return { at, id: session, format, model, label, calls: calls.length, tokens, stretches };
}

const emptyTally = (): Tally => ({ sessions: 0, calls: 0, tokens: 0, stretches: 0, stuckCalls: 0, stuckTokens: 0, sessionsWithStretches: 0 });
const byName = <T>(m: Map<string, T>): Record<string, T> => Object.fromEntries([...m.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)));
const ratio = (n: number, d: number) => (d === 0 ? 0 : Math.round((n / d) * 10_000) / 10_000);

function lengthSummary(lengths: readonly number[]): LengthSummary {
  const buckets: [string, (n: number) => boolean][] = [
    ["2", (n) => n === 2],
    ["3", (n) => n === 3],
    ["4", (n) => n === 4],
    ["5-9", (n) => n >= 5 && n <= 9],
    ["10-19", (n) => n >= 10 && n <= 19],
    ["20+", (n) => n >= 20],
  ];
  const histogram: Record<string, number> = {};
  for (const [name, holds] of buckets) {
    const n = lengths.filter(holds).length;
    if (n > 0 || name !== "2") histogram[name] = n;
  }
  return { min: lengths.length === 0 ? 0 : Math.min(...lengths), median: nearestRank(lengths, 0.5), p90: nearestRank(lengths, 0.9), max: lengths.length === 0 ? 0 : Math.max(...lengths), histogram };
}

export interface CatalogueInputs {
  readonly command: string;
  readonly paths: readonly string[];
  readonly parameters: MineParameters;
}

export class CatalogueBuilder {
  private readonly stretches: CatalogueStretch[] = [];
  private readonly tallies = { source: new Map<string, Tally>(), format: new Map<string, Tally>(), model: new Map<string, Tally>() };
  private readonly labels = new Map<string, { sessions: number; withStretch: number }>();
  private readonly mined = new Map<string, { calls: number; flagged: Set<number> }>();
  private readonly unreadable: BadFile[] = [];
  private sessions = 0;
  private calls = 0;
  private tokens = 0;

  constructor(
    private readonly inputs: CatalogueInputs,
    private readonly judgements?: Judgements,
  ) {}

  /** A listed session's row, in listing order. Sessions without calls are passed over (nothing to mine). */
  addRow(row: SessionRow): void {
    if (row.unreadable !== undefined) {
      this.unreadable.push({ file: row.id, reason: row.unreadable });
      return;
    }
    const calls = row.calls ?? 0;
    if (calls === 0) return;
    const found = row.stretches ?? [];
    const stuckCalls = found.reduce((sum, s) => sum + s.length, 0);
    const stuckTokens = found.reduce((sum, s) => sum + s.tokens, 0);
    this.sessions++;
    this.calls += calls;
    this.tokens += row.tokens ?? 0;
    for (const [map, key] of [
      [this.tallies.source, sourceOf(row.id)],
      [this.tallies.format, row.format ?? "unknown"],
      [this.tallies.model, row.model ?? NO_MODEL],
    ] as const) {
      const t = map.get(key) ?? emptyTally();
      t.sessions++;
      t.calls += calls;
      t.tokens += row.tokens ?? 0;
      t.stretches += found.length;
      t.stuckCalls += stuckCalls;
      t.stuckTokens += stuckTokens;
      if (found.length > 0) t.sessionsWithStretches++;
      map.set(key, t);
    }
    const label = this.labels.get(row.label ?? "unlabelled") ?? { sessions: 0, withStretch: 0 };
    label.sessions++;
    if (found.length > 0) label.withStretch++;
    this.labels.set(row.label ?? "unlabelled", label);
    const flagged = new Set<number>();
    for (const s of found) {
      for (let c = s.firstCall; c <= s.lastCall; c++) flagged.add(c);
      const judgement = this.judgements?.byId.get(s.id);
      this.stretches.push(judgement === undefined ? s : { ...s, judgement });
    }
    this.mined.set(row.id, { calls, flagged });
  }

  finish(listingBad: readonly BadFile[], passedOver: readonly string[]): Catalogue {
    const byRule: Record<string, { kind: StretchKind; stretches: number; calls: number; lengths: LengthSummary }> = {};
    for (const rule of STRETCH_RULES) {
      const of = this.stretches.filter((s) => s.rule === rule);
      if (of.length > 0) byRule[rule] = { kind: kindOfRule(rule), stretches: of.length, calls: of.reduce((n, s) => n + s.length, 0), lengths: lengthSummary(of.map((s) => s.length)) };
    }
    const byKind: Record<string, { stretches: number; calls: number }> = {};
    for (const kind of ["identical", "changing-args"] as const) {
      const of = this.stretches.filter((s) => s.kind === kind);
      byKind[kind] = { stretches: of.length, calls: of.reduce((n, s) => n + s.length, 0) };
    }
    const stuckCalls = this.stretches.reduce((n, s) => n + s.length, 0);
    const stuckTokens = this.stretches.reduce((n, s) => n + s.tokens, 0);
    const shareOf = (v: { sessions: number; withStretch: number }): LabelShare => ({ ...v, share: ratio(v.withStretch, v.sessions), interval: wilson(v.withStretch, v.sessions) });
    const byLabel = new Map([...this.labels.entries()].map(([k, v]) => [k, shareOf(v)]));
    const outcomes = new Map<string, { sessions: number; withStretch: number }>();
    for (const [label, v] of this.labels) {
      const o = label === "unlabelled" ? "unlabelled" : outcomeOf(label);
      const t = outcomes.get(o) ?? { sessions: 0, withStretch: 0 };
      t.sessions += v.sessions;
      t.withStretch += v.withStretch;
      outcomes.set(o, t);
    }
    const byOutcome = Object.fromEntries([...OUTCOMES, "unlabelled"].filter((o) => outcomes.has(o)).map((o) => [o, shareOf(outcomes.get(o) as { sessions: number; withStretch: number })]));
    const j = this.judgements;
    const ids = this.stretches.map((s) => s.id);
    const found = new Set(ids);
    const precisionWhere = (keep: (s: CatalogueStretch) => boolean) => (j === undefined ? undefined : precisionOf(this.stretches.filter(keep).map((s) => s.id), j));
    const groups = (key: (s: CatalogueStretch) => string) => byName(new Map([...new Set(this.stretches.map(key))].map((k) => [k, precisionWhere((s) => key(s) === k) as Precision])));
    const recall = j === undefined || j.sessions.size === 0 ? undefined : recallOf(j.sessions, this.mined);
    return {
      schema: CATALOGUE_SCHEMA,
      command: this.inputs.command,
      paths: this.inputs.paths,
      parameters: this.inputs.parameters,
      definition: definitionLines(this.inputs.parameters),
      summary: {
        sessions: this.sessions,
        calls: this.calls,
        tokens: this.tokens,
        stretches: this.stretches.length,
        stuckCalls,
        stuckTokens,
        stuckCallShare: ratio(stuckCalls, this.calls),
        stuckTokenShare: ratio(stuckTokens, this.tokens),
        sessionsWithStretches: new Set(this.stretches.map((s) => s.session)).size,
        byRule,
        byKind,
        bySource: byName(this.tallies.source),
        byFormat: byName(this.tallies.format),
        byModel: byName(this.tallies.model),
        byLabel: byName(byLabel),
        byOutcome,
        lengths: lengthSummary(this.stretches.map((s) => s.length)),
      },
      ...(j === undefined
        ? {}
        : {
            judged: {
              file: j.file,
              criteria: j.criteria,
              ...precisionOf(ids, j),
              byRule: groups((s) => s.rule),
              bySource: groups((s) => s.dataset),
              notFound: [...j.byId.keys()].filter((id) => !found.has(id)).sort(),
            },
          }),
      ...(recall === undefined || j === undefined ? {} : { recall: { file: j.file, protocol: j.protocol, ...recall, byRule: this.recallByRule(j.sessions), agreement: j.agreement } }),
      ...(recall === undefined || j?.developmentSplit === undefined
        ? {}
        : { recallBySplit: { scheme: j.developmentSplit.scheme, protocol: j.developmentSplit.protocol, fit: recallOf(halfOfReadings(j.sessions, "fit"), this.mined), test: recallOf(halfOfReadings(j.sessions, "test"), this.mined) } }),
      ...(j?.secondReader === undefined || j.secondReader.sessions.size === 0 ? {} : { recallBySecondReader: { protocol: j.secondReader.protocol, ...recallOf(j.secondReader.sessions, this.mined) } }),
      ...(j?.heldOut === undefined || j.heldOut.sessions.size === 0
        ? {}
        : {
            recallHeldOut: {
              protocol: j.heldOut.protocol,
              ...recallOf(j.heldOut.sessions, this.mined),
              byRule: this.recallByRule(j.heldOut.sessions),
              byDataset: this.recallByDataset(j.heldOut.sessions),
              ...(j.heldOut.secondReader === undefined ? {} : { agreement: readingAgreementOf(j.heldOut.sessions, j.heldOut.secondReader) }),
              ...(j.heldOut.rangesByPrecisionCriteria === undefined ? {} : { byPrecisionCriteria: rejudgedRecallOf(j.heldOut.rangesByPrecisionCriteria, j.heldOut.sessions, this.mined) }),
            },
          }),
      ...(j === undefined || precisionAgreementOf(j, found) === undefined ? {} : { precisionAgreement: precisionAgreementOf(j, found) as PrecisionAgreement }),
      stretches: this.stretches,
      unreadable: [...listingBad, ...this.unreadable],
      passedOver,
    };
  }

  /** Stuck calls read that each rule's stretches cover (a call is covered by at most one stretch). */
  private recallByRule(sessions: ReadonlyMap<string, SessionReading>): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [session, reading] of sessions) {
      const m = this.mined.get(session);
      if (m === undefined || m.calls !== reading.calls) continue;
      for (const s of this.stretches) {
        if (s.session !== session) continue;
        for (const r of reading.stuck) {
          const overlap = Math.max(0, Math.min(r.to, s.lastCall) - Math.max(r.from, s.firstCall) + 1);
          if (overlap > 0) out[s.rule] = (out[s.rule] ?? 0) + overlap;
        }
      }
    }
    return Object.fromEntries(STRETCH_RULES.filter((r) => out[r] !== undefined).map((r) => [r, out[r] as number]));
  }

  /** Recall per dataset (the reading's own `dataset`, else the session ref's first folder), in name order. */
  private recallByDataset(sessions: ReadonlyMap<string, SessionReading>): Record<string, Recall> {
    const groups = new Map<string, Map<string, SessionReading>>();
    for (const [session, reading] of sessions) {
      const dataset = reading.dataset ?? session.split("/")[0] ?? session;
      const group = groups.get(dataset) ?? new Map<string, SessionReading>();
      group.set(session, reading);
      groups.set(dataset, group);
    }
    return Object.fromEntries([...groups.keys()].sort().map((d) => [d, recallOf(groups.get(d) as Map<string, SessionReading>, this.mined)]));
  }
}

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/`/g, "'");
const pct = (x: number) => `${(Math.round(x * 1000) / 10).toFixed(1)}%`;

function tallyTable(title: string, rows: Readonly<Record<string, Tally>>): string[] {
  return [
    `| ${title} | sessions | with a stretch | calls | stretches | stuck calls | stuck calls % | stuck tokens % |`,
    "|---|---|---|---|---|---|---|---|",
    ...Object.entries(rows).map(([k, t]) => `| ${cell(k)} | ${t.sessions} | ${t.sessionsWithStretches} | ${t.calls} | ${t.stretches} | ${t.stuckCalls} | ${pct(ratio(t.stuckCalls, t.calls))} | ${pct(ratio(t.stuckTokens, t.tokens))} |`),
    "",
  ];
}

const histogramText = (l: LengthSummary) => Object.entries(l.histogram).map(([k, n]) => `${k}: ${n}`).join(", ");

export function catalogueMarkdown(c: Catalogue): string {
  const s = c.summary;
  const lines: string[] = [
    "# Real stuck stretches",
    "",
    `Regenerate with \`${c.command}\` (add --force to overwrite). Mined from ${plural(s.sessions, "session")} with calls (${plural(s.calls, "call")}; sessions without any are passed over): ${plural(s.stretches, "stretch", "stretches")} in ${plural(s.sessionsWithStretches, "session")}, covering ${s.stuckCalls} calls (${pct(s.stuckCallShare)} of all calls) and ${pct(s.stuckTokenShare)} of the calls' tokens (src/sim/tokens.ts: about 4 characters a token). The definition belongs to no guard:`,
    "",
    ...c.definition.map((d) => (d.startsWith("- ") ? `  ${d}` : `- ${d}`)),
    "",
    "## Summary",
    "",
    "| rule | kind | stretches | calls | length min / median / p90 / max | lengths |",
    "|---|---|---|---|---|---|",
    ...Object.entries(s.byRule).map(([rule, r]) => `| ${rule} | ${r.kind} | ${r.stretches} | ${r.calls} | ${r.lengths.min} / ${r.lengths.median} / ${r.lengths.p90} / ${r.lengths.max} | ${histogramText(r.lengths)} |`),
    "",
    `By kind: ${Object.entries(s.byKind).map(([k, v]) => `${k} ${plural(v.stretches, "stretch", "stretches")} (${v.calls} calls)`).join("; ")}. All lengths in calls: min ${s.lengths.min}, median ${s.lengths.median}, p90 ${s.lengths.p90}, max ${s.lengths.max} (${histogramText(s.lengths)}).`,
    "",
    ...tallyTable("dataset", s.bySource),
    ...tallyTable("format", s.byFormat),
    ...tallyTable("model", s.byModel),
  ];
  if (Object.keys(s.byLabel).length > 0) {
    lines.push("Sessions holding a stretch, by outcome label (--labels; the miner never reads labels):", "", "| label | sessions | with a stretch | share (95% Wilson) |", "|---|---|---|---|");
    for (const [label, l] of Object.entries(s.byLabel)) lines.push(`| ${cell(label)} | ${l.sessions} | ${l.withStretch} | ${percentWithInterval(l.share, l.interval)} |`);
    lines.push("", "| outcome | sessions | with a stretch | share (95% Wilson) |", "|---|---|---|---|");
    for (const [outcome, l] of Object.entries(s.byOutcome)) lines.push(`| ${outcome} | ${l.sessions} | ${l.withStretch} | ${percentWithInterval(l.share, l.interval)} |`);
    lines.push("");
  }
  if (c.judged !== undefined) {
    const j = c.judged;
    lines.push(
      "## Precision by reading",
      "",
      `Judged in \`${j.file}\`: ${j.stuck} stuck, ${plural(j.falseAlarms, "false alarm")} of the ${plural(s.stretches, "stretch", "stretches")} found. Precision: ${j.judged === 0 ? "no stretch judged" : percentWithInterval(j.precision, j.interval)} (95% Wilson interval).`,
      "",
      `Not judged: ${j.unjudged.length === 0 ? "none" : `${plural(j.unjudged.length, "stretch", "stretches")} found that no reading judges (new since the reading, or outside its sample; a stretch whose first call moved after a change of the rules has a new id and is among them): ${j.unjudged.slice(0, 30).map((id) => `\`${cell(id)}\``).join(", ")}${j.unjudged.length > 30 ? ", ..." : ""}`}.`,
      "",
      `Judged but not found by this run: ${j.notFound.length === 0 ? "none" : `${plural(j.notFound.length, "id")}: stretches an earlier definition found (kept on record), or in sessions outside the paths: ${j.notFound.slice(0, 30).map((id) => `\`${cell(id)}\``).join(", ")}${j.notFound.length > 30 ? ", ..." : ""}`}.`,
      "",
      "| rule | judged | stuck | false alarms | not judged | precision (95% Wilson) |",
      "|---|---|---|---|---|---|",
      ...Object.entries(j.byRule).map(([k, p]) => `| ${k} | ${p.judged} | ${p.stuck} | ${p.falseAlarms} | ${p.unjudged.length} | ${percentWithInterval(p.precision, p.interval)} |`),
      "",
      "| dataset | judged | stuck | false alarms | not judged | precision (95% Wilson) |",
      "|---|---|---|---|---|---|",
      ...Object.entries(j.bySource).map(([k, p]) => `| ${cell(k)} | ${p.judged} | ${p.stuck} | ${p.falseAlarms} | ${p.unjudged.length} | ${percentWithInterval(p.precision, p.interval)} |`),
      "",
      "How each stretch was judged:",
      "",
      ...j.criteria.map((x) => `- ${x}`),
      "",
    );
  }
  if (c.precisionAgreement !== undefined) {
    const a = c.precisionAgreement;
    lines.push(
      "### A blind second reading",
      "",
      `A second reader, who saw neither the first reader's verdicts nor their reasons, judged ${plural(a.n, "stretch", "stretches")} of a seeded sample: the two agree on ${a.agree} of ${a.n} (${pct(a.observed)}; Cohen's kappa ${a.kappa === null ? "undefined: every answer was the same" : a.kappa.toFixed(2)}). The first reader found ${a.firstYes} of the ${a.n} stuck, the second ${a.secondYes}. ${a.found === 0 ? "None of the sample is found by this run." : `On the ${plural(a.found, "stretch", "stretches")} of the sample this run finds, precision by the second reader alone is ${percentWithInterval(a.secondPrecision, a.secondInterval)}.`}`,
      "",
    );
    if (a.disagreements.length > 0) {
      lines.push("| stretch | first reader | second reader |", "|---|---|---|");
      for (const d of a.disagreements) lines.push(`| \`${cell(d.id)}\` | ${d.first.verdict}: ${cell(d.first.reason)} | ${d.second.verdict}: ${cell(d.second.reason)} |`);
      lines.push("");
    }
    if (a.protocol.length > 0) lines.push("How the second reading was made:", "", ...a.protocol.map((x) => `- ${x}`), "");
  }
  if (c.recall !== undefined) {
    const r = c.recall;
    lines.push(
      "## Recall by reading",
      "",
      `Sessions read whole, call by call, in \`${r.file}\`: ${r.sessions} of them mined by this run (${r.callsRead} calls, ${r.stuckRead} read stuck). Recall of stuck calls (stuck calls inside a mined stretch / stuck calls read): ${r.stuckRead === 0 ? "no stuck call read" : percentWithInterval(r.recall, r.interval)} (95% Wilson interval; calls of one session are not independent, so the interval is optimistic). Calls the miner flagged that the reader did not find stuck: ${r.flaggedNotRead}.`,
      "",
      `Covered by rule: ${Object.keys(r.byRule).length === 0 ? "none" : Object.entries(r.byRule).map(([k, n]) => `${k} ${n}`).join(", ")}.`,
      "",
    );
    if (r.notMined.length > 0) lines.push(`Read but not mined by this run (outside the paths, unreadable, or without calls), left out: ${r.notMined.map((x) => `\`${cell(x)}\``).join(", ")}.`, "");
    if (r.miscounted.length > 0) lines.push(`Read with another call count than the miner's (numbered otherwise, so left out): ${r.miscounted.map((m) => `\`${cell(m.session)}\` (read ${m.read}, mined ${m.mined})`).join(", ")}.`, "");
    const second = c.recallBySecondReader;
    if (second !== undefined) lines.push(`By the second reader's reading of ${second.sessions} of the sessions (${second.stuckRead} calls read stuck): recall ${second.stuckRead === 0 ? "n/a" : percentWithInterval(second.recall, second.interval)}; calls flagged that it did not find stuck: ${second.flaggedNotRead}.`, "");
    if (r.protocol.length > 0) lines.push("How the sessions were chosen and read:", "", ...r.protocol.map((x) => `- ${x}`), "");
    if (r.agreement.length > 0) lines.push("How two readers agree:", "", ...r.agreement.map((x) => `- ${x}`), "");
  }
  if (c.recallBySplit !== undefined) lines.push(...splitLines(c.recallBySplit));
  if (c.recallHeldOut !== undefined) {
    const h = c.recallHeldOut;
    lines.push(
      "## Recall on held-out sessions",
      "",
      `Sessions read whole, blind, held out from the rules (the judgements file's \`heldOut\`; its protocol lines below say which batch, when it was read, and what the rules' author saw), by readers who saw no miner output: ${h.sessions} mined by this run (${h.callsRead} calls, ${h.stuckRead} read stuck). Recall of stuck calls: ${h.stuckRead === 0 ? "no stuck call read" : percentWithInterval(h.recall, h.interval)} (95% Wilson interval; optimistic, as above). Calls the miner flagged that the readers did not find stuck: ${h.flaggedNotRead}.`,
      "",
      `Covered by rule: ${Object.keys(h.byRule).length === 0 ? "none" : Object.entries(h.byRule).map(([k, n]) => `${k} ${n}`).join(", ")}.`,
      "",
      "| dataset | sessions | calls | read stuck | covered | recall (95% Wilson) | flagged, not read stuck |",
      "|---|---|---|---|---|---|---|",
      ...Object.entries(h.byDataset).map(([d, x]) => `| ${cell(d)} | ${x.sessions} | ${x.callsRead} | ${x.stuckRead} | ${x.covered} | ${x.stuckRead === 0 ? "n/a" : percentWithInterval(x.recall, x.interval)} | ${x.flaggedNotRead} |`),
      "",
    );
    if (h.notMined.length > 0) lines.push(`Read but not mined by this run, left out: ${h.notMined.map((x) => `\`${cell(x)}\``).join(", ")}.`, "");
    if (h.miscounted.length > 0) lines.push(`Read with another call count than the miner's, left out: ${h.miscounted.map((m) => `\`${cell(m.session)}\` (read ${m.read}, mined ${m.mined})`).join(", ")}.`, "");
    if (h.agreement !== undefined) {
      const g = h.agreement;
      lines.push(
        `A second reader, blind to the first readings, read ${g.sessions.n} of these sessions again: they agree on whether a session holds a stuck stretch in ${g.sessions.agree} of ${g.sessions.n} (Cohen's kappa ${g.sessions.kappa === null ? "undefined: every answer was the same" : g.sessions.kappa.toFixed(2)}); of the stuck calls, ${g.callsBoth} were marked by both, ${g.callsFirstOnly} by the first reader only and ${g.callsSecondOnly} by the second only.`,
        "",
      );
      if (g.protocol.length > 0) lines.push("How the second reading was made:", "", ...g.protocol.map((x) => `- ${x}`), "");
    }
    if (h.byPrecisionCriteria !== undefined) lines.push(...rejudgedLines(h.byPrecisionCriteria));
    if (h.protocol.length > 0) lines.push("How the held-out sessions were chosen and read:", "", ...h.protocol.map((x) => `- ${x}`), "");
  }
  lines.push("## Stretches", "");
  if (c.stretches.length === 0) lines.push("None found.", "");
  else {
    const judged = c.judged !== undefined;
    lines.push(`| id | calls | length | rule | kind | shape or failure | repeats${judged ? " | judged" : ""} |`, `|---|---|---|---|---|---|---${judged ? "|---" : ""}|`);
    for (const x of c.stretches) lines.push(`| \`${cell(x.id)}\` | #${x.firstCall}-#${x.lastCall} | ${x.length} | ${x.rule} | ${x.kind} | \`${cell(x.signature ?? x.shape.join(" / "))}\` | ${x.repeats}${judged ? ` | ${x.judgement === undefined ? "not judged" : `${x.judgement.verdict}: ${cell(x.judgement.reason)}`}` : ""} |`);
    lines.push("", "### Excerpts", "");
    for (const x of c.stretches) {
      lines.push(`**${x.id}** (${x.format}, ${x.model}, ${x.label}), calls #${x.firstCall} to #${x.lastCall}:`, "", "```text", `${x.excerpt.tool} ${x.excerpt.args}`, `first result: ${x.excerpt.first || "(empty)"}`, `last result:  ${x.excerpt.last || "(empty)"}`, "```", "");
    }
  }
  if (c.unreadable.length > 0) lines.push("## Unreadable files", "", ...c.unreadable.map((b) => `- \`${b.file}\`: ${b.reason}`), "");
  if (c.passedOver.length > 0) lines.push("## Passed over", "", `Plain .json files in the folders given that hold no session format (labels files, reports): ${c.passedOver.map((f) => `\`${cell(f)}\``).join(", ")}.`, "");
  return lines.join("\n");
}

export const catalogueJson = (c: Catalogue): string => `${JSON.stringify(c, null, 2)}\n`;

export type { StretchRule };

/** Recall on the two halves of the development readings (src/realLoops/developmentSplit.ts). */
function splitLines(s: NonNullable<Catalogue["recallBySplit"]>): string[] {
  const row = (name: string, r: Recall) => `| ${name} | ${r.sessions} | ${r.callsRead} | ${r.stuckRead} | ${r.covered} | ${r.stuckRead === 0 ? "n/a" : percentWithInterval(r.recall, r.interval)} | ${r.flaggedNotRead} |`;
  return [
    "### The development readings in two halves",
    "",
    `The sessions above split by the parity of their ref's SHA-1 (even: fit, odd: test; \`${s.scheme}\`), fixed before a round of rules is written with only the fit half in view, so that the test half measures what the round adds on sessions it was not fitted to (its protocol lines give the figures before the round).`,
    "",
    "| half | sessions | calls | read stuck | covered | recall (95% Wilson) | flagged, not read stuck |",
    "|---|---|---|---|---|---|---|",
    row("fit", s.fit),
    row("test", s.test),
    "",
    ...(s.protocol.length > 0 ? ["How the split was used:", "", ...s.protocol.map((x) => `- ${x}`), ""] : []),
  ];
}

/** The held-out stuck ranges read again by the precision criteria: what they confirm, and recall against it. */
function rejudgedLines(p: RejudgedRecall): string[] {
  const c = p.byCoverage;
  const row = (name: string, x: RejudgedRecall["byCoverage"]["caught"]) => `| ${name} | ${x.ranges} | ${x.calls} | ${x.confirmedByAll} (${x.confirmedCalls} calls) | ${x.ranges === 0 ? "n/a" : percentWithInterval(x.share, x.interval)} |`;
  const recall = (r: Recall) => (r.stuckRead === 0 ? "no stuck call left" : `${percentWithInterval(r.recall, r.interval)} (${r.covered} of ${r.stuckRead} calls)`);
  const g = p.agreement;
  return [
    "### The held-out stuck ranges, read again by the precision criteria",
    "",
    `The recall above counts what the whole-session readers marked stuck, by their protocol; the precision counts what stretch readers judged stuck, by the criteria at the top of this report. To see where the two draw the line apart, ${p.ranges} of the ${p.heldOutRanges} ranges the held-out readers marked stuck were read again by the precision criteria, each by ${g.n === p.ranges ? "two readers" : "one or two readers"}, blind to which ranges the miner covers and to each other. Every reader of a range called it stuck for ${p.confirmedByAll} of them; at least one did for ${p.confirmedBySome}.${g.n === 0 ? "" : ` The two readers agree on ${g.agree} of ${g.n} (Cohen's kappa ${g.kappa === null ? "undefined: every answer was the same" : g.kappa.toFixed(2)}).`}`,
    "",
    "| the miner covers the range | ranges | calls | confirmed stuck by every reader | share confirmed (95% Wilson) |",
    "|---|---|---|---|---|",
    row("wholly", c.caught),
    row("partly", c.partly),
    row("not at all", c.missed),
    "",
    `Recall against the calls of ranges every reader confirmed: ${recall(p.recallConfirmedByAll)}; against those of ranges at least one confirmed: ${recall(p.recallConfirmedBySome)}. These are added figures, beside the recall of record above, which they do not replace: they say how much of the miss is a difference between the two protocols rather than a loop the miner does not see.`,
    "",
    ...(p.protocol.length > 0 ? ["How the ranges were read again:", "", ...p.protocol.map((x) => `- ${x}`), ""] : []),
  ];
}
