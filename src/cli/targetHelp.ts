// The --target option's help: every target's name, from the registry. Apart from the option
// parsers (options.ts) so that a command without --target (\`loops\`) starts without loading every
// target's code.
import { targetNamesHelp } from "../targets/registry.js";

export const TARGET_HELP = `loop guard to run: ${targetNamesHelp()}`;
