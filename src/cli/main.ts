// Entry point: runs the program and maps every failure to its exit code. User mistakes print
// one clear message and no stack trace; only a bug in loopsim itself shows a stack.
import { CommanderError } from "commander";
import { buildProgram } from "./program.js";
import { chosenDigest } from "../targets/digestChoice.js";
import { fsUserError, isFsError } from "../io/fsErrors.js";
import { CheckFailed, EXIT_INTERNAL, EXIT_USER_ERROR, UserError } from "../io/errors.js";

process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0); // `loopsim trace big.jsonl | head` is fine
  throw error;
});

async function main(argv: string[]): Promise<number> {
  const program = await buildProgram(argv[2]);
  // No command at all: the help is what was asked for, on stdout.
  if (argv.length <= 2) {
    process.stdout.write(program.helpInformation());
    return 0;
  }
  try {
    chosenDigest(); // a wrong LOOPSIM_DIGEST is refused before any work starts
    await program.parseAsync(argv);
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === "commander.helpDisplayed" || error.code === "commander.version" || error.code === "commander.help") return 0;
      return EXIT_USER_ERROR; // commander already printed the reason
    }
    if (error instanceof UserError || error instanceof CheckFailed) {
      process.stderr.write(`loopsim: ${error.message}\n`);
      return error.exitCode;
    }
    if (isFsError(error)) {
      // A file-system failure no call site named: still the user's to fix, still one line.
      process.stderr.write(`loopsim: ${fsUserError(error).message}\n`);
      return EXIT_USER_ERROR;
    }
    process.stderr.write(`loopsim: internal error (a bug in loopsim, please report it):\n${(error as Error).stack ?? String(error)}\n`);
    return EXIT_INTERNAL;
  }
}

const code = await main(process.argv);
process.exitCode = code;
// Diagnostic for the benchmark: the peak resident set of this process, in kilobytes.
if (process.env.LOOPSIM_REPORT_RSS === "1") process.stderr.write(`loopsim: peak rss ${process.resourceUsage().maxRSS} kB\n`);
