// The miner's restore-cycle rule (see mine.ts): the agent undoes its own write (git checkout -- f,
// git restore, git stash, cp f.bak f, mv f.orig f), tries again, and meets again what it met before
// the undo: attempt -> the same result -> restore -> attempt -> the same result -> restore. Each
// cycle starts from the state the last one started from, so hearing the same result again after
// the next attempt teaches nothing (round 6, the readers' misses: "three cycles of edit -> lint ->
// same RuntimeError -> identical git checkout", "the same sed -i re-sent after git checkout, the
// same SyntaxError each time, reverted each time", "checkout + re-apply reproduce the identical
// patch").
// Why this is not the revert-and-baseline chain the first precision reading judged a false alarm:
// there, after ONE checkout, the test runs on the original file and fails as before (an A/B check:
// the agent learns the failure is not its edit's). Here a hearing counts only when it comes AFTER
// an attempt (a write that took effect, no restore) made since the last restore: a baseline run
// right after a checkout is never counted. Three forms, each narrowed on the development readings
// so that none of its stretches there falls outside what the readers marked stuck:
//  - the same result after the attempts of 3 cycles in a row, across the same restore sent again
//    as recorded (the readers' protocol: the same failure three times);
//  - the very same first write re-sent as recorded after a restore, and undone again with only
//    looks at the file between (the state it makes is one already made and already undone);
//  - a restore followed at once by an attempt whose git diff is the diff the cycle before showed
//    (the same state re-made; with a run of the restored file between, it would be an A/B check).
// Left out (tried on the development readings): a view of the file after each attempt that shows
// nearly the same lines (facts.ts hearsAgain's re-read) flagged cycles of edits that each changed
// the file differently; a cycle that heard something else between two that heard the same, or
// different undos, chained cycles whose agent had moved on.
import { answerBody, commandOf, type FactCall, failureFamily, filesOf, neverTookEffect, sameFamily, resendable, resends, writeKindOf } from "../import/facts.js";
import { perCall } from "../import/perCall.js";
import { SHELL_TOOLS } from "../import/writes.js";
import { viewsFile } from "./unlandedEdits.js";

/** A call as this rule reads it: what it taught, and its position among the session's calls. */
export interface RestoreCycleCall extends FactCall {
  readonly index: number;
}

/** How many calls apart two restores of one file may be and still be cycles of one loop (and how far before the first one its cycle reaches). */
export const RESTORE_GAP = 10;

/** Every file ("*"): git checkout ., git stash, git reset --hard restore the whole work tree. */
const WHOLE_TREE = "*";

/**
 * The files a call restores from a copy or from the repository, or undefined when it restores
 * nothing: `git checkout [HEAD] [--] f`, `git restore f`, `git checkout .`, `git stash` (push),
 * `git reset --hard`, `cp|mv f.bak f` (a source named as a backup: .bak, .orig, .backup, backup,
 * .save, .old, whose name holds its destination's). Read from a shell command's own text, only
 * when the restore is the command's first part (after a cd) or chained with &&, ; or a newline:
 * `grep x f || git checkout f` restores only sometimes. A branch switch (git checkout -b, git
 * checkout main) names no file and is no restore.
 */
export const restoredFiles = perCall((c: FactCall): readonly string[] | undefined => {
  // A restore that failed or never ran (error: pathspec did not match; a command line bash could not parse) restored nothing.
  if (!SHELL_TOOLS.has(c.call.tool) || c.outcome === undefined || c.failed || neverTookEffect(c)) return undefined;
  // Most calls name no restore at all: a cheap look before the command is cut into parts.
  if (!MAY_RESTORE.test(c.rawArgs)) return undefined;
  const command = /^\{"command":"(.*)"\}$/s.exec(c.rawArgs)?.[1];
  if (command === undefined) return undefined;
  const files: string[] = [];
  for (const part of command.split(/\s*(?:&&|;|\\n)\s*/)) {
    const words = part
      .replace(/\s*2>\S*|\s*\|\|\s*true\s*$/g, "")
      .trim()
      .split(/\s+/);
    if (words[0] === "cd") continue;
    const restored = restoredBy(words);
    if (restored !== undefined) files.push(...restored);
  }
  return files.length === 0 ? undefined : [...new Set(files)];
});

/** What any restore's command holds (restoredBy reads the rest): git checkout/restore/stash/reset, or a copy or move. */
const MAY_RESTORE = /\bgit (?:checkout|restore|stash|reset)\b|\b(?:cp|mv) /;

