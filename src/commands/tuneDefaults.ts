// What tune does when an option is left out, in a module of its own so the command line can name
// it in the help without loading the sweep.

/** Where tune writes when --out is not given, unless --json asks for stdout alone. */
export const DEFAULT_TUNE_OUT = "reports/latest";
