// Stopping what this process started, on the way out (Ctrl-C, SIGTERM): the children (tar, npm)
// and their own children, then waiting until they are gone, so a scratch folder they write into
// can be removed without racing them. Synchronous, because it runs in a signal handler that exits
// right after. Found through `ps` (Linux and macOS both answer `ps -A -o pid=,ppid=`).
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";

/** Every process below `root` (children first, then theirs), from one `ps` listing. */
function descendantsOf(root: number): number[] {
  const listed = spawnSync("ps", ["-A", "-o", "pid=,ppid="], { encoding: "utf8" });
  if (listed.status !== 0 || typeof listed.stdout !== "string") return [];
  const children = new Map<number, number[]>();
  for (const line of listed.stdout.split("\n")) {
    const [pid, ppid] = line.trim().split(/\s+/).map(Number);
    if (pid === undefined || ppid === undefined || !Number.isInteger(pid) || !Number.isInteger(ppid)) continue;
    children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  }
  const found: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift() as number) ?? []) {
      // `ps` itself is a child of this process while it lists.
      if (child === listed.pid) continue;
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
