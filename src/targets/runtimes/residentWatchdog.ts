// The resident-memory watchdog of a sandboxed CLI run. The sandbox bounds what each process may
// reserve (RLIMIT_DATA, osSandbox.ts), which is not what it uses: a runtime that reserves far ahead
// of its heap (Kilo's JavaScriptCore) needs a data bound well above its real use, and a data bound
// is per process while a run is a tree of them (the CLI, its tools' commands). So the memory a run
// really holds is bounded here too: the resident memory of every process in the sandbox's tree,
// summed, read from /proc once a second; over the bound, the run is stopped (the caller kills
// its process group, as its step watchdog does) and says why.
import { readdirSync, readFileSync } from "node:fs";

/**
 * Default bound of the resident memory of one sandboxed run, all its processes together: about 4
 * times the most a driven run was measured to hold (Kilo 7.7.9 on pvlib-python-1072, 2.1 GiB for
 * its whole sandbox; drivenRuntimes.ts), and two runs at once (compare --workers 2) fit a 23 GiB
 * machine with room for the rest.
 */
export const DEFAULT_SANDBOX_RESIDENT_BYTES = 8 * 1024 ** 3;
const POLL_MS = 1_000;

/** The children of every process /proc shows, by their parent (field 4 of /proc/PID/stat, read after the name's last ')'). */
function childrenOf(): Map<number, number[]> {
  const children = new Map<number, number[]>();
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return children;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // gone meanwhile
    }
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    const list = children.get(ppid) ?? [];
    list.push(Number(entry));
    children.set(ppid, list);
  }
  return children;
}

function residentKb(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match === null ? 0 : Number(match[1]);
  } catch {
    return 0;
  }
}

/** A process and all its descendants, as /proc shows them now. */
export function processTree(root: number): number[] {
  const children = childrenOf();
  const tree: number[] = [];
  const todo = [root];
  const seen = new Set<number>();
  while (todo.length > 0) {
    const pid = todo.pop() as number;
    if (seen.has(pid)) continue;
    seen.add(pid);
    tree.push(pid);
    todo.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/** The resident memory of a process and all its descendants, in bytes (0 where /proc is not readable). */
export function treeResidentBytes(root: number): number {
  return processTree(root).reduce((kb, pid) => kb + residentKb(pid), 0) * 1024;
}

/**
 * Watches the tree under `root`; calls `over` once, with the resident bytes it saw, when they pass
 * `boundBytes`. Returns the function that stops watching.
 */
export function watchResident(root: number, boundBytes: number, over: (residentBytes: number) => void): () => void {
  const timer = setInterval(() => {
    const resident = treeResidentBytes(root);
    if (resident <= boundBytes) return;
    clearInterval(timer);
    over(resident);
  }, POLL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
