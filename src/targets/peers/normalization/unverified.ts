// The runtimes whose step from the model's call to their guard could not be read here (Python
// packages, a minified bundle not in the cache): names and args as given, missing, null and {}
// three different values. Each model says so in its notes.
import { asGiven } from "./callView.js";

const RULE = "name and args as given (missing, null and {} differ); its own normalisation, if any, was not read";

export const OPENHANDS_NORMALIZATION = asGiven("openhands", RULE, "not read: openhands-sdk is a Python package, PyPI cannot be reached here");
export const CLINE_NORMALIZATION = asGiven("cline", RULE, "not read: cline's LoopDetectionTracker is in a minified bundle not in the cache");
export const CREWAI_NORMALIZATION = asGiven("crewai", RULE, "not read: crewai is a Python package, PyPI cannot be reached here");
export const NO_GUARD_NORMALIZATION = asGiven("none", "name and args as given (no guard looks at them)", "n/a");
