// Which files under the paths a user names are scenario files (a .json that says it is one), in a
// stable order.
import { closeSync, openSync, readSync } from "node:fs";
import { filesUnder } from "../io/filesUnder.js";

/** In a folder, a .json file is a scenario only if it says so (package.json, reports... are not). */
function looksLikeScenario(path: string): boolean {
  const fd = openSync(path, "r");
  try {
    const buffer = Buffer.alloc(4096);
    const n = readSync(fd, buffer, 0, buffer.length, 0);
    return buffer.subarray(0, n).toString("utf8").includes("loopsim/scenario@");
  } finally {
    closeSync(fd);
  }
}

/** Files named, and the scenario files below folders named, in a stable order. */
export function scenarioFiles(paths: readonly string[]): string[] {
  return filesUnder(paths, (path, name) => name.endsWith(".json") && looksLikeScenario(path));
}