/** The files one simple command (its words) restores (see restoredFiles). */
function restoredBy(words: readonly string[]): readonly string[] | undefined {
  const [head, sub, ...rest] = words;
  if (head === "git") {
    if (sub === "stash" && (rest.length === 0 || rest[0] === "push" || rest[0] === "save")) return [WHOLE_TREE];
    if (sub === "reset" && rest.includes("--hard")) return [WHOLE_TREE];
    if (sub !== "checkout" && sub !== "restore") return undefined;
    const args = rest.filter((w) => w !== "--" && w !== "HEAD" && !w.startsWith("-"));
    if (rest.some((w) => w === "-b" || w === "-B")) return undefined;
    if (args.length === 0) return undefined;
    if (args.includes(".")) return [WHOLE_TREE];
    // A branch or a commit names no file: only paths (a slash or an extension).
    const paths = args.filter((w) => /[/.]/.test(w));
    return paths.length === args.length ? paths : undefined;
  }
  if (head === "cp" || head === "mv") {
    const args = [sub, ...rest].filter((w): w is string => w !== undefined && !w.startsWith("-"));
    if (args.length !== 2) return undefined;
    const [from, to] = args as [string, string];
    const base = to.split("/").pop() ?? to;
    return BACKUP.test(from) && from.includes(base) ? [to] : undefined;
  }
  return undefined;
}
const BACKUP = /(?:\.bak\d*|\.orig|\.backup\d*|\.save|\.old|backup)/i;

/** The same recorded call (tool and args): the same undo sent again. */
function sameRecorded(a: FactCall, b: FactCall): boolean {
  return a.call.tool === b.call.tool && a.rawArgs === b.rawArgs;
}

/** Two restores are of one file (or one of them restores the whole tree). */
function sameTarget(a: readonly string[], b: readonly string[]): boolean {
  return a.includes(WHOLE_TREE) || b.includes(WHOLE_TREE) || a.some((f) => b.includes(f));
}

/**
 * An attempt: a write that is no restore, took effect (not refused, not never parsed), and names
 * a restored file (or the whole tree was restored, or the record does not say what it wrote). What
 * the calls after it hear is the attempt's result; before the first attempt after a restore, a
 * call hears the restored state (a baseline: an A/B check, not a cycle). A write of another file
 * (git diff > patch.txt) is no attempt at the restored one.
 */
function attempts(c: FactCall, target: readonly string[]): boolean {
  if (restoredFiles(c) !== undefined || c.outcome === undefined || neverTookEffect(c)) return false;
  const kind = writeKindOf(c).kind;
  if (kind === "unknown") return true;
  if (kind !== "writes" || READ_INTO_FILE.test(c.rawArgs)) return false;
  const files = filesOf(c);
  return target.includes(WHOLE_TREE) || files === "" || files.split(" ").some((f) => target.some((t) => t.endsWith(f) || f.endsWith(t)));
}

/** A read sent into a file (git diff f > patch.txt, grep -n x f > hits.txt): it writes the report, not the file it names. */
const READ_INTO_FILE = /^\{"command":"(?:cd [^\s&;]+ && )?(?:git (?:diff|show|log|status)|cat|grep|nl|head|tail|sed -n)\b[^&;|>]*>\s*[\w./~-]+\s*"\}$/;

/**
 * The changes a git diff showed, as recorded from its first "diff --git" on (a message echoed
 * before it aside), or undefined for any other call. Two equal diffs are the same state of the
 * files: the index line's hashes are the contents'.
 */
