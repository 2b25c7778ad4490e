// The files of models/, as paths from the repository root, sorted: what mutation testing covers.
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";

export const ROOT = join(import.meta.dirname, "..");

export function modelFiles(dir = join(ROOT, "models")) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...modelFiles(path));
    else if (entry.name.endsWith(".ts")) out.push(relative(ROOT, path));
  }
  return out.sort();
}
