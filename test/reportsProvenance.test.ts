// The committed reports name only what is in the repository or public (a dataset folder, a script,
// a commit): never a work folder of the machine they were made on (/work/...), which a reader of the
// repository cannot open. Provenance that pointed there (reading samples, a stretch viewer) now
// names the committed files (scripts/recall/); this keeps it so.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..");
/** Folders under reports/ that are never committed (.gitignore): a local run may write anything there. */
const NOT_COMMITTED = new Set(["latest", "mutation"].map((d) => join(ROOT, "reports", d)));

function filesUnder(dir: string): string[] {
  if (NOT_COMMITTED.has(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));
}

describe("committed reports", () => {
  it("never send a reader to a work folder (/work/...)", () => {
    const offending = filesUnder(join(ROOT, "reports"))
      .filter((file) => readFileSync(file, "utf8").includes("/work/"))
      .map((file) => relative(ROOT, file));
    expect(offending, "name the committed file instead (scripts/recall/..., the report's own command)").toEqual([]);
  });
});
