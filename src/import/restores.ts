// Which files a call restores from a copy or from the repository (git checkout f, git restore,
// git stash, git reset --hard, cp|mv f.bak f). A restore undoes the agent's own writes: a check
// right after one hears the original file, a baseline, not the effect of a repair (the first
// precision reading judged revert-and-baseline chains false alarms), so the rules that read a
// repair's evidence (unmovedBreak.ts) stop at a restore.
import { type FactCall, neverTookEffect } from "./facts.js";
import { perCall } from "./perCall.js";
import { SHELL_TOOLS } from "./writes.js";

/** Every file ("*"): git checkout ., git stash, git reset --hard restore the whole work tree. */
export const WHOLE_TREE = "*";

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
