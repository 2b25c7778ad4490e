// The loopsim command line: argument parsing with commander, one file per command group. Only
// the group of the command given is loaded when it is known to be light (\`loops\` needs none of the
// target registry its siblings' help names); any other command, a typo or the bare help builds the
// whole program, so help, "did you mean" and every message read as before. Loading every group
// cost about 60 ms of each start, 1-2% of a \`loops\` run over the public datasets.
import { Command } from "commander";
import { VERSION } from "../io/version.js";

/** Commands whose own file registers them alone, without the other groups' imports. */
const LIGHT_COMMANDS: Readonly<Record<string, (program: Command) => Promise<void>>> = {
  loops: async (program) => (await import("./loopsProgram.js")).registerLoopsCommand(program),
};

/**
 * The program, with every command, or with only \`command\`'s when it is one of LIGHT_COMMANDS.
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
  const light = command === undefined || !Object.hasOwn(LIGHT_COMMANDS, command) ? undefined : LIGHT_COMMANDS[command];
  if (light !== undefined) {
    await light(program);
    return program;
  }
  // In the order the help lists them.
  (await import("./coreCommands.js")).registerCoreCommands(program);
  (await import("./simulationCommands.js")).registerSimulationCommands(program);
  (await import("./loopsProgram.js")).registerLoopsCommand(program);
  (await import("./fieldCommands.js")).registerFieldCommands(program);
  return program;
}
