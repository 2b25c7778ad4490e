// The memory a driven CLI may take in its sandbox. Each process's writable memory is bounded by
// RLIMIT_DATA, which counts what it reserves: 4 GiB by default, and 16 GiB for Kilo, whose
// JavaScriptCore reserves about 7.7 GiB to hold 1.3 GiB (drivenRuntimes.ts; under 4 GiB it aborted
// with exit 134 on pvlib-python-1072). A process over its runtime's bound is still stopped, and
// what a whole run holds is bounded apart from that: the resident watchdog stops a run whose
// processes together hold more than its bound (residentWatchdog.ts).
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { driveCli, groupAlive, type CliAdapter } from "../src/targets/runtimes/cliDriver.js";
import { DRIVEN_RUNTIME_NAMES, drivenRuntimeMemoryBytes } from "../src/targets/runtimes/drivenRuntimes.js";
import { DEFAULT_SANDBOX_MEMORY_BYTES, sandboxedCommand, sandboxUnavailable } from "../src/targets/runtimes/osSandbox.js";
import { DEFAULT_SANDBOX_RESIDENT_BYTES, treeResidentBytes } from "../src/targets/runtimes/residentWatchdog.js";
import { tempDir } from "./cli/run.js";

const GiB = 1024 ** 3;
const why = sandboxUnavailable();
if (why !== undefined) console.log(`SKIPPED: the sandbox memory tests: ${why}`);

describe("the data bound each driven runtime gets", () => {
  it("is 16 GiB for Kilo and the 4 GiB default for every other runtime", () => {
    expect(DEFAULT_SANDBOX_MEMORY_BYTES).toBe(4 * GiB);
    const bounds = Object.fromEntries(DRIVEN_RUNTIME_NAMES.map((r) => [r, drivenRuntimeMemoryBytes(r)]));
    expect(bounds).toEqual({ opencode: 4 * GiB, kilo: 16 * GiB, cline: 4 * GiB, crush: 4 * GiB, "qwen-code": 4 * GiB, "qwen-code:heuristics": 4 * GiB });
    expect(drivenRuntimeMemoryBytes("no-such-runtime")).toBeUndefined();
  });
  it("leaves a run's resident memory bounded apart from it: 8 GiB for all its processes together", () => {
    expect(DEFAULT_SANDBOX_RESIDENT_BYTES).toBe(8 * GiB);
  });
});

// Reserves `gib` GiB without touching it (an ArrayBuffer is mapped lazily: nothing becomes resident).
const RESERVE = `
const limit = require("node:fs").readFileSync("/proc/self/limits", "utf8").split("\\n").find((l) => l.startsWith("Max data size"));
console.log("limit " + limit.split(/\\s{2,}/)[1]);
for (const gib of process.argv.slice(1).map(Number)) {
  try { new ArrayBuffer(gib * 2 ** 30); console.log(gib + " reserved"); } catch (e) { console.log(gib + " refused: " + e.message); }
}
`;

function reserveInSandbox(memoryBytes: number, gibs: number[]): string[] {
  const scratch = tempDir();
  const { file, args } = sandboxedCommand(process.execPath, ["-e", RESERVE, ...gibs.map(String)], { readOnly: [], writable: [scratch], modelSocket: join(scratch, "model.sock"), cwd: scratch, memoryBytes });
  return execFileSync(file, args, { encoding: "utf8", timeout: 60_000 }).trim().split("\n");
}

describe.skipIf(why !== undefined)("a sandboxed process over its data bound", () => {
  it("under Kilo's bound: reserves the 8 GiB the default refuses, and is still refused past 16 GiB", () => {
    const kilo = drivenRuntimeMemoryBytes("kilo") as number;
    expect(reserveInSandbox(kilo, [8, 17])).toEqual([`limit ${kilo}`, "8 reserved", "17 refused: Array buffer allocation failed"]);
  });
  it("under the default bound: refused past 4 GiB", () => {
    expect(reserveInSandbox(DEFAULT_SANDBOX_MEMORY_BYTES, [2, 8])).toEqual([`limit ${DEFAULT_SANDBOX_MEMORY_BYTES}`, "2 reserved", "8 refused: Array buffer allocation failed"]);
  });
});

// A stand-in CLI that fills 400 MiB (resident, unlike a reservation) and then waits, never asking its model.
const HOG = `const b = Buffer.alloc(400 * 2 ** 20, 1); setTimeout(() => console.log(b.length), 120000);`;

describe.skipIf(why !== undefined)("the resident watchdog", () => {
  it("counts a process and its descendants", () => {
    expect(treeResidentBytes(process.pid)).toBeGreaterThan(10 * 2 ** 20);
    expect(treeResidentBytes(2 ** 30)).toBe(0);
  });
  it("stops a run whose processes hold more than its bound, and leaves none behind", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "hog.cjs"), HOG);
    let pid: number | undefined;
    const adapter: CliAdapter = {
      toolCall: () => ({ name: "shell", args: {} }),
      invocation: ({ home }) => ({ file: process.execPath, args: [join(dir, "hog.cjs")], env: { HOME: home }, readOnly: [dir] }),
      observe: () => "not reached",
    };
    const observed = await driveCli(adapter, { files: {}, prompts: [[{ calls: [{ id: "c0", action: { kind: "shell", command: "true" } }] }]] }, { residentBytes: 200 * 2 ** 20, onStarted: (p) => (pid = p) });
    expect(observed.ok).toBe(false);
    expect(observed.ok ? "" : observed.error).toMatch(/^prompt 1: the runtime went over the sandbox's bound of resident memory \(0\.[34]\d GiB resident, bound 0\.20 GiB\) after 0 responses; it was killed/);
    expect(pid !== undefined && groupAlive(pid)).toBe(false);
  }, 60_000);
});
