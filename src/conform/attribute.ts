// Which SPEC rules a difference between a target and the reference touches. The first differing
// line says what differed (a verdict, an emission, a record, the guard); small experiments on the
// counterexample say why: if it vanishes when every result is replaced by the reference's hash of
// it, outcome hashing (H2); with the other runs removed, run scoping (R1); without compactions, the
// history was touched by one (R4). Whether config fields are honoured (C1) is the probes' to say.
import type { ResolvedConfig } from "../../models/config.js";
import type { ToolEvent } from "../../models/events.js";
import { normalizeRunId } from "../../models/normalize.js";
import { REFERENCE_TARGET } from "../targets/reference.js";
import { runTarget, type Target } from "../targets/target.js";
import { differenceOf, type FirstDifference } from "./compare.js";
import { ruleOrder } from "./rules.js";

const DETECTOR_RULES: Record<string, readonly string[]> = {
  generic_repeat: ["S1", "S2"],
  known_poll_no_progress: ["D1", "S1"],
  ping_pong: ["S4"],
  unknown_tool_repeat: ["S3", "H3"],
  global_circuit_breaker: ["S1"],
};

interface Parsed {
  readonly index: number;
  readonly kind: string;
  readonly tool: string;
  readonly rest: string[];
}

function parse(line: string | undefined): Parsed | undefined {
  if (line === undefined) return undefined;
  const [index, kind, , tool, ...rest] = line.split(" ");
  return { index: Number(index), kind: kind as string, tool: tool ?? "", rest };
}

/** The rules named by the differing lines alone. */
function directRules(d: FirstDifference): string[] {
  const a = parse(d.reference);
  const b = parse(d.target);
  const rules = new Set<string>();
  const kinds = new Set([a?.kind, b?.kind]);
  if (a === undefined || b === undefined) {
    const only = a ?? b;
    if (only?.kind === "ABORT") ["G2", "G3", "E5"].forEach((r) => rules.add(r));
    else if (only?.kind === "compaction") ["G1", "C5"].forEach((r) => rules.add(r));
    else rules.add("E1");
    return [...rules];
  }
  if (kinds.has("ABORT")) ["G2", "G3", "E5"].forEach((r) => rules.add(r));
  if (d.reference?.endsWith(" ignored") === true || d.target?.endsWith(" ignored") === true) rules.add("E5");
  if (a.kind !== b.kind) return [...rules];
  if (a.tool !== b.tool && a.kind !== "compaction" && !a.rest.includes("ignored")) rules.add("E2");
  switch (a.kind) {
    case "call": {
      const [va, da, ca] = a.rest;
      const [vb, db, cb] = b.rest;
      const sameVerdict = va === vb && da === db && ca === cb;
      if (sameVerdict) rules.add(va === "critical" ? "W2" : "W1");
      else {
        rules.add("D2");
        for (const det of [da, db]) for (const r of DETECTOR_RULES[det ?? ""] ?? []) rules.add(r);
      }
      break;
    }
    case "outcome": {
      const sa = a.rest.at(-1);
      const sb = b.rest.at(-1);
      if (sa === "vetoed" || sb === "vetoed") rules.add("E4");
      else ["R3", "H2"].forEach((r) => rules.add(r));
      break;
    }
    case "compaction":
      ["C5", "G1"].forEach((r) => rules.add(r));
      break;
    case "ABORT":
      rules.add("G4");
      break;
  }
  return [...rules];
}

function differs(target: Target, config: ResolvedConfig, events: readonly ToolEvent[]): boolean {
  return differenceOf(target, config, events) !== undefined;
}

/**
 * The trace with every hashed result replaced by one whose only content is the reference's hash
 * of the original: both engines then see results that differ exactly when the reference's H2
 * says they do. If the difference vanishes, the target hashes outcomes differently (H2).
 */
function withReferenceHashes(config: ResolvedConfig, events: readonly ToolEvent[]): ToolEvent[] {
  const outputs = runTarget(REFERENCE_TARGET, config, events);
  const hashes = new Map<number, string>();
  for (const o of outputs) if (o.kind === "outcome" && o.resultHash !== undefined && !o.resultHash.startsWith("error:")) hashes.set(o.index, o.resultHash);
  return events.map((e, i) => {
    const hash = hashes.get(i);
    if (e.type !== "outcome" || hash === undefined || "error" in e) return e;
    return { ...e, result: { content: [{ type: "text", text: hash }], details: { hash } } };
  });
}

