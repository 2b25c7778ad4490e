// Replay lines name the command that reruns a check. In a project that installs loopsim as a
// dev dependency, `loopsim` is in node_modules/.bin, not on PATH: there the line says `npx
// loopsim`, which finds it. The CLI's own reports keep `loopsim` (byte-identical across machines);
// only what the library hands its caller is rewritten.
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";
import type { CheckResult } from "../conform/check.js";

let onPath: boolean | undefined;

/** Whether an executable `loopsim` is on PATH (asked once per process). */
export function loopsimOnPath(path: string | undefined = process.env.PATH): boolean {
  const names = process.platform === "win32" ? ["loopsim.cmd", "loopsim.exe", "loopsim"] : ["loopsim"];
  for (const dir of (path ?? "").split(delimiter)) {
    if (dir === "") continue;
    for (const name of names) {
      try {
        accessSync(join(dir, name), constants.X_OK);
        return true;
      } catch {
        // not here
      }
    }
  }
  return false;
}

/** A replay line with `npx loopsim` for `loopsim` when loopsim is not on PATH. */
export function forThisMachine(replay: string, installed: boolean = (onPath ??= loopsimOnPath())): string {
  return installed ? replay : replay.replace(/(^|; |=\S* )loopsim /g, "$1npx loopsim ");
}

/** The check with its replay line as this machine runs it. */
export function withReplayForThisMachine(check: CheckResult): CheckResult {
  const ce = check.counterexample;
  if (ce === undefined) return check;
  return { ...check, counterexample: { ...ce, replay: forThisMachine(ce.replay) } };
}
