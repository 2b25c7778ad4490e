// The loop guard this project ships, as a loopsim target. Here it is a fork of loopsim's
// reference engine (the SPEC as written) that a guard author would change; a real project wraps
// its own detector the same way: `start(config)` returns a session whose `step(event)` answers
// each event (see loopsim's `Target` type, and examples/custom-target in loopsim).
import { REFERENCE_TARGET } from "loopsim";

export default {
  ...REFERENCE_TARGET,
  name: "my-guard",
  summary: "this project's loop guard",
};
