// Every command example in README.md and docs/guide/*.md runs as written: each ```sh block, in
// page order, with /tmp/ replaced by a private folder (pages share it, as a reader's /tmp is
// shared: a config written in one guide is used in the next). A line whose comment says
// "# exit N" must exit N; any other failing line fails its block. A block preceded by
// `<!-- docs-test: slow (WHY) -->` runs only with LOOPSIM_DOCS=all (it takes minutes, fetches
// runtimes, or regenerates a committed report), `<!-- docs-test: cached (TARGET) -->` runs when
// that release or runtime is in loopsim's cache (it would fetch it otherwise), and
// `<!-- docs-test: never (WHY) -->` marks the set-up commands this suite is itself run by; each
// prints SKIPPED with the reason when it does not run. Blocks that read ../shared/corpus say
// SKIPPED when it is not there.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cacheRoot } from "../src/targets/openclaw/cache.js";
import { needsFetch } from "../src/targets/registry.js";
import { tempDir } from "./cli/run.js";

const ROOT = join(import.meta.dirname, "..");
const ALL = process.env.LOOPSIM_DOCS === "all";
const HAVE_CORPUS = existsSync(join(ROOT, "..", "shared", "corpus"));
// The README first, then the guides in the order a reader meets their files.
const GUIDE_ORDER = ["replay-a-session.md", "check-your-detector.md", "release-matrix.md", "tune-thresholds.md", "compare-runtimes.md", "field-matrix.md", "formats.md", "property-suite.md", "running-at-scale.md", "performance.md"];

interface Block {
  readonly page: string;
  readonly line: number;
  readonly script: string;
  readonly mark?: { readonly kind: "slow" | "never" | "cached"; readonly why: string };
}

function blocksOf(page: string): Block[] {
  const text = readFileSync(join(ROOT, page), "utf8");
  const out: Block[] = [];
  for (const m of text.matchAll(/(?:<!-- docs-test: (slow|never|cached) \(([^)]*)\) -->\n[ ]*)?```sh\n([\s\S]*?)```/g)) {
    const line = text.slice(0, m.index).split("\n").length + (m[1] === undefined ? 0 : 1);
    out.push({ page, line, script: m[3] as string, ...(m[1] === undefined ? {} : { mark: { kind: m[1] as "slow" | "never" | "cached", why: m[2] as string } }) });
  }
  return out;
}

/** The block as a bash script: strict, with "# exit N" lines allowed (and required) to exit N. */
function asScript(block: string, tmp: string): string {
  const lines = block.replaceAll("/tmp/", `${tmp}/`).split("\n");
  const out = ["set -euo pipefail"];
  let inHeredoc: string | undefined;
  let continued = "";
  for (const raw of lines) {
    if (inHeredoc !== undefined) {
      out.push(raw);
      if (raw === inHeredoc) inHeredoc = undefined;
      continue;
    }
    const heredoc = /<<'?(\w+)'?/.exec(raw);
    if (heredoc !== null) {
      out.push(raw);
      inHeredoc = heredoc[1];
      continue;
    }
    if (raw.endsWith("\\")) {
      continued += raw.slice(0, -1) + " ";
      continue;
    }
    const line = continued + raw;
    continued = "";
    const code = /#\s*exit (\d+)\b/.exec(line)?.[1];
    if (code === undefined) out.push(line);
    else out.push(`set +e; ${line.replace(/#.*$/, "")}; status=$?; set -e; [ "$status" -eq ${code} ] || { echo "expected exit ${code}, got $status: ${line.replace(/["`$\\]/g, "")}" >&2; exit 1; }`);
  }
  return out.join("\n") + "\n";
}

const pages = ["README.md", ...GUIDE_ORDER.filter((p) => readdirSync(join(ROOT, "docs", "guide")).includes(p)).map((p) => join("docs", "guide", p))];
const blocks = pages.flatMap(blocksOf);
/** Whether a marked block runs here, or why not. */
function skipReason(b: Block): string | undefined {
  if (b.mark === undefined) return undefined;
  if (b.mark.kind === "cached") return needsFetch(b.mark.why) ? `needs ${b.mark.why} in loopsim's cache (${cacheRoot()}), and would fetch it` : undefined;
  if (b.mark.kind === "slow") return ALL ? undefined : `${b.mark.why} (LOOPSIM_DOCS=all runs it)`;
  return b.mark.why;
}
const tmp = tempDir();
for (const b of blocks) {
  const why = skipReason(b);
  if (why !== undefined) console.log(`SKIPPED: the example at ${b.page}:${b.line}: ${why}`);
  else if (!HAVE_CORPUS && b.script.includes("../shared/corpus")) console.log(`SKIPPED: the example at ${b.page}:${b.line} reads ../shared/corpus, which is not here`);
}

describe("every command example in the README and the guides", () => {
  it("every guide page is in the order above, and every page has its examples", () => {
    expect(readdirSync(join(ROOT, "docs", "guide")).filter((f) => f.endsWith(".md")).sort()).toEqual([...GUIDE_ORDER].sort());
    expect(blocks.length).toBeGreaterThan(20);
  });

  // One test, in page order: later examples use files earlier ones wrote.
  it("runs as written", { timeout: ALL ? 3_600_000 : 420_000 }, () => {
    for (const b of blocks) {
      if (skipReason(b) !== undefined) continue;
      if (!HAVE_CORPUS && b.script.includes("../shared/corpus")) continue;
      const started = process.hrtime.bigint();
      const r = spawnSync("bash", ["-c", asScript(b.script, tmp)], { cwd: ROOT, encoding: "utf8", timeout: ALL ? 3_600_000 : 120_000, maxBuffer: 256 * 1024 * 1024, env: { ...process.env, FORCE_COLOR: "0" } });
      if (process.env.LOOPSIM_DOCS_TIMES === "1") console.log(`docs example ${b.page}:${b.line}: ${(Number(process.hrtime.bigint() - started) / 1e9).toFixed(1)} s`);
      expect(r.status, `${b.page}:${b.line}\n${b.script}\n--- stderr ---\n${r.stderr.slice(-3000)}`).toBe(0);
    }
  });
});
