// The same guard with one bug a refactor could bring in: it drops each event's runId, so every
// run shares one history and a heartbeat's short runs add up to a loop (OpenClaw #40144).
// loopsim's scenarios and laws on run scoping catch it.
import guard from "./guard.mjs";

export default {
  ...guard,
  name: "my-guard-broken",
  start(config) {
    const session = guard.start(config);
    return { step: (event) => session.step({ ...event, runId: "shared" }).map((o) => ({ ...o, run: event.runId ?? "" })) };
  },
};
