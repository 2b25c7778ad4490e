// Normalisation (SPEC H1, H2.5, H2.7, E2): permuting object keys, changing only exec's volatile
// fields or a send's fresh ids, or spelling a runId or tool name another way (padding, case, the
// bash alias) never changes a verdict.
import { configFrom } from "../../models/configResolution.js";
import { runTarget } from "../../src/targets/target.js";
import type { ToolEvent } from "../../models/events.js";
import { normalizeToolName } from "../../models/normalize.js";
import { isPlainObject } from "../../models/outcomeHash.js";
import { outputJsonLine } from "../../src/format/outputJson.js";
import { broken, type Law } from "./law.js";
import { configuredTrace, draft, tagOutputs, type ConfiguredTrace } from "./common.js";

function reverseKeys(value: unknown, seen = new Map<object, unknown>()): unknown {
  if (typeof value !== "object" || value === null) return value;
  const known = seen.get(value);
  if (known !== undefined) return known;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    seen.set(value, out);
    for (const item of value) out.push(reverseKeys(item, seen));
    return out;
  }
  const out: Record<string, unknown> = {};
  seen.set(value, out);
  for (const key of Object.keys(value).reverse()) out[key] = reverseKeys((value as Record<string, unknown>)[key], seen);
  return out;
}

const EXEC_VOLATILE = ["durationMs", "pid", "sessionId", "cwd"];
const SEND_IDS = ["messageId", "ts", "receipt", "runId", "idempotencyKey"];

function perturbVolatile(event: ToolEvent, salt: number): ToolEvent {
  if (event.type !== "outcome" || !isPlainObject(event.result) || !isPlainObject(event.result.details)) return event;
  const tool = normalizeToolName(event.tool);
  const details: Record<string, unknown> = { ...event.result.details };
  if (tool === "exec") {
    for (const key of EXEC_VOLATILE) if (key in details) details[key] = typeof details[key] === "number" ? (details[key] as number) + 7919 * (salt + 1) : `${String(details[key])}~${salt}`;
  } else if (tool === "message" || tool === "sessions_send") {
    for (const key of SEND_IDS) if (key in details) details[key] = `fresh-${salt}`;
    if (isPlainObject(details.message)) details.message = { ...details.message, id: `fresh-${salt}` };
  } else return event;
  return { ...event, result: { ...event.result, details } };
}

/** E2: the same run and tool spelt another way (padded runId, tool case and padding, the bash alias). */
function respell(event: ToolEvent, i: number): ToolEvent {
  if (i % 2 === 0) return event;
  const runId = event.runId === undefined ? undefined : ` ${event.runId}\t`;
  if (event.type !== "call" && event.type !== "outcome") return { ...event, runId };
  const tool = normalizeToolName(event.tool);
  const spelt = tool === "exec" && i % 4 === 1 ? "Bash" : tool === "apply_patch" && i % 4 === 3 ? "apply-patch" : ` ${tool.toUpperCase()} `;
  return { ...event, runId, tool: spelt };
}

export const normalisationInvariant: Law<ConfiguredTrace> = {
  name: "normalisation-never-changes-verdicts",
  spec: ["H1", "H2", "E2"],
  needs: ["rollingDetectors"],
  arbitrary: configuredTrace({ enabled: [true] }, { cyclic: true }),
  runs: 200,
  required: ["generic_repeat:critical", "generic_repeat:warning", "perturbed-exec", "perturbed-send", "respelled-run"],
  check(value, subject, coverage) {
    const config = configFrom(value.block);
    const original = runTarget(subject, config, value.events);
    tagOutputs(coverage, original);
    const transformed = value.events.map((e, i) => {
      const perturbed = perturbVolatile(e, i);
      if (perturbed !== e) coverage.hit(normalizeToolName(e.type === "call" || e.type === "outcome" ? e.tool : "") === "exec" ? "perturbed-exec" : "perturbed-send");
      const respelt = respell(perturbed, i);
      if (respelt !== perturbed && e.runId !== undefined && e.runId.trim() !== "") coverage.hit("respelled-run");
      return reverseKeys(respelt) as ToolEvent;
    });
    const after = runTarget(subject, config, transformed);
    const a = original.map(outputJsonLine);
    const b = after.map(outputJsonLine);
    const at = a.findIndex((line, i) => line !== b[i]);
    if (at !== -1) broken(`output ${at} changed after permuting keys, volatile fields and spellings: ${a[at]} became ${b[at] ?? "nothing"}`);
  },
  scenario: (value) => draft(value, ["H1", "H2"], "Counterexample: a verdict depends on key order, exec volatile fields or send ids."),
};
