// The committed reports name only what is in the repository or public (a dataset folder, a script,
// a commit): never a work folder of the machine they were made on (/work/...), which a reader of the
// repository cannot open. Provenance that pointed there (reading samples, a stretch viewer) now
// names the committed files (scripts/recall/); this keeps it so.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { loopsim, tempDir } from "./cli/run.js";

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

describe("scripts/recall/show-stretch.mjs, the stretch viewer the precision protocol names", () => {
  it("shows a catalogue's stretch call by call with its context, and exits 2 on an id the catalogue lacks", () => {
    const out = tempDir();
    expect(loopsim(["loops", "test/fixtures/real-loops", "--out", out], undefined, ROOT).code).toBe(0);
    const show = (id: string) => spawnSync(process.execPath, ["scripts/recall/show-stretch.mjs", id, "--catalogue", join(out, "real-loops.json"), "--context", "1"], { cwd: ROOT, encoding: "utf8" });
    const r = show("javac-loop.jsonl@3");
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^javac-loop\.jsonl@3 {2}calls #3-#8 of 10 {2}repeat \(identical\)/);
    expect(r.stdout).toContain("   #2 read");
    expect(r.stdout).toContain('>> #8 exec\n   args:   {"command":"javac src/A.java"}');
    expect(r.stdout).toContain("   #9 read");
    // One call of context each side: #2 and #9, not #1.
    expect(r.stdout).not.toMatch(/^ {3}#1 /m);
    const missing = show("javac-loop.jsonl@4");
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain("javac-loop.jsonl@4: no such stretch in");
  });
});

describe("scripts/recall/show-session.mjs, the whole-session viewer the batch-12 recall readers used", () => {
  it("lists sessions with their call counts, shows one whole with no miner verdict, and exits 2 on a session the folder lacks", () => {
    const show = (...args: string[]) => spawnSync(process.execPath, ["scripts/recall/show-session.mjs", "test/fixtures/real-loops", ...args], { cwd: ROOT, encoding: "utf8" });
    const listed = show("--list");
    expect(listed.status, listed.stderr).toBe(0);
    expect(listed.stdout).toContain("javac-loop.jsonl\t10\n");
    const r = show("javac-loop.jsonl", "--width", "200");
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^javac-loop\.jsonl {2}calls=10\n/);
    expect(r.stdout).toContain('#8 exec\n   args:   {"command":"javac src/A.java"}');
    // Blind reading: the viewer names no rule and no refusal, only what the recording says.
    expect(r.stdout).not.toMatch(/repeat|identical|refused/);
    const missing = show("nowhere.jsonl");
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain("nowhere.jsonl: no such session under test/fixtures/real-loops");
  });
});
