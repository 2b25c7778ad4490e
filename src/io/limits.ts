// Bounds on what a run may be asked for, checked wherever a run is planned (the command line's
// option parsers and the library's plan functions), so both refuse the same values.

/** Simulated agents per config or guard: beyond this a run takes days, and its arrays exhaust memory. */
export const MAX_AGENTS = 100_000;
/** Worker threads: more than cores only adds start-up cost; the bound keeps a typo from spawning thousands. */
export const MAX_WORKERS = 256;
/** `loops --min`: the longest repeat a user may ask for, far above any stretch worth reading. */
export const MAX_LOOPS_MIN = 10_000;
