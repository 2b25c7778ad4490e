// The miner's unmoved-break rule (see mine.ts), round 7: a file Python cannot parse, repaired again
// and again, and after each repair the check reports the very same parse error at the very same
// line. The readers' misses of this shape: "py_compile keeps failing with 'IndentationError:
// expected an indented block (widgets.py, line 228)' while the agent re-applies the same
// CheckboxInput replacement, each 'patched'", "the identical IndentationError at line 1096 around
// edits that did not apply", "the same collection error" after the same _setup replacement.
// unlanded-edits takes a repair whose effect is unknown ("patched", nothing shown) to have landed,
// so it ends those runs; same-failure breaks its chain at every write between (a test re-run after
// a real change is work, even when it fails the same way).
// Why a parse error at one line is evidence that the writes changed nothing that matters: Python
// reports the FIRST place it cannot parse. A write that repaired that place moves the error on or
// ends it; a write that broke something earlier, or added or removed lines above it, moves it too.
// The same error, in the same file, at the same line, after a write, says the broken lines were
// not touched (or were written back as they were): the file is as broken as before, in the same
// place, and the check taught nothing the check before the write had not. Three such checks with
// writes between are the same failure three times with nothing learned.
// What keeps it narrow (the precision readings): only a parse error (SyntaxError, IndentationError,
// TabError) with its file and line, compared as printed, line number included; never a test that
// fails the same way (an assertion after a real change is work: the precision readers judged such
// re-runs false alarms), never the agent's own script that Python could not parse (File "<string>",
// "<stdin>": the unlanded-edits rule reads those), never across a call that ran and said something
// else (a script's output, a passing run, another error: the file moved, or something new was heard).
import type { FactCall } from "../import/facts.js";
import { attemptsWrite, writesNothing } from "../import/landed.js";
import { perCall } from "../import/perCall.js";
import { restoredFiles } from "../import/restores.js";
import { viewsFile } from "./unlandedEdits.js";

/** A call as this rule reads it: what it taught, and its position among the session's calls. */
export interface UnmovedBreakCall extends FactCall {
  readonly index: number;
}

/**
 * How many calls may sit between two checks of a run (the repairs, and looks at the file): the
 * readers' runs had up to 5 (a repair refused, a grep of the broken line, two wrapper errors, a
 * "patched"), each of which taught nothing; bounded so each check costs a fixed number of looks.
 */
const BETWEEN = 6;

// py_compile and compileall: "Sorry: IndentationError: expected an indented block (widgets.py, line 228)".
const COMPILE_REPORT = /\b(SyntaxError|IndentationError|TabError): ([^\n]*?) \(([^(),\n]+), line (\d+)\)/g;
// A traceback (an import, a test collection, pytest's "E" prefix): File "/testbed/a/b.py", line 50, then the error.
const FILE_LINE = /File "([^"\n]+)", line (\d+)/g;
const PARSE_ERROR_LINE = /^\s*(?:E\s+)?(SyntaxError|IndentationError|TabError): ([^\n]*)$/m;

/** The file's last path segment: py_compile names the file as given, a traceback as an absolute path. */
const baseName = (path: string): string => path.slice(path.lastIndexOf("/") + 1);

/**
 * /(?:Syntax|Indentation|Tab)Error/.test(text), looked for only where "Error" is (a native search):
 * the alternation was tried at every character of every answer, most of which name no such error
 * (about 1% of a `loops` run). Held to the pattern in test/loopsFastPaths.test.ts.
 */
export function namesParseError(text: string): boolean {
  for (let at = text.indexOf("Error", 3); at !== -1; at = text.indexOf("Error", at + 1)) {
    if (text.startsWith("Tab", at - 3) || (at >= 6 && text.startsWith("Syntax", at - 6)) || (at >= 11 && text.startsWith("Indentation", at - 11))) return true;
  }
  return false;
}

/**
 * Where and how a call's answer says a file cannot be parsed: "IndentationError: expected an
 * indented block @ widgets.py:228", with the broken line's text when a traceback prints it, from
 * the last such report in the answer; undefined when the
 * answer reports none. Read from the answer as recorded (line numbers unmasked: the line is the
 * evidence). A report about the agent's own program (File "<string>", "<stdin>") is none: that is
 * a script that never ran, not the file it meant to repair.
 */
