// The roots a command lists sessions under (`--population sessions:A --population sessions:B`,
// `--sessions A B`). Each session is named by its path relative to the root it was found under,
// so the same folder given twice, or a folder given beside one that holds it, would list its
// sessions twice under two names and count them twice in every rate. Those are refused before any
// session is read, as is a root that does not exist, each message naming the root as it was given.
import { realpathSync } from "node:fs";
import { isAbsolute, relative, sep } from "node:path";
import { UserError } from "./errors.js";
import { inputProblem } from "./fsErrors.js";

/** Refuses a missing root, a root given twice and a root inside another; `flagOf` names a root as the user typed it. */
export function refuseOverlappingRoots(roots: readonly string[], flagOf: (root: string) => string): void {
  const seen: { readonly root: string; readonly real: string }[] = [];
  for (const root of roots) {
    // `-` is standard input, not a path.
    if (root === "-") continue;
    const problem = inputProblem(root);
    if (problem !== undefined) throw new UserError(`${flagOf(root)}: ${problem.reason}`);
    // Real paths, so that `a`, `./a` and a link to `a` are the same root.
    const real = realpathSync(root);
    for (const other of seen) {
      if (other.real === real) throw new UserError(`${flagOf(root)}: the same sessions as ${flagOf(other.root)}: give each folder once (its sessions would be counted twice)`);
      const [outer, inner] = within(other.real, real) ? [other, { root, real }] : within(real, other.real) ? [{ root, real }, other] : [undefined, undefined];
      if (outer !== undefined && inner !== undefined) throw new UserError(`${flagOf(inner.root)}: lies inside ${flagOf(outer.root)}: its sessions would be counted twice, under two names; give only ${flagOf(outer.root)}`);
    }
    seen.push({ root, real });
  }
}

/** Whether `path` lies strictly inside the folder `folder`. */
function within(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel !== "" && rel.split(sep)[0] !== ".." && !isAbsolute(rel);
}