const SEND_TOOLS = new Set(["message", "sessions_send"]);

/** Rules about the post-compaction guard and compaction's effect: a trace without one cannot show them. */
const COMPACTION_RULES: ReadonlySet<string> = new Set(["R4", "G1", "G2", "G3", "G4", "G5", "K6"]);

/**
 * Whether a trace can show a departure from the rule at all. A law's failure that the trace does
 * not reproduce as a difference (the law judged something across runs of the target) is blamed on
 * the law's rules this trace exercises, never on one it cannot touch: R4 or the guard's rules
 * without a compaction, R1's run scoping with a single run.
 */
export function exercisedBy(rule: string, events: readonly ToolEvent[]): boolean {
  if (COMPACTION_RULES.has(rule)) return events.some((e) => e.type === "compaction");
  if (rule === "R1") return new Set(events.map((e) => normalizeRunId(e.runId))).size > 1;
  return true;
}

/**
 * Every rule the difference touches, in matrix order. With `known`, stops as soon as a rule
 * outside it is found (the differential search only needs to know that), skipping the costlier
 * experiments.
 */
export function attribute(target: Target, config: ResolvedConfig, events: readonly ToolEvent[], d: FirstDifference, known?: ReadonlySet<string>): string[] {
  const rules = new Set(directRules(d));
  const index = parse(d.reference ?? d.target)?.index ?? -1;
  const event = events[index];
  if (rules.has("W1") && config.warningThreshold < 10) rules.add("K5");
  const done = () => known !== undefined && [...rules].some((r) => !known.has(r));
  const emissionOnly = [...rules].every((r) => r === "W1" || r === "W2" || r === "K5");
  const experiments: (() => void)[] = [
    () => {
      // A block that did not stick: the reference blocked this same call earlier in its run (E4, H2.4).
      if (d.reference === undefined || !/ critical /.test(d.reference) || d.target === undefined || / critical /.test(d.target) || event?.type !== "call") return;
      const reference = runTarget(REFERENCE_TARGET, config, events);
      const at = reference.find((o) => o.kind === "call" && o.index === index);
      if (reference.some((o) => o.kind === "call" && o.index < index && o.verdict === "critical" && at?.kind === "call" && o.argsHash === at.argsHash && o.run === at.run)) ["E4", "H2"].forEach((r) => rules.add(r));
    },
    () => {
      // An abort the reference does not make, after the window of the run's latest compaction closed (G5).
      if (d.target === undefined || !/ ABORT /.test(` ${d.target}`) || (d.reference !== undefined && / ABORT /.test(` ${d.reference}`))) return;
      const abortIndex = parse(d.target)?.index ?? -1;
      const run = normalizeRunId(events[abortIndex]?.runId);
      const reference = runTarget(REFERENCE_TARGET, config, events.slice(0, abortIndex + 1));
      const lastCompaction = reference.filter((o) => o.kind === "compaction" && o.run === run && o.armed).at(-1);
      const observed = reference.filter((o) => o.kind === "outcome" && o.run === run && o.recorded && lastCompaction !== undefined && o.index > lastCompaction.index).length;
      if (lastCompaction !== undefined && observed > config.postCompactionGuard.windowSize) rules.add("G5");
    },
    () => {
      const canonical = withReferenceHashes(config, events);
      if (canonical.some((e, i) => e !== events[i]) && !differs(target, config, canonical)) {
        rules.add("H2");
        if (event !== undefined && "tool" in event && SEND_TOOLS.has(event.tool.trim().toLowerCase())) rules.add("K1");
      }
    },
    () => {
      if (event === undefined) return;
      const run = normalizeRunId(event.runId);
      const alone = events.filter((e) => normalizeRunId(e.runId) === run);
      if (alone.length < events.length && !differs(target, config, alone)) ["R1", "K2"].forEach((r) => rules.add(r));
    },
    () => {
      const withoutCompactions = events.filter((e) => e.type !== "compaction");
      if (withoutCompactions.length < events.length && !differs(target, config, withoutCompactions) && !rules.has("G3") && !rules.has("G1")) rules.add("R4");
    },
  ];
  // A difference in emission only is W1's (and K5's below 10): the experiments are about verdicts.
  if (!emissionOnly) {
    for (const experiment of experiments) {
      if (done()) break;
      experiment();
    }
  }
  return [...rules].sort(ruleOrder);
}
