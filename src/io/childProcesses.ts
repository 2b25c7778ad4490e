// Stopping what this process started, on the way out (Ctrl-C, SIGTERM): the children (tar, npm)
// and their own children, then waiting until they are gone, so a scratch folder they write into
// can be removed without racing them. Synchronous, because it runs in a signal handler that exits
// right after. Found through /proc on Linux, through `ps -A -o pid=,ppid=` elsewhere.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

/** pid and parent pid of every process, from /proc (Linux; no `ps` needed in a slim image). */
function fromProc(): [number, number][] | undefined {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return undefined;
  }
  const pairs: [number, number][] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // The name in parentheses may hold spaces: fields are counted after its closing one.
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (Number.isInteger(ppid)) pairs.push([Number(entry), ppid]);
    } catch {
      // gone while listing
    }
  }
  return pairs;
}

/** The same from `ps` (macOS and other systems without /proc); `ps` itself is left out. */
function fromPs(): [number, number][] {
  const listed = spawnSync("ps", ["-A", "-o", "pid=,ppid="], { encoding: "utf8" });
  if (listed.status !== 0 || typeof listed.stdout !== "string") return [];
  return listed.stdout.split("\n").flatMap((line): [number, number][] => {
    const [pid, ppid] = line.trim().split(/\s+/).map(Number);
    return pid === undefined || ppid === undefined || !Number.isInteger(pid) || !Number.isInteger(ppid) || pid === listed.pid ? [] : [[pid, ppid]];
  });
}

/** Every process below `root` (children first, then theirs). */
function descendantsOf(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const [pid, ppid] of fromProc() ?? fromPs()) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  const found: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift() as number) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/** Running (a zombie, ended but not yet reaped because this thread is blocked here, is not). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    // no /proc (macOS), or gone: ask the kernel
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // gone already
  }
}

/** Blocks for `ms` without a busy loop (a signal handler cannot await). */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Sends SIGTERM to every descendant of this process, waits up to `graceMs` for them to end, then
 * SIGKILLs what is left and waits for that too. Returns the processes that were stopped.
 */
export function killDescendants(graceMs = 3_000): number[] {
  const pids = descendantsOf(process.pid);
  for (const pid of pids) signal(pid, "SIGTERM");
  const deadline = Date.now() + graceMs;
  while (pids.some(alive) && Date.now() < deadline) pause(25);
  for (const pid of pids.filter(alive)) signal(pid, "SIGKILL");
  const hard = Date.now() + 1_000;
  while (pids.some(alive) && Date.now() < hard) pause(25);
  return pids;
}
