// The folder of loopsim's own package.json, from source (tests) or from dist/ alike: bundled data
// such as the scenario corpus is found relative to it.
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";

export function packageRoot(from: string = import.meta.dirname): string {
  let dir = from;
  for (;;) {
    if (existsSync(join(dir, "package.json")) && existsSync(join(dir, "scenarios"))) return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error(`loopsim's package root not found above ${from}`);
    dir = up;
  }
}
