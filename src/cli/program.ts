// The loopsim command line: argument parsing with commander, one file per command group. A start
// loads only the group that registers the command given: each group's imports (the target
// registry its help names, the simulator's families and presets, the field's runtimes) cost tens
// of milliseconds, and a start with all four took about 0.25 s against 0.14 s for one (`loops`
// alone), paid by every CLI call, hundreds of times in the test suite. No command, an option
// alone (--help, --version), `help`, or a name no group registers (a typo) builds the whole
// program, so the full help and "did you mean" read as before. test/cli/commandGroups.test.ts
// holds every command's help, built alone, to its help in the whole program.
import { Command } from "commander";
import { VERSION } from "../io/version.js";

type Register = (program: Command) => Promise<void>;

const core: Register = async (program) => (await import("./coreCommands.js")).registerCoreCommands(program);
const simulation: Register = async (program) => (await import("./simulationCommands.js")).registerSimulationCommands(program);
const loops: Register = async (program) => (await import("./loopsProgram.js")).registerLoopsCommand(program);
const field: Register = async (program) => (await import("./fieldCommands.js")).registerFieldCommands(program);

/** The groups in the order the help lists them. */
const GROUPS: readonly Register[] = [core, simulation, loops, field];

/** Each top-level command and the group that registers it. */
export const COMMAND_GROUPS: Readonly<Record<string, Register>> = {
  trace: core,
  config: core,
  targets: core,
  conform: core,
  import: core,
  scan: core,
  scenario: core,
  tune: simulation,
  compare: simulation,
  calibrate: simulation,
  "fit-changing-args": simulation,
  merge: simulation,
  replay: simulation,
  simulate: simulation,
  loops,
  field,
};

/**
 * The program, with every command, or with only the group of `command` when a group registers it.
 *
 * @param command - the first argument after the program's name, when there is one.
 */
export async function buildProgram(command?: string): Promise<Command> {
  const program = new Command();
  program
    .name("loopsim")
    .description("Deterministic simulation and property testing of tool-loop guardrails (OpenClaw tools.loopDetection)")
    .version(VERSION, "-v, --version", "print the loopsim version")
    .showHelpAfterError("(run with --help for usage)")
    // Every message loopsim prints about a user's mistake starts with "loopsim:", commander's too.
    .configureOutput({ outputError: (text, write) => write(text.replace(/^error: /, "loopsim: ")) })
    .exitOverride();
  const group = command === undefined || !Object.hasOwn(COMMAND_GROUPS, command) ? undefined : COMMAND_GROUPS[command];
  for (const register of group === undefined ? GROUPS : [group]) await register(program);
  return program;
}
