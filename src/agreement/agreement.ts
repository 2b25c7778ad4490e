// A model against the real runtime it describes: every pinned probe runs on both, and each
// difference is named. The real side is either a runtime's own code in-process (an event-level
// target such as gemini-cli@V) or its CLI driven through the scripted model (opencode@V, ...).
import type { DrivenRuntime, PromptObservation, ToolNaming } from "../targets/runtimes/drivenRuntime.js";
import type { Target } from "../targets/target.js";
import { differences, type Difference } from "./compareObservations.js";
import { runProbeOnTarget } from "./eventProbe.js";
import type { Probe } from "./probeSet.js";

export const AGREEMENT_SCHEMA = "loopsim/agreement@1";

export interface RealSubject {
  readonly name: string;
  readonly summary: string;
  readonly how: "in-process" | "driven CLI";
  readonly naming: ToolNaming;
  /** How many probes may be observed at once: driven CLIs each run in their own sandbox, scratch
   * folder and scripted model, so several can run side by side; in-process code runs one. */
  readonly parallel: number;
  observe(probe: Probe): Promise<readonly PromptObservation[] | { readonly error: string }>;
}

export interface ProbeAgreement {
  readonly probe: string;
  readonly what: string;
  /** agree, differ, or n/a (the real runtime could not be observed: the reason is given). */
  readonly verdict: "agree" | "differ" | "n/a";
  readonly differences: readonly Difference[];
  readonly reason?: string;
  readonly model: readonly PromptObservation[];
  readonly runtime?: readonly PromptObservation[];
}

export interface AgreementReport {
  readonly schema: typeof AGREEMENT_SCHEMA;
  readonly model: string;
  readonly against: string;
  readonly how: RealSubject["how"];
  readonly summary: string;
  readonly agree: number;
  readonly differ: number;
  readonly na: number;
  readonly probes: readonly ProbeAgreement[];
}

/** A runtime that cannot be run here (no binary for this platform, a registry that cannot be
 * reached): the report says so and why, so the check is visibly missing rather than left out. */
export interface NotRun {
  readonly model: string;
  readonly against: string;
  readonly reason: string;
}

/** What agreement.json holds: the command, a report per runtime that ran, and those that could not. */
export interface AgreementFile {
  readonly command: string;
  readonly reports: readonly AgreementReport[];
  readonly notRun: readonly NotRun[];
}

/** Whether a parsed file is an agreement.json (`conform --merge` takes either kind of report). */
export function isAgreementFile(parsed: unknown): boolean {
  return typeof parsed === "object" && parsed !== null && Array.isArray((parsed as { reports?: unknown }).reports);
}

/** "crush model: not run against crush@0.96.1" */
export function notRunLine(entry: NotRun): string {
  return `${entry.model} model: not run against ${entry.against}`;
}

export function inProcessSubject(target: Target, naming: ToolNaming): RealSubject {
  return { name: target.name, summary: target.summary, how: "in-process", naming, parallel: 1, observe: async (probe) => runProbeOnTarget(target, naming, probe.script) };
}

/** Driven CLIs at once by default: two per core, at most four (each CLI waits on its model and
 * its own start-up much of the time). */
export function defaultDrivenParallel(cores: number): number {
  return Math.max(1, Math.min(4, cores * 2));
}

export function drivenSubject(runtime: DrivenRuntime, parallel: number): RealSubject {
  return {
    name: runtime.name,
    summary: runtime.summary,
    how: "driven CLI",
    naming: runtime,
    parallel,
    observe: async (probe) => {
      if (probe.script.prompts.some((steps) => steps.some((step) => (step.text ?? []).length > 0))) return { error: `the scripted model does not stream model text to ${runtime.name}: text probes run in-process only` };
      const observed = await runtime.drive(probe.script);
      return observed.ok ? observed.prompts : { error: observed.error };
    },
  };
}

export async function checkAgreement(model: Target, subject: RealSubject, probes: readonly Probe[], onProbe: (done: number, id: string) => void = () => undefined): Promise<AgreementReport> {
  const rows: ProbeAgreement[] = new Array<ProbeAgreement>(probes.length);
  let done = 0;
  // A small pool: each worker takes the next probe; rows keep the probe order whatever finishes first.
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < probes.length) {
      const index = next++;
      const probe = probes[index] as Probe;
      rows[index] = await agreementOf(model, subject, probe);
      onProbe(++done, probe.id);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(subject.parallel, probes.length)) }, worker));
  const count = (v: ProbeAgreement["verdict"]) => rows.filter((r) => r.verdict === v).length;
  return { schema: AGREEMENT_SCHEMA, model: model.name, against: subject.name, how: subject.how, summary: subject.summary, agree: count("agree"), differ: count("differ"), na: count("n/a"), probes: rows };
}

async function agreementOf(model: Target, subject: RealSubject, probe: Probe): Promise<ProbeAgreement> {
  const modelSide = runProbeOnTarget(model, subject.naming, probe.script);
  const real = await subject.observe(probe);
  if ("error" in real) return { probe: probe.id, what: probe.what, verdict: "n/a", differences: [], reason: real.error, model: modelSide };
  const found = differences(modelSide, real);
  return { probe: probe.id, what: probe.what, verdict: found.length === 0 ? "agree" : "differ", differences: found, model: modelSide, runtime: real };
}

/** "gemini-cli model: 34/34 probes agree with gemini-cli@0.61.0" */
export function agreementLine(report: AgreementReport): string {
  const total = report.probes.length;
  const extra = [report.differ > 0 ? `${report.differ} differ` : "", report.na > 0 ? `${report.na} n/a` : ""].filter((x) => x !== "").join(", ");
  return `${report.model} model: ${report.agree}/${total} probes agree with ${report.against} (${report.how})${extra === "" ? "" : `; ${extra}`}`;
}
