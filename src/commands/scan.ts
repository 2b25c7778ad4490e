// `loopsim scan PATH... [--config F] [--agent ID] [--target T] [--json] [--out DIR]`: every session
// under the paths through a target, one at a time (a large folder streams), with a summary.
import { join } from "node:path";
import cliProgress from "cli-progress";
import type { ResolvedConfig } from "../../models/config.js";
import { UserError } from "../cli/errors.js";
import { sessionFiles } from "../import/session.js";
import { writeFileAtomic } from "../io/atomicWrite.js";
import { ensureWritableDir } from "../io/writable.js";
import { renderScanHtml, renderScanMarkdown, summarise, type ScanReport } from "../scan/render.js";
import { scanSession, type SessionScan } from "../scan/scanSession.js";
import type { Target } from "../targets/target.js";

export interface ScanOptions {
  readonly config: ResolvedConfig;
  readonly configLabel: string;
  readonly target: Target;
  readonly json: boolean;
  readonly out?: string;
}

export async function scanCommand(paths: readonly string[], options: ScanOptions): Promise<void> {
  if (options.out !== undefined) ensureWritableDir(options.out);
  const files = sessionFiles(paths);
  if (files.length === 0) throw new UserError(`no session files (*.jsonl, *.traj, *.traj.json) under ${paths.join(", ")}`);
  const bar = process.stderr.isTTY === true && !options.json ? new cliProgress.SingleBar({ stream: process.stderr, format: "scan [{bar}] {value}/{total} sessions", hideCursor: true }, cliProgress.Presets.shades_classic) : undefined;
  bar?.start(files.length, 0);
  const sessions: SessionScan[] = [];
  try {
    for (const file of files) {
      sessions.push(await scanSession(file, options.config, options.target));
      bar?.increment();
    }
  } finally {
    bar?.stop();
  }
  const report: ScanReport = { schema: "loopsim/scan@1", target: options.target.name, config: options.configLabel, sessions, summary: summarise(sessions) };
  const markdown = renderScanMarkdown(report);
  if (options.out !== undefined) {
    writeFileAtomic(join(options.out, "scan.json"), JSON.stringify(report, null, 2) + "\n");
    writeFileAtomic(join(options.out, "scan.md"), markdown);
    writeFileAtomic(join(options.out, "scan.html"), renderScanHtml(report));
  }
  process.stdout.write(options.json ? JSON.stringify(report, null, 2) + "\n" : markdown);
}
