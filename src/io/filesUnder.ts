// The files a command is given: those named, and below each folder named, the files a predicate
// accepts, in a stable (sorted) order. Installed packages and hidden folders are never entered.
// Each real folder is walked once: a symbolic link back to a folder already on the walk (a loop)
// or to one walked before is not followed again; a link that cannot be resolved is listed like a
// file, when its name is one the predicate accepts, so the reader reports it by name.
import { readdirSync, realpathSync, statSync, type Stats } from "node:fs";
import { join } from "node:path";
import { inputKind } from "./fsErrors.js";

export function filesUnder(paths: readonly string[], accept: (path: string, name: string) => boolean): string[] {
  const files: string[] = [];
  const walked = new Set<string>();
  // `known`: the folder's real path when the caller knows it (a folder entry that is no link, inside
  // a folder whose real path is known, is that path and its name); else it is asked for.
  const walk = (dir: string, known?: string): void => {
    // One call, but the C library reads every component of the path as a link (about seven system
    // calls a folder here, 1,215 folders in the datasets: issue 35, ninth pass), so only where needed.
    const real = known ?? realpathSync.native(dir); // the JS realpath stats every component of the path
    if (walked.has(real)) return;
    walked.add(real);
    const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const dirent of entries) {
      const entry = dirent.name;
      if (entry === "node_modules" || entry.startsWith(".")) continue;
      const path = join(dir, entry);
      // The entry's own type says what a stat would for a folder or a file; a link (or a type the
      // file system does not report) is stat'ed, so it is followed as what it points to.
      if (dirent.isDirectory()) walk(path, join(real, entry));
      else if (!dirent.isFile() && statOrUndefined(path)?.isDirectory() === true) walk(path);
      else if (accept(path, entry)) files.push(path);
    }
  };
  for (const path of paths) {
    if (inputKind(path) === "folder") walk(path);
    else files.push(path);
  }
  return files;
}

/** The stat of an entry, or undefined for a dangling link or a link loop. */
function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ELOOP" || code === "ENOENT") return undefined;
    throw error;
  }
}
