// An example adapter: a loop guard that is not built into loopsim, put under test with
// `--target ./examples/custom-target/consecutive-guard.mjs`. It is the simplest design in the
// wild: block a call when the same tool and arguments come N times in a row (results not
// compared, no warning level, no post-compaction guard). Copy this file to wrap your own
// detector: `start(config)` returns a session whose `step(event)` answers each event in loopsim's
// output vocabulary (see src/targets/target.ts).
import { createHash } from "node:crypto";

const LIMIT = 4; // the 4th identical call in a row is blocked

/** A stable serialization: object keys sorted, cycles written as a back-reference. */
function stable(value, seen = []) {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  const back = seen.indexOf(value);
  if (back !== -1) return `#cycle(${seen.length - back})`;
  const inner = [...seen, value];
  if (Array.isArray(value)) return `[${value.map((v) => stable(v, inner)).join(",")}]`;
  return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${stable(value[k], inner)}`).join(",")}}`;
}

const hashOf = (tool, params) => `${tool}:${createHash("sha256").update(stable(params)).digest("hex")}`;
const normalizeTool = (tool) => {
  const t = String(tool).trim().toLowerCase();
  return t === "bash" ? "exec" : t === "apply-patch" ? "apply_patch" : t;
};
const normalizeRun = (runId) => (runId === undefined ? "" : String(runId).trim());

export default {
  name: "consecutive-guard",
  summary: `example adapter: blocks the ${LIMIT}th identical call in a row (results not compared)`,
  capabilities: {
    rollingDetectors: true,
    warningLevel: false,
    warningPolicy: false,
    guard: false,
    counts: false,
    honours: ["enabled"],
    detectors: ["consecutive_repeat"],
    stateSize: false,
  },
  notes: [`Counts consecutive identical calls per run; resets on any other call. enabled: true turns it on.`],
  start(config) {
    const lastByRun = new Map(); // run -> { hash, streak }
    const blocked = new Set();
    let index = 0;
    return {
      step(event) {
        const at = index++;
        const run = normalizeRun(event.runId);
        if (event.type === "compaction") return [{ kind: "compaction", index: at, run, armed: false }];
        const tool = normalizeTool(event.tool);
        const argsHash = hashOf(tool, event.params);
        if (event.type === "outcome") {
          const key = `${run}\u0000${argsHash}\u0000${event.callId ?? ""}`;
          if (blocked.delete(key)) return [{ kind: "outcome", index: at, run, tool, recorded: false, vetoed: true, argsHash, resultHash: undefined, unknownTool: undefined }];
          const recorded = event.result !== undefined || event.error !== undefined;
          return [{ kind: "outcome", index: at, run, tool, recorded, vetoed: false, argsHash, resultHash: undefined, unknownTool: undefined }];
        }
        if (config.enabled !== true) return [{ kind: "call", index: at, run, tool, argsHash, verdict: "allow" }];
        const last = lastByRun.get(run);
        const streak = last !== undefined && last.hash === argsHash ? last.streak + 1 : 1;
        lastByRun.set(run, { hash: argsHash, streak });
        if (streak < LIMIT) return [{ kind: "call", index: at, run, tool, argsHash, verdict: "allow" }];
        blocked.add(`${run}\u0000${argsHash}\u0000${event.callId ?? ""}`);
        const message = `CRITICAL: ${tool} called ${streak} times in a row with identical arguments; blocked.`;
        return [{ kind: "call", index: at, run, tool, argsHash, verdict: "critical", detector: "consecutive_repeat", count: streak, warningKey: `consecutive:${argsHash}`, message, emitted: true }];
      },
    };
  },
};
