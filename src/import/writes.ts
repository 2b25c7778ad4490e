// Whether a recorded call may have changed what a later call sees: the line between re-checking
// (the same question again, nothing changed, so nothing new to hear) and work (an edit, then the
// same test again). Read from the call alone, by its tool and its args as recorded JSON. It sits
// with the importers, beside mask.ts, because the miner of real loops (src/realLoops) and the
// candidate guard rules (src/targets/candidates) both need it. Pure and deterministic.
import { pathsIn } from "./mask.js";

/** Tools that run a shell command: what they change is read from the command. */
export const SHELL_TOOLS: ReadonlySet<string> = new Set(["bash", "exec", "shell", "run_command", "execute_bash"]);

/** A named tool that changes state: an editor, a chat runtime's update_*, book_*, cancel_* ... */
const WRITING_TOOL = /edit|write|replace|create|insert|patch|apply|update|delete|remove|undo|book|cancel|send|exchange|return|modify|transfer|set_|save|move|rename|append/i;
/**
 * A shell command that writes: sed -i, perl -i, a redirection into a file (not 2>&1, not
 * /dev/null), tee, mv, cp, rm, touch, patch, git apply/checkout/stash/reset, an install, a script
 * body that writes a file, a find that deletes (find . -name "*.pyc" -delete: clearing a cache
 * is a change, and the same run after it may answer otherwise). Running a script (python fix.py) is not one: what it changed shows in
 * the answers after it, and the same answers after it say it changed nothing.
 */