const diffShown = perCall((c: FactCall): string | undefined => {
  if (c.outcome === undefined || !/^\{"command":"(?:cd [^\s&;]+ && )?git diff\b/.test(c.rawArgs)) return undefined;
  const at = c.rawResult.indexOf("diff --git");
  return at < 0 ? undefined : answerBody(c.rawResult.slice(at));
});

/** A hearing: an answered call that writes nothing (a test run, a check, a view). */
const hears = (c: FactCall): boolean => c.outcome !== undefined && restoredFiles(c) === undefined && writeKindOf(c).kind === "none";

/**
 * The same result heard by two calls of different cycles: the same failure family (facts.ts
 * failureFamily, sameFamily), or the same masked answer, whole, to the same command or from the
 * same files. Not facts.ts hearsAgain's re-read of a region: a view of the file after each attempt
 * that shows nearly the same lines (one line duplicated, then another) shows a file the attempt
 * changed, and a changed file is news (pvlib-1072: three different edits of soiling.py, each shown
 * and each undone, each result different).
 */
function sameResult(a: FactCall, b: FactCall): boolean {
  const family = failureFamily(b);
  if (family !== undefined || failureFamily(a) !== undefined) return sameFamily(failureFamily(a), family ?? "") && family !== undefined;
  if (a.result !== b.result) return false;
  const files = filesOf(a);
  return commandOf(a) === commandOf(b) || (files !== "" && files === filesOf(b));
}

/** One cycle of a loop: its calls after its attempt (hearings), its first attempt (when it may be re-sent), and its end (the restore that closed it, or the last call it reaches). */
interface Cycle {
  readonly heard: number[];
  readonly firstAttempt: number | undefined;
  /** The call right after the restore that opened the cycle is an attempt: nothing was heard of the restored file (no baseline). */
  readonly attemptAtOnce: boolean;
  readonly end: number;
}

/**
 * The cycles around a chain of restores r1 < r2 < ... of one file, each within RESTORE_GAP calls
 * of the one before: the cycle that r1 closes (from RESTORE_GAP calls before it), the cycles
 * between restores, and the one after the last (RESTORE_GAP calls at most). A cycle's hearings are
 * the calls that write nothing after its first attempt; calls taken by another rule end it.
 */
function cyclesOf(calls: readonly RestoreCycleCall[], taken: readonly boolean[], restores: readonly number[], target: readonly string[]): Cycle[] {
  const first = restores[0] as number;
  const last = restores[restores.length - 1] as number;
  const bounds: [number, number][] = [[Math.max(0, first - RESTORE_GAP), first]];
  for (let r = 1; r < restores.length; r++) bounds.push([(restores[r - 1] as number) + 1, restores[r] as number]);
  bounds.push([last + 1, Math.min(calls.length - 1, last + RESTORE_GAP)]);
  return bounds.map(([from, to], at) => {
    const heard: number[] = [];
    let firstAttempt: number | undefined;
    let attempted = false;
    let attemptAtOnce = false;
    let end = to;
    // The cycle before the first restore is read backwards from it, so that calls taken long before do not cut it.
    const order = at === 0 ? backwardsFrom(from, to, taken) : [...range(from, to)];
    for (const k of order) {
      if (taken[k] === true) {
        end = k - 1;
        break;
      }
      const c = calls[k] as RestoreCycleCall;
      // The cycle after the last restore ends at the next restore of anything (another loop's).
      if (at === bounds.length - 1 && restoredFiles(c) !== undefined) {
        end = k - 1;
        break;
      }
      // A git diff that shows the work tree's changes is a hearing of the state, even when it also writes them into a report file.
      if (diffShown(c) === undefined && attempts(c, target)) {
        if (!attempted && resendable(c)) firstAttempt = k;
        if (!attempted && k === from && at > 0) attemptAtOnce = true;
        attempted = true;
      } else if (attempted && (hears(c) || diffShown(c) !== undefined)) heard.push(k);
    }
    return { heard, firstAttempt, attemptAtOnce, end };
  });
}
function* range(from: number, to: number): Generator<number> {
  for (let k = from; k <= to; k++) yield k;
}
/** The calls from..to in order, starting after the last call before `to` that another rule took. */
function backwardsFrom(from: number, to: number, taken: readonly boolean[]): number[] {
  let start = to;
  while (start - 1 >= from && taken[start - 1] !== true) start--;
  return [...range(start, to)];
}

/**
 * Stretches of restore cycles on the calls the other rules left: for each chain of the same restore
 * of one file, sent again as recorded, each within RESTORE_GAP calls of the one before, the spans
 * cycleSpans finds (the same result after the attempts of `need` cycles in a row; the same first
 * write re-sent and undone again; the same diff re-made at once after a restore). Every call of a
 * span is free: the chain and its cycles end at a call another rule took.
 */
export function restoreCycleRuns(calls: readonly RestoreCycleCall[], taken: readonly boolean[], need: number): [number, number][] {
  const out: [number, number][] = [];
  let i = 0;
  while (i < calls.length) {
    const target = taken[i] === true ? undefined : restoredFiles(calls[i] as RestoreCycleCall);
    if (target === undefined) {
      i++;
      continue;
    }
    // The chain: restores of the same file, each within RESTORE_GAP calls of the one before, none of the calls between taken.
    const restores = [i];
    for (let n = i + 1; n < calls.length && n <= (restores[restores.length - 1] as number) + RESTORE_GAP; n++) {
      if (taken[n] === true) break;
      const again = restoredFiles(calls[n] as RestoreCycleCall);
      if (again === undefined || !sameTarget(target, again)) continue;
      // The same undo again, as recorded: a restore sent with other work in its command (cp f.bak f; python fix.py) is a new attempt of its own.
      if (!sameRecorded(calls[i] as RestoreCycleCall, calls[n] as RestoreCycleCall)) break;
      restores.push(n);
    }
    for (const span of cycleSpans(calls, cyclesOf(calls, taken, restores, target), need)) if (!out.some(([a, b]) => span[0] <= b && a <= span[1])) out.push(span);
    i = (restores[restores.length - 1] as number) + 1;
  }
  return out;
}

/**
 * The spans of a loop's cycles that hear one result `need` times, re-make a state, or repeat a
 * write (see restoreCycleRuns), overlapping ones joined: two spans apart stay two stretches (the
 * calls between them may have been work: astroid-1333's regex check between two re-made patches).
 */
function cycleSpans(calls: readonly RestoreCycleCall[], cycles: readonly Cycle[], need: number): [number, number][] {
  const spans: [number, number][] = [];
  const widen = (from: number, to: number) => {
    spans.push([from, to]);
  };
  const closes = (at: number, k: number) => (at < cycles.length - 1 ? (cycles[at] as Cycle).end : k);
  for (let a = 0; a < cycles.length; a++) {
    for (const h of (cycles[a] as Cycle).heard) {
      // The cycles after this one that hear the same result again, each once.
      // Every cycle from this one on, until one does not: the same result after EACH restore (a
      // cycle that heard something else moved the agent on).
      const again: [number, number][] = [];
      for (let b = a + 1; b < cycles.length; b++) {
        const k = (cycles[b] as Cycle).heard.find((x) => sameResult(calls[h] as RestoreCycleCall, calls[x] as RestoreCycleCall));
        if (k === undefined) break;
        again.push([b, k]);
      }
      if (again.length + 1 >= need) {
        const [b, k] = again[again.length - 1] as [number, number];
        widen(h, closes(b, k));
      }
    }
    // The same write re-sent as recorded, as the first attempt after a restore, that was the first
    // attempt of an earlier cycle, and undone again: the state it made is one already made and
    // already undone (marshmallow-1343: the same sed -i '895,897d' after git checkout, the same
    // broken file, git checkout again). Both sendings undone: a write re-applied after an A/B
    // check and kept is work (scikit-learn-11310: checkout, the baseline test, the same two sed -i
    // again, and on).
    // The same state made again at once: a cycle whose restore is followed at once by an attempt
    // (no baseline heard between) shows, after it, the diff the cycle before showed after its
    // attempt (astroid-1333: git checkout, a new fix script, and git diff shows the identical
    // patch, the same misplaced check). The restore and the attempt re-made a state already made
    // and already judged; with a run of the restored file between, it would be an A/B check.
    const next = cycles[a + 1];
    if (next?.attemptAtOnce === true) {
      for (const h of (cycles[a] as Cycle).heard) {
        const shown = diffShown(calls[h] as RestoreCycleCall);
        const k = shown === undefined ? undefined : next.heard.find((x) => diffShown(calls[x] as RestoreCycleCall) === shown);
        if (k !== undefined) widen(h, k);
      }
    }
    const w = (cycles[a] as Cycle).firstAttempt;
    if (w !== undefined && a < cycles.length - 1) {
      for (let b = a + 1; b < cycles.length - 1; b++) {
        const resent = (cycles[b] as Cycle).firstAttempt;
        if (resent === undefined || !resends(calls[resent] as RestoreCycleCall, calls[w] as RestoreCycleCall)) continue;
        // Undone with nothing learned between: each call from the re-send to the restore that
        // undid it writes nothing and looks at the file or hears what the first sending's cycle
        // heard. A run between that said something new (the fix worked, then was undone for
        // another reason) is work.
        const end = (cycles[b] as Cycle).end;
        let quiet = true;
        for (let k = resent + 1; k < end && quiet; k++) {
          const c = calls[k] as RestoreCycleCall;
          quiet = hears(c) && (viewsFile(c) || (cycles[a] as Cycle).heard.some((h) => h > w && sameResult(calls[h] as RestoreCycleCall, c)));
        }
        if (quiet) widen(w, end);
      }
    }
  }
  spans.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const joined: [number, number][] = [];
  for (const [from, to] of spans) {
    const last = joined[joined.length - 1];
    if (last !== undefined && from <= last[1]) last[1] = Math.max(last[1], to);
    else joined.push([from, to]);
  }
  return joined;
}
