// The loopsim command line: argument parsing with commander, one file per command.
import { Command, InvalidArgumentError } from "commander";
import { configFromOptions } from "../io/configFile.js";
import { configCommand } from "../commands/config.js";
import { traceCommand } from "../commands/trace.js";
import { registerSimulationCommands, TARGET_HELP } from "./simulationCommands.js";
import { resolveTarget } from "../targets/registry.js";
import { ORACLE_TARGET } from "../targets/reference.js";

import { VERSION } from "./version.js";

export function positiveInt(name: string): (value: string) => number {
  return (value: string) => {
    if (!/^[1-9][0-9]*$/.test(value)) throw new InvalidArgumentError(`${name} must be a positive integer (got "${value}")`);
    return Number(value);
  };
}

export function nonNegativeInt(name: string): (value: string) => number {
  return (value: string) => {
    if (!/^(0|[1-9][0-9]*)$/.test(value)) throw new InvalidArgumentError(`${name} must be a whole number (got "${value}")`);
    return Number(value);
  };
}

export function buildProgram(): Command {
  const program = new Command();
  program
    .name("loopsim")
    .description("Deterministic simulation and property testing of tool-loop guardrails (OpenClaw tools.loopDetection)")
    .version(VERSION)
    .showHelpAfterError("(run with --help for usage)")
    .exitOverride();

  program
    .command("trace")
    .description("run a JSONL trace of call/outcome/compaction events through a loop guard (the reference by default)")
    .argument("<file>", "trace file (.jsonl), or - for stdin")
    .option("--config <file>", "OpenClaw config file (JSON or JSON5)")
    .option("--agent <id>", "agent whose agents.list override applies")
    .option("--json", "one JSON object per input event instead of the timeline")
    .option("--oracle", "short for --target oracle: the plain rescanning oracle")
    .option("--target <name>", TARGET_HELP, "reference")
    .action(async (file: string, opts: { config?: string; agent?: string; json?: boolean; oracle?: boolean; target: string }) => {
      const config = configFromOptions(opts.config, opts.agent);
      const target = opts.oracle === true ? ORACLE_TARGET : await resolveTarget(opts.target);
      await traceCommand(file, { config, json: opts.json === true, target });
    });

  program
    .command("config")
    .description("validate a config file and show the effective tools.loopDetection, with repairs")
    .argument("<file>", "OpenClaw config file (JSON or JSON5)")
    .option("--agent <id>", "agent whose agents.list override applies")
    .option("--json", "machine-readable output")
    .action((file: string, opts: { agent?: string; json?: boolean }) => {
      configCommand(file, opts.agent, opts.json === true);
    });

  registerSimulationCommands(program);
  return program;
}