// One \b before the alternatives that start a word, and the start of the string apart from the
// separators before a command: the same matches as the alternatives side by side, which the engine
// tried one by one at every character of every call's args (a few percent of the test's CPU time
// over the datasets' 42,003 calls, 78 -> 75 ms; test/loopsFastPaths.test.ts holds it to the
// pattern as first written).
export const WRITING_COMMAND =
  /\b(?:sed\s+(?:-\w+\s+)*-[a-zA-Z]*i|perl\s+(?:-\w+\s+)*-\w*i|tee\b|git\s+(?:apply|checkout|stash|reset|restore|am|cherry-pick|commit|merge|rebase|rm|mv)\b|(?:pip3?|conda|apt-get|apt|npm|yarn|pnpm|poetry|uv)\s+(?:\w+\s+)*(?:install|add|remove|uninstall)\b|setup\.py\s+(?:develop|install)|find\b[^|;&]*\s-delete\b)|(?:[;&|(]|"command":")\s*(?:mv|cp|rm|touch|mkdir|patch|ln|chmod|truncate)\s|^(?:mv|cp|rm|touch|mkdir|patch|ln|chmod|truncate)\s|\.write(?:_text|_bytes)?\(|open\([^)]{0,200}['"][wa]\+?b?['"]/;
/** A redirection into a file (not 2>&1, not /dev/null): tested on the shell's own text only (shellText). */
const REDIRECTION = /(?<![\d&>])>>?(?!&)\s*(?!\/dev\/null)[\w./~"'$-]/;
/**
 * The command as the shell reads it, without heredoc bodies and quoted strings: a ">" there is
 * Python's comparison (if n > 0: in a heredoc script) or a sed expression's text (s/ /<TAB>/g),
 * not a redirection. What a script body writes is read from it apart (WRITING_COMMAND: .write(,
 * open(..., 'w')).
 */
function shellText(rawArgs: string): string {
  let command: unknown;
  try {
    command = (JSON.parse(rawArgs) as { command?: unknown } | null)?.command;
  } catch {
    return rawArgs;
  }
  if (typeof command !== "string") return rawArgs;
  return command
    .replace(/<<-?\s*(['"]?)(\w+)\1[^\n]*\n[\s\S]*?(?:\n\2(?=\s|$)|$)/g, (whole) => whole.slice(0, whole.indexOf("\n")))
    .replace(/'[^']*'|"(?:[^"\\]|\\.)*"/g, "''");
}
/** An in-place flag given after the expression (perl -0777 -pe "s/a/b/" -i f.py, sed -e 's/a/b/' -i f.py): read on the shell's own text. */
const IN_PLACE_AFTER = /\b(?:perl|sed)\b[^|;&\n]*?\s-[a-zA-Z0-9]*i(?:\.\w*)?(?=\s|$)/;
/** Whether a shell command writes: any writing command, a redirection the shell itself makes, or an in-place edit flagged late. */
function writingCommand(rawArgs: string): boolean {
  if (WRITING_COMMAND.test(rawArgs)) return true;
  const redirects = REDIRECTION.test(rawArgs);
  const inPlace = /\b(?:perl|sed)\b/.test(rawArgs) && /\s-[a-zA-Z0-9]*i\b/.test(rawArgs);
  if (!redirects && !inPlace) return false;
  const shell = shellText(rawArgs);
  return (redirects && REDIRECTION.test(shell)) || (inPlace && IN_PLACE_AFTER.test(shell));
}
const FILE_CREATION = /^\{"command":"(?:cd [^\s&;]+ && )?cat\s*(?:<<-?\s*\\?['"]?\w+\\?['"]?\s*)?>\s*([\w./~-]+)/;
/**
 * A lone copy of one file to another (cp a.py a.py.bak): it writes only its destination. A backup
 * changes nothing an earlier call read (the readers marked re-reads with only a backup copy
 * between as stuck); a restore (cp a.py.bak a.py) writes a file read before.
 */
const LONE_COPY = /^\{"command":"(?:cd [^\s&;]+ && )?cp\s+(?:-\w+\s+)*[\w./~-]+\s+([\w./~-]+)\s*"\}$/;
/**
 * A command the record names only by a variable (CaM's exec_bash_cmd(cmd)), or whose script body
 * it gives only as a template placeholder (`python - << 'PY'\n{patch_script}\nPY`, an f-string
 * recorded unformatted): what ran is not known.
 */
export const UNKNOWN_COMMAND = /^\{"command":\{"expr":|^\{"command":"[^"]*<<[^"]*?\\n\{\w+\}\\n/;
/**
 * UNKNOWN_COMMAND.test(rawArgs), tried only on args that hold what a match must: the first
 * alternative's whole text, or the second's start, "<<" and "\n{" (as JSON writes a newline
 * before a brace). The pattern is asked of every call; its second alternative scanned up to the
 * first quote of every command, and only about one command in 400 holds all three
 * (test/loopsFastPaths.test.ts holds this to the pattern).
 */
export function namesUnknownCommand(rawArgs: string): boolean {
  if (rawArgs.startsWith('{"command":{"expr":')) return true;
  return rawArgs.startsWith('{"command":"') && rawArgs.includes("<<") && rawArgs.includes("\\n{") && UNKNOWN_COMMAND.test(rawArgs);
}
/**
 * Args any part of which the record names only by a variable (a CaM command or a code_replace's
 * old_code given as {"expr":"old_code"}): two such calls recorded alike may have sent different
 * things, so they are never the same call. Wider than UNKNOWN_COMMAND, which asks only what a
 * shell command may have written: a code_replace known by its file still writes that file.
 */
export function argsNamedByVariable(rawArgs: string): boolean {
  return rawArgs.includes('{"expr":');
}

export type WriteKind = { readonly kind: "none" } | { readonly kind: "unknown" } | { readonly kind: "creates"; readonly file: string } | { readonly kind: "writes" };

/** The file a command only creates (cat > file <<EOF ... EOF and nothing after the terminator), or undefined. */
export function createdFileOf(rawArgs: string): string | undefined {
  const m = FILE_CREATION.exec(rawArgs);
  if (m === null) return undefined;
  const terminator = /<<-?\s*\\?['"]?(\w+)/.exec(rawArgs)?.[1];
  return terminator !== undefined && rawArgs.endsWith(`\\n${terminator}"}`) ? m[1] : undefined;
}

/** What a call (its tool, its args as recorded JSON) may have written. */
export function writeOf(tool: string, rawArgs: string): WriteKind {
  if (namesUnknownCommand(rawArgs)) return { kind: "unknown" };
  const created = createdFileOf(rawArgs);
  if (created !== undefined) return { kind: "creates", file: created };
  const copied = SHELL_TOOLS.has(tool) ? LONE_COPY.exec(rawArgs)?.[1] : undefined;
  if (copied !== undefined) return { kind: "creates", file: copied };
  const isWrite = SHELL_TOOLS.has(tool) ? writingCommand(rawArgs) : WRITING_TOOL.test(tool) || writingCommand(rawArgs);
  return isWrite ? { kind: "writes" } : { kind: "none" };
}

/** The files a call's args name (mask.ts pathsIn), one by one. */
export function filesNamedIn(rawArgs: string): string[] {
  const paths = pathsIn(rawArgs);
  return paths === "" ? [] : paths.split(" ");
}

/**
 * Whether a call may have changed what an earlier call saw, given which files were named before
 * it. A write that only creates or touches files no earlier call named (a new scratch script, cat
 * > test_issue.py the first time) changes nothing an earlier call looked at; a write that names no
 * file, or a command known only by a variable, may have changed anything. `w` is writeOf(tool,
 * rawArgs), for a caller that has it already.
 */
export function changesWhatWasRead(tool: string, rawArgs: string, namedBefore: (file: string) => boolean, w: WriteKind = writeOf(tool, rawArgs)): boolean {
  switch (w.kind) {
    case "none":
      return false;
    case "unknown":
      return true;
    case "creates":
      return namedBefore(w.file);
    case "writes": {
      const files = filesNamedIn(rawArgs);
      return files.length === 0 || files.some(namedBefore);
    }
    default: {
      const never: never = w;
      return never;
    }
  }
}
