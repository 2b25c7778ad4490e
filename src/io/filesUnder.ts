// The files a command is given: those named, and below each folder named, the files a predicate
// accepts, in a stable (sorted) order. Installed packages and hidden folders are never entered.
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { inputKind } from "./fsErrors.js";

export function filesUnder(paths: readonly string[], accept: (path: string, name: string) => boolean): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir).sort()) {
      if (entry === "node_modules" || entry.startsWith(".")) continue;
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (accept(path, entry)) files.push(path);
    }
  };
  for (const path of paths) {
    if (inputKind(path) === "folder") walk(path);
    else files.push(path);
  }
  return files;
}
