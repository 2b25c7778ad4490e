// `loopsim field` and `loopsim field replay`: the matrix of reported guard failures (src/field).
import { Command, InvalidArgumentError } from "commander";
import { CheckFailed, UserError } from "../io/errors.js";
import type { ConfigVariantName } from "../field/configVariants.js";
import type { CellStatus } from "../field/report.js";
import type { DrivenScope } from "../field/run.js";

const repeatable = (value: string, previous: string[]) => [...previous, value];

function drivenScope(value: string): DrivenScope {
  if (value !== "own" && value !== "all" && value !== "none") throw new InvalidArgumentError(`must be own, all or none (got "${value}")`);
  return value;
}

function cellStatus(value: string): CellStatus {
  if (value !== "failure" && value !== "let-through" && value !== "fixed" && value !== "n/a" && value !== "not-run") throw new InvalidArgumentError(`must be failure, let-through, fixed, n/a or not-run (got "${value}")`);
  return value;
}

function configName(value: string): ConfigVariantName {
  if (value !== "default" && value !== "enabled" && value !== "scenario") throw new InvalidArgumentError(`must be default, enabled or scenario (got "${value}")`);
  return value;
}

export function registerFieldCommands(program: Command): void {
  const field = program
    .command("field")
    .description("replay the guard failures users reported in public threads (scenarios/field) on every target: the field matrix")
    .argument("[paths...]", "field scenario files or folders (default: the scenarios/field shipped with loopsim)")
    .option("--target <name>", "a column, repeatable (default: the reference, every peer model, the 11 releases of the release matrix, gemini-cli@0.29.0 and @0.61.0, and the driven runtimes)", repeatable, [] as string[])
    .option("--driven <scope>", "which scenarios the driven CLIs run: own (their runtime's), all, or none", drivenScope, "own" as DrivenScope)
    .option("--out <dir>", "write field.{md,json,html} here")
    .option("--check", "with --out: compare with DIR/field.json instead of writing; exit 1 when a cell changed")
    .option("--json", "print the JSON report")
    .option("--no-fetch", "leave releases and runtimes not in the cache as 'not run' columns instead of fetching them")
    .option("--force", "overwrite field.{md,json,html} already in --out")
    .action(async (paths: string[], opts: { target: string[]; driven: DrivenScope; out?: string; check?: boolean; json?: boolean; fetch: boolean; force?: boolean }) => {
      const { planField, runField, fieldWroteText } = await import("../commands/field.js");
      const { writeFileAtomic } = await import("../io/atomicWrite.js");
      const { join } = await import("node:path");
      const plan = planField({ paths, targets: opts.target, driven: opts.driven, out: opts.out, check: opts.check === true, json: opts.json === true, fetch: opts.fetch, force: opts.force === true });
      const run = await runField(plan, {
        note: (line) => process.stderr.write(line + "\n"),
        column: (name, done, total) => {
          if (process.stderr.isTTY === true) process.stderr.write(`field: ${done}/${total} ${name}\n`);
        },
      });
      if (run.kind === "check") {
        if (run.failing !== undefined) throw new CheckFailed(run.failing);
        process.stdout.write(run.text);
        return;
      }
      const out = plan.out;
      if (out !== undefined) {
        writeFileAtomic(join(out, "field.md"), run.markdown);
        writeFileAtomic(join(out, "field.json"), run.json);
        writeFileAtomic(join(out, "field.html"), run.html);
      }
      process.stdout.write(plan.json ? run.json : out === undefined ? run.markdown : fieldWroteText(run.report, out));
    });
  field
    .command("replay")
    .description("replay one cell of the field matrix call by call: a field scenario on one target")
    .argument("<file>", "a field scenario file")
    .option("--target <name>", "the target (reference, a peer model, openclaw@V, gemini-cli@V, opencode@V, qwen-code@V, ...)")
    .option("--config <which>", "judge with OpenClaw's default config, with loop detection enabled, or with the scenario's own config (default: scenario)", configName)
    .option("--expect <verdict>", "exit 1 unless the verdict is this: failure, let-through, fixed, n/a or not-run", cellStatus)
    .option("--json", "print the cell and every call as JSON")
    .option("--no-fetch", "say 'not run' instead of fetching a release or runtime not in the cache")
    .action(async (file: string, opts: { target?: string; config?: ConfigVariantName; expect?: CellStatus; json?: boolean; fetch: boolean }, command: Command) => {
      // commander hands options field also has (--target, --json, --no-fetch) to field: read them there too.
      const parent = (command.parent?.opts() ?? {}) as { target?: string[]; json?: boolean; fetch?: boolean };
      const target = opts.target ?? parent.target?.at(-1);
      if (target === undefined) throw new UserError("field replay needs --target NAME");
      const { replayFieldCell } = await import("../commands/field.js");
      const json = opts.json === true || parent.json === true;
      const cell = await replayFieldCell(file, { target, json, fetch: opts.fetch && parent.fetch !== false, ...(opts.config === undefined ? {} : { config: opts.config }), ...(opts.expect === undefined ? {} : { expect: opts.expect }) }, (line) => process.stderr.write(line + "\n"));
      process.stdout.write(json ? cell.json : cell.text);
      if (cell.failing !== undefined) throw new CheckFailed(cell.failing);
    });
}