export const breakOf = perCall((c: FactCall): string | undefined => {
  const text = c.rawResult;
  // Cheap first look: most answers report no parse error.
  if (!namesParseError(text)) return undefined;
  let found: { at: number; where: string } | undefined;
  for (const m of text.matchAll(COMPILE_REPORT)) {
    found = { at: m.index, where: `${m[1] as string}: ${(m[2] as string).trim()} @ ${baseName(m[3] as string)}:${m[4] as string}${TEXT}` };
  }
  let lastFile: RegExpExecArray | undefined;
  for (const m of text.matchAll(FILE_LINE)) lastFile = m;
  if (lastFile !== undefined && (found === undefined || lastFile.index > found.at)) {
    const file = lastFile[1] as string;
    const error = PARSE_ERROR_LINE.exec(text.slice(lastFile.index));
    if (error !== null && !file.startsWith("<")) {
      // The broken line's text, when the report shows it: the same number with other text on it
      // (return 1( then return 2() is a write that landed on the broken line.
      const shown = sourceLineAfter(text.slice(lastFile.index + lastFile[0].length));
      found = { at: lastFile.index, where: `${error[1] as string}: ${(error[2] as string).trim()} @ ${baseName(file)}:${lastFile[2] as string}${TEXT}${shown}` };
    } else if (error !== null) {
      // The last report is about the agent's own program: whatever came before it is not what this call said last.
      return undefined;
    }
  }
  return found?.where;
});

/** Parts a break's place (error, file, line) from the broken line's text, which py_compile does not print. */
const TEXT = "\t";

/**
 * Two reports of one break: the same error at the same file and line, and the same text on that
 * line where both print it (py_compile prints none; a traceback after it does).
 */
export function sameBreak(a: string, b: string): boolean {
  if (a === b) return true;
  const [placeA, textA = ""] = a.split(TEXT, 2);
  const [placeB, textB = ""] = b.split(TEXT, 2);
  return placeA === placeB && (textA === "" || textB === "");
}

/** The source line a traceback prints under File "...", line N (pytest's "E" prefix and indentation aside), or "" when it shows none. */
function sourceLineAfter(rest: string): string {
  const next = (rest.split("\n", 3)[1] ?? "").replace(/^E\s/, "").trim();
  return next.startsWith("^") || PARSE_ERROR_LINE.test(next) ? "" : next;
}

/**
 * A call that may sit between two checks of a run: an attempt to write (whatever it answered: its
 * effect is what the next check tells), or a call that wrote nothing and looked at a file, failed,
 * or said nothing, unless it reports a different parse error (the file moved) or restores a file.
 * A script run, a search or a test that answered otherwise heard something new and ends the run.
 */
function mayStandBetween(c: UnmovedBreakCall, at: string): boolean {
  if (c.outcome === undefined) return false;
  const other = breakOf(c);
  if (other !== undefined && !sameBreak(other, at)) return false;
  // A restore (git checkout f, git reset --hard, cp f.bak f) makes the check after it a baseline:
  // it hears the restored file, not a repair (the precision readers judged revert-and-baseline
  // chains false alarms), even when the restored file is as broken as before.
  if (restoredFiles(c) !== undefined) return false;
  if (attemptsWrite(c)) return true;
  return writesNothing(c) && (viewsFile(c) || c.failed || c.silent);
}

/**
 * Runs of `need` or more calls, not yet taken, whose answers report the same parse error at the same
 * file and line (breakOf), each after the one before with at most BETWEEN calls between (see
 * mayStandBetween), at least one of them (or the check itself, a write with its check chained after
 * it) an attempt to write: the write did not move the break. From the first attempt after the first
 * check to the last check.
 */
export function unmovedBreakRuns(calls: readonly UnmovedBreakCall[], taken: readonly boolean[], need: number): [number, number][] {
  const out: [number, number][] = [];
  let i = 0;
  while (i < calls.length) {
    // The break the run is about: the first sighting's, made more precise by the first that prints the line's text.
    let at = taken[i] === true ? undefined : breakOf(calls[i] as UnmovedBreakCall);
    if (at === undefined) {
      i++;
      continue;
    }
    let last = i;
    let checks = 1;
    for (;;) {
      let next = -1;
      let wrote = false;
      for (let n = last + 1; n < calls.length && n <= last + 1 + BETWEEN; n++) {
        const c = calls[n] as UnmovedBreakCall;
        if (taken[n] === true) break;
        const seen = breakOf(c);
        if (seen !== undefined && sameBreak(seen, at)) {
          if (seen.length > at.length) at = seen;
          if (wrote || attemptsWrite(c)) {
            next = n;
            break;
          }
          // The same check again with nothing written between: a re-check, inside but not counted.
          continue;
        }
        if (!mayStandBetween(c, at)) break;
        if (attemptsWrite(c)) wrote = true;
      }
      if (next < 0) break;
      last = next;
      checks++;
    }
    // From the first repair after the first sighting: that sighting was news (the file is broken
    // there), what follows it is repairs the next check proved unmoved (the readers' stretches start
    // there too: "the first failing run and the diagnosing view precede it").
    if (checks >= need) {
      let first = i + 1;
      while (first < last && !attemptsWrite(calls[first] as UnmovedBreakCall)) first++;
      // Repairs with their checks chained after them (sed -i ... && python -c ...) are attempt and
      // evidence in one call: the stretch keeps `need` calls, back to the first sighting at most.
      out.push([Math.max(i, Math.min(first, last - need + 1)), last]);
    }
    i = last + 1;
  }
  return out;
}
