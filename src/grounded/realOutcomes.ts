// Every guard on real loops with real outcomes: each recorded session replayed open-loop under
// each guard (the recorded agent never saw a verdict, so this is what the guard would have done
// to the run as it really went), and read against two facts that need no model of the agent:
// the stuck stretches the miner finds in it (src/realLoops/mine.ts), split into identical repeats
// and repeats whose args change, and the run's outcome label (resolved or not). From them:
//   - the share of stretches caught (a block or a stop on one of the stretch's calls), by the
//     miner's kind: identical calls again, or changing args that get nowhere,
//   - the stretch calls and tokens saved (those at or after the run's first block or stop: what a
//     guard that ends the loop there spares; a stop before the stretch spares it all),
//   - the share of RESOLVED runs the guard blocked or stopped before they finished: work that went
//     well and would have been cut short, which is what a guard really costs.
// Every share carries its n and 95% Wilson interval; the per-stretch savings a seeded bootstrap.
// A whole-trace target (a runtime's own CLI, seconds per session) runs on every session holding a
// stretch, so its catch rate rests on every stretch as the others' do, and on a seeded sample of
// the labelled sessions, on which alone its share of runs stopped rests (src/grounded/wholeTraceSample.ts).
import type { ResolvedConfig } from "../../models/config.js";
import type { ToolEvent } from "../../models/events.js";
import { kindOfRule, minedCalls, STRETCH_RULES, stretchesOf, type StretchKind } from "../realLoops/mine.js";
import { forEachRecordedSession, type ReadOptions, type RecordedSession, type SessionLabel } from "../sessions/recorded.js";
import { labelFor, outcomeOf, type DatasetLabels } from "../realLoops/labels.js";
import { eventTokens } from "../sim/tokens.js";
import { bootstrap, wilson, type Interval } from "../stats/interval.js";
import { runTarget, type Target, type TargetOutput } from "../targets/target.js";
import { WholeTraceSample, type KeptSession, type WholeTraceSampling } from "./wholeTraceSample.js";
import { UserError } from "../io/errors.js";
import { addRejectedCalls, NO_REJECTED_CALLS, rejectedCallsOf, type RejectedCalls } from "./rejectedCalls.js";
import { readStretches, type StretchSource } from "./stretchSource.js";
import type { KnownStretch } from "./knownStretch.js";

export type { StretchKind };
export const STRETCH_KINDS: readonly StretchKind[] = ["identical", "changing-args"];

export type { KnownStretch };

/** The stretches of a session, mined once and shared by every guard. */
export function knownStretches(events: readonly ToolEvent[]): KnownStretch[] {
  const calls = minedCalls(events);
  return stretchesOf(calls).map((s) => {
    const inside = calls.slice(s.firstCall, s.lastCall + 1);
    return {
      kind: s.kind,
      firstEvent: s.firstEvent,
      lastEvent: s.lastEvent,
      calls: inside.map((c) => ({ at: c.events[0] as number, tokens: c.events.reduce((sum, p) => sum + eventTokens(events[p] as ToolEvent), 0) })),
    };
  });
}

/** One stretch under one guard. */
export interface StretchUnderGuard {
  readonly kind: StretchKind;
  readonly caught: boolean;
  readonly calls: number;
  readonly savedCalls: number;
  readonly tokens: number;
  readonly savedTokens: number;
}

export interface SessionUnderGuard {
  readonly label: SessionLabel;
  /** The guard blocked or stopped a call of the run (the run as recorded could not have finished). */
  readonly stopped: boolean;
  readonly stretches: readonly StretchUnderGuard[];
}

/** Whether an output ends the run as recorded: a block (the call does not run), a cut-off response, or a stop. */
const cuts = (o: TargetOutput): boolean => o.kind === "abort" || ((o.kind === "call" || o.kind === "text") && o.verdict === "critical");

/** The event positions of the run's blocks and stops, in order (empty when the guard let it all run). */
export function cutsOf(outputs: readonly TargetOutput[]): number[] {
  return [...new Set(outputs.filter(cuts).map((o) => o.index))].sort((a, b) => a - b);
}

/**
 * A session's stretches and its outcome under a guard, from the positions of its blocks and stops.
 * A stretch is caught when one of them falls on its calls (a block earlier in the run does not end
 * it: the guard goes on judging); the calls saved are those at or after the run's first block or
 * stop, the open-loop reading of a cut (a stop before the stretch spares it all, and is no catch).
 */
export function judgeSession(label: SessionLabel, stretches: readonly KnownStretch[], cutAt: readonly number[]): SessionUnderGuard {
  const first = cutAt[0];
  return {
    label,
    stopped: first !== undefined,
    stretches: stretches.map((s) => {
      const saved = first === undefined ? [] : s.calls.filter((c) => c.at >= first);
      const tokens = s.calls.reduce((sum, c) => sum + c.tokens, 0);
      return {
        kind: s.kind,
        caught: cutAt.some((c) => c >= s.firstEvent && c <= s.lastEvent),
        calls: s.calls.length,
        savedCalls: saved.length,
        tokens,
        savedTokens: saved.reduce((sum, c) => sum + c.tokens, 0),
      };
    }),
  };
}

export function sessionUnderGuard(events: readonly ToolEvent[], label: SessionLabel, stretches: readonly KnownStretch[], target: Target, config: ResolvedConfig): SessionUnderGuard {
  return judgeSession(label, stretches, cutsOf(runTarget(target, config, events)));
}

export interface Share {
  readonly k: number;
  readonly n: number;
  readonly share: number;
  readonly interval: Interval;
}

const shareOf = (k: number, n: number): Share => ({ k, n, share: n === 0 ? 0 : Math.round((k / n) * 10_000) / 10_000, interval: wilson(k, n) });

export interface Saving {
  /** Stretch calls (or tokens) the guard spared, over all stretches. */
  readonly saved: number;
  readonly of: number;
  /** The mean spared per stretch, with its seeded bootstrap interval over stretches. */
  readonly perStretch: number;
  readonly interval: Interval;
  /**
   * saved / of (the share of stuck calls or tokens spared), with a seeded bootstrap interval that
   * resamples stretches, not calls: the calls of one stretch stand or fall together, so a Wilson
   * interval over calls would be too narrow.
   */
  readonly share: number;
  readonly shareInterval: Interval;
}

/** One guard's figures on real loops with real outcomes. */
export interface RealOutcomeRow {
  readonly name: string;
  /** A guard some runtime ships (or OpenClaw's reference); false for the candidate rules. */
  readonly shipped: boolean;
  readonly caught: Share;
  readonly byKind: Readonly<Record<StretchKind, Share>>;
  readonly callsSaved: Saving;
  readonly tokensSaved: Saving;
  readonly resolvedStopped: Share;
  readonly unresolvedStopped: Share;
  /** A whole-trace target's row: the sessions it ran, and how often its model first stopped where it did. */
  readonly wholeTrace?: WholeTraceEvidence;
}

/** How a whole-trace row was measured (the others run on every session). */
export interface WholeTraceEvidence {
  /** Sessions the target ran: every session holding a stretch, and the sample. */
  readonly sessions: number;
  /** Of them, those holding a stretch (every one read). */
  readonly stretchSessions: number;
  /** The labelled (resolved or unresolved) sessions drawn with `seed`, of all labelled: the stopped shares rest on these alone. */
  readonly sample: { readonly n: number; readonly of: number; readonly seed: number };
  /** Sessions the target could not run (its CLI failed or timed out): left out of every figure of the row, with the first reasons. */
  readonly failed: { readonly sessions: number; readonly stretches: number; readonly reasons: readonly string[] };
  /** The recorded calls of the sessions it ran that the CLI rejected before running them (no guard decision), and in how many sessions. */
  readonly rejected: RejectedCalls & { readonly sessions: number };
  readonly model?: ModelAgreement;
}

/** A runtime's CLI against the model of it loopsim ships, on the sessions the CLI ran. */
export interface ModelAgreement {
  readonly name: string;
  /** Sessions where both first blocked or stopped at the same call, or neither did. */
  readonly sameFirstStop: Share;
  readonly neitherStopped: number;
  readonly sameCall: number;
  readonly differentCalls: number;
  readonly onlyRuntime: number;
  readonly onlyModel: number;
}

/** What one guard saw, session after session, until it is measured. */
export class RealOutcomeTally {
  private readonly stretches: StretchUnderGuard[] = [];
  private readonly stopped: Record<"resolved" | "unresolved", { k: number; n: number }> = { resolved: { k: 0, n: 0 }, unresolved: { k: 0, n: 0 } };

  constructor(readonly name: string, readonly shipped: boolean) {}

  /** `countsOutcome` false: a session run for its stretches only, outside the sample the stopped shares rest on. */
  add(session: SessionUnderGuard, countsOutcome = true): void {
    this.stretches.push(...session.stretches);
    if (!countsOutcome) return;
    if (session.label !== "resolved" && session.label !== "unresolved") return;
    this.stopped[session.label].n++;
    if (session.stopped) this.stopped[session.label].k++;
  }

  finish(): RealOutcomeRow {
    const all = this.stretches;
    const kindShare = (kind: StretchKind) => {
      const mine = all.filter((s) => s.kind === kind);
      return shareOf(mine.filter((s) => s.caught).length, mine.length);
    };
    const mean = (xs: readonly number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);
    const r4 = (x: number) => Math.round(x * 10_000) / 10_000;
    const saving = (saved: (s: StretchUnderGuard) => number, of: (s: StretchUnderGuard) => number, what: string): Saving => {
      const total = all.reduce((sum, s) => sum + saved(s), 0);
      const whole = all.reduce((sum, s) => sum + of(s), 0);
      // Resample stretches by index: the statistic sums the drawn stretches' spared and total calls.
      const ratio = (picked: readonly number[]) => {
        let a = 0;
        let b = 0;
        for (const k of picked) {
          a += saved(all[k] as StretchUnderGuard);
          b += of(all[k] as StretchUnderGuard);
        }
        return b === 0 ? 0 : a / b;
      };
      return {
        saved: total,
        of: whole,
        perStretch: Math.round(mean(all.map(saved)) * 10) / 10,
        interval: bootstrap(all.map(saved), mean, `real-outcomes/${this.name}/${what}`),
        share: whole === 0 ? 0 : r4(total / whole),
        shareInterval: bootstrap(all.map((_, k) => k), ratio, `real-outcomes/${this.name}/${what}-share`, r4),
      };
    };
    return {
      name: this.name,
      shipped: this.shipped,
      caught: shareOf(all.filter((s) => s.caught).length, all.length),
      byKind: { identical: kindShare("identical"), "changing-args": kindShare("changing-args") },
      callsSaved: saving((s) => s.savedCalls, (s) => s.calls, "calls"),
      tokensSaved: saving((s) => s.savedTokens, (s) => s.tokens, "tokens"),
      resolvedStopped: shareOf(this.stopped.resolved.k, this.stopped.resolved.n),
      unresolvedStopped: shareOf(this.stopped.unresolved.k, this.stopped.unresolved.n),
    };
  }
}

/** How much a resolved run stopped weighs against a stretch caught: the tuning report's own weight for good work stopped. */
export const RESOLVED_WEIGHT = 4;

export const BEST_RULE = `the best guard catches the largest share of real stuck stretches minus ${RESOLVED_WEIGHT} times the share of resolved runs it stops (the weight the tuning report gives good work stopped); without labels, the largest catch rate; \`none\` is no guard and is never named`;

/** The score the best guard maximises; ties go to the earlier row. */
export function outcomeScore(r: RealOutcomeRow): number {
  return r.caught.share - (r.resolvedStopped.n === 0 ? 0 : RESOLVED_WEIGHT * r.resolvedStopped.share);
}

/** The rows no other row beats on both catch rate (higher) and resolved runs stopped (lower). */
export function paretoFront(rows: readonly RealOutcomeRow[]): string[] {
  const beats = (a: RealOutcomeRow, b: RealOutcomeRow) =>
    a.caught.share >= b.caught.share && a.resolvedStopped.share <= b.resolvedStopped.share && (a.caught.share > b.caught.share || a.resolvedStopped.share < b.resolvedStopped.share);
  return rows.filter((r) => !rows.some((o) => beats(o, r))).map((r) => r.name);
}

export function bestOf(rows: readonly RealOutcomeRow[], shipped: boolean): RealOutcomeRow | undefined {
  let best: RealOutcomeRow | undefined;
  for (const r of rows) {
    if (r.shipped !== shipped || r.name === "none") continue;
    if (best === undefined || outcomeScore(r) > outcomeScore(best)) best = r;
  }
  return best;
}

/** The miner's rules of one kind, as a phrase ("the miner's repeat, failing and alternation rules"), from the rules themselves so it never lags a new rule. */
function rulesOfKind(kind: StretchKind): string {
  const names = STRETCH_RULES.filter((r) => kindOfRule(r) === kind);
  const listed = names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
  return `the miner's ${listed} rule${names.length === 1 ? "" : "s"}`;
}

export const REAL_OUTCOME_DEFINITIONS: Readonly<Record<string, string>> = {
  replay: "each recorded session replayed open-loop under the guard: the run as it really went, with the guard's verdicts beside it (the agent never saw them)",
  caught: "stuck stretches (mined by `loopsim loops`) with a block or a stop on one of their calls, over all stretches (a block earlier in the run does not end it; a stop before the stretch is no catch)",
  identical: `stretches of the same masked call again (${rulesOfKind("identical")})`,
  "changing-args": `stretches whose calls may differ while the failure, the refusal or the answer repeats and nothing new is heard (${rulesOfKind("changing-args")})`,
  callsSaved: "stretch calls at or after the run's first block or stop (a block spares its own call; a stop after an answer spares the calls after it), over all stretch calls (the share of stuck calls caught), with a seeded bootstrap interval that resamples stretches; and the mean per stretch, likewise",
  tokensSaved: "tokens (args and answer, about 4 characters a token) of those calls",
  resolvedStopped: "runs labelled resolved that the guard blocked or stopped anywhere (inside a stuck stretch too): a run that went well and would not have finished as it did",
  unresolvedStopped: "the same over runs labelled unresolved, for contrast",
};

/** With --stretches read:FILE or held-out:FILE, the stretches are people's, not the miner's. */
const READ_DEFINITIONS: Readonly<Record<string, string>> = {
  caught: "stuck stretches marked by people reading whole sessions (--stretches read:FILE, or held-out:FILE for the held-out readings alone) with a block or a stop on one of their calls, over all such stretches (a block earlier in the run does not end it; a stop before the stretch is no catch)",
  identical: "read stretches whose calls all have the same masked call shape",
  "changing-args": "read stretches whose calls differ in masked shape",
};

export interface RealOutcomes {
  readonly definitions: Readonly<Record<string, string>>;
  /** Sessions by outcome label: unknown is a label saying the outcome was not established (an evaluation error). */
  readonly sessions: { readonly n: number; readonly resolved: number; readonly unresolved: number; readonly unknown: number; readonly unlabelled: number };
  readonly stretches: { readonly n: number } & Readonly<Record<StretchKind, number>>;
  readonly rows: readonly RealOutcomeRow[];
  readonly best: { readonly rule: string; readonly shipped?: string; readonly candidate?: string; readonly front: readonly string[] };
  /** With --stretches read:FILE or held-out:FILE: the stretches are those people marked reading whole sessions, and only those sessions ran (absent: the miner's, on every session). */
  readonly stretchSource?: ReadStretchSource;
}

/** The read stretches the figures rest on, and the read sessions left out (with why). */
export interface ReadStretchSource {
  /** read: every reading of the file; read-held-out: its held-out readings alone (--stretches held-out:FILE). */
  readonly from: "read" | "read-held-out";
  readonly file: string;
  /** Sessions the file reads whole. */
  readonly read: number;
  /** Of them, those run: found among the sessions with the miner's call count. */
  readonly sessions: number;
  readonly stretches: number;
  /** Read sessions left out: their call count differs from the miner's numbering, or no session of the population has that reference. */
  readonly leftOut: readonly { readonly session: string; readonly why: string }[];
}

/** A guard as the figures run it. */
export interface OutcomeGuard {
  readonly name: string;
  readonly shipped: boolean;
  readonly target: Target;
  readonly config: ResolvedConfig;
  /** For a whole-trace target (a runtime's CLI): the model of that runtime, whose first stop is set against the CLI's. */
  readonly model?: { readonly name: string; readonly target: Target };
}

/** Why a whole-trace target could not run a session: a user error (its CLI failed or timed out) is that session's; anything else is a bug, and thrown. */
function whyNotRun(error: unknown): string {
  if (!(error instanceof UserError)) throw error;
  return error.message;
}

/** What a whole-trace target did with one session: where it blocked or stopped, and the calls it rejected. */
interface WholeTraceRun {
  readonly cuts: number[];
  readonly calls: RejectedCalls;
}

function wholeTraceRunOf(outputs: readonly TargetOutput[]): WholeTraceRun {
  return { cuts: cutsOf(outputs), calls: rejectedCallsOf(outputs) };
}

/** One whole-trace target on one kept session. */
interface WholeTraceJob {
  readonly guard: number;
  readonly session: KeptSession<KnownStretch>;
}

/** What a long run says while whole-trace targets run (a line each); nothing by default. */
export type OutcomeProgress = (line: string) => void;

/** The figures of every guard, in the order given, over sessions fed one at a time. */
export class RealOutcomesRun {
  private readonly tallies: RealOutcomeTally[];
  private readonly labels = { n: 0, resolved: 0, unresolved: 0, unknown: 0, unlabelled: 0 };
  private readonly kinds: Record<StretchKind, number> = { identical: 0, "changing-args": 0 };
  /** Sessions kept for the whole-trace targets, run once the stream has ended (the sample is known only then). */
  private readonly sample: WholeTraceSample<KnownStretch> | undefined;
  private seen = 0;

  constructor(
    private readonly guards: readonly OutcomeGuard[],
    private readonly sampling: WholeTraceSampling = { size: 0, seed: 0 },
    private readonly progress: OutcomeProgress = () => undefined,
  ) {
    this.tallies = guards.map((g) => new RealOutcomeTally(g.name, g.shipped));
    this.sample = guards.some((g) => g.target.wholeTrace !== undefined) ? new WholeTraceSample<KnownStretch>(sampling) : undefined;
  }

  /** `id`: the session's reference, which draws the sample (its position in the stream without it). */
  session(events: readonly ToolEvent[], label: SessionLabel, id?: string, stretches: readonly KnownStretch[] = knownStretches(events)): void {
    const at = this.seen++;
    this.labels.n++;
    this.labels[label]++;
    for (const s of stretches) this.kinds[s.kind]++;
    this.guards.forEach((g, k) => {
      if (g.target.wholeTrace === undefined) (this.tallies[k] as RealOutcomeTally).add(sessionUnderGuard(events, label, stretches, g.target, g.config));
    });
    this.sample?.offer({ at, id: id ?? `#${at}`, label, events, stretches });
  }

  /** The whole-trace jobs: each such guard on each kept session, guard by guard, sessions in stream order. */
  private wholeTraceJobs(): { jobs: WholeTraceJob[]; kept: ReturnType<WholeTraceSample<KnownStretch>["finish"]> } | undefined {
    if (this.sample === undefined) return undefined;
    const kept = this.sample.finish();
    const stretchSessions = kept.sessions.filter((s) => s.stretches.length > 0).length;
    const jobs: WholeTraceJob[] = [];
    this.guards.forEach((g, k) => {
      if (g.target.wholeTrace === undefined) return;
      this.progress(`${g.name}: running ${kept.sessions.length} sessions through the runtime (${stretchSessions} holding a stuck stretch, and a seeded sample of ${kept.sampled.size} of the ${kept.labelled} labelled)`);
      for (const session of kept.sessions) jobs.push({ guard: k, session });
    });
    return { jobs, kept };
  }

  /** The jobs' results tallied in job order (whatever order they finished in), with each row's evidence. */
  private tallyWholeTrace(jobs: readonly WholeTraceJob[], results: readonly (WholeTraceRun | string)[], kept: ReturnType<WholeTraceSample<KnownStretch>["finish"]>): Map<number, WholeTraceEvidence> {
    const evidence = new Map<number, WholeTraceEvidence>();
    const stretchSessions = kept.sessions.filter((s) => s.stretches.length > 0).length;
    this.guards.forEach((g, k) => {
      if (g.target.wholeTrace === undefined) return;
      const failed = { sessions: 0, stretches: 0, reasons: [] as string[] };
      const agree = { neitherStopped: 0, sameCall: 0, differentCalls: 0, onlyRuntime: 0, onlyModel: 0 };
      let rejected = { ...NO_REJECTED_CALLS, sessions: 0 };
      jobs.forEach((job, j) => {
        if (job.guard !== k) return;
        const s = job.session;
        const result = results[j] as WholeTraceRun | string;
        if (typeof result === "string") {
          failed.sessions++;
          failed.stretches += s.stretches.length;
          if (failed.reasons.length < 3) failed.reasons.push(`${s.id}: ${result}`);
          return;
        }
        const cutAt = result.cuts;
        rejected = { ...addRejectedCalls(rejected, result.calls), sessions: rejected.sessions + (result.calls.rejected > 0 ? 1 : 0) };
        (this.tallies[k] as RealOutcomeTally).add(judgeSession(s.label, s.stretches, cutAt), kept.sampled.has(s.at));
        if (g.model === undefined) return;
        const mine = cutAt[0];
        const theirs = cutsOf(runTarget(g.model.target, g.config, s.events))[0];
        if (mine === undefined && theirs === undefined) agree.neitherStopped++;
        else if (mine === theirs) agree.sameCall++;
        else if (theirs === undefined) agree.onlyRuntime++;
        else if (mine === undefined) agree.onlyModel++;
        else agree.differentCalls++;
      });
      const ran = kept.sessions.length - failed.sessions;
      evidence.set(k, {
        sessions: ran,
        stretchSessions,
        sample: { n: kept.sampled.size, of: kept.labelled, seed: this.sampling.seed },
        failed,
        rejected,
        ...(g.model === undefined ? {} : { model: { name: g.model.name, sameFirstStop: shareOf(agree.neitherStopped + agree.sameCall, ran), ...agree } }),
      });
    });
    return evidence;
  }

  /** The figures, whole-trace targets run one session after another. */
  finish(): RealOutcomes {
    const planned = this.wholeTraceJobs();
    if (planned === undefined) return this.measured(new Map());
    const results = planned.jobs.map((job, j) => {
      const g = this.guards[job.guard] as OutcomeGuard;
      try {
        return wholeTraceRunOf(runTarget(g.target, g.config, job.session.events));
      } catch (error) {
        return whyNotRun(error);
      } finally {
        this.tick(planned.jobs, j);
      }
    });
    return this.measured(this.tallyWholeTrace(planned.jobs, results, planned.kept));
  }

  /**
   * The same figures, up to `parallel` whole-trace runs at once where the target can run without
   * blocking (a runtime's CLI is mostly waiting on its start-up and its model); the results are
   * tallied in the same order, so the report is the same bytes for any `parallel`.
   */
  async finishAsync(parallel: number): Promise<RealOutcomes> {
    const planned = this.wholeTraceJobs();
    if (planned === undefined) return this.measured(new Map());
    const { jobs } = planned;
    const results = new Array<WholeTraceRun | string>(jobs.length);
    let next = 0;
    let done = 0;
    const worker = async (): Promise<void> => {
      while (next < jobs.length) {
        const j = next++;
        const job = jobs[j] as WholeTraceJob;
        const g = this.guards[job.guard] as OutcomeGuard;
        const whole = g.target.wholeTraceAsync;
        try {
          results[j] = wholeTraceRunOf(whole === undefined ? runTarget(g.target, g.config, job.session.events) : await whole(g.config, job.session.events));
        } catch (error) {
          results[j] = whyNotRun(error);
        }
        this.tick(jobs, done++);
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(parallel, jobs.length)) }, worker));
    return this.measured(this.tallyWholeTrace(jobs, results, planned.kept));
  }

  /** A line every 25 sessions of a whole-trace run, and at its end. */
  private tick(jobs: readonly WholeTraceJob[], j: number): void {
    if ((j + 1) % 25 === 0 || j + 1 === jobs.length) this.progress(`whole-trace runs: ${j + 1} of ${jobs.length} done`);
  }

  private measured(evidence: ReadonlyMap<number, WholeTraceEvidence>): RealOutcomes {
    const rows = this.tallies.map((t, k) => {
      const row = t.finish();
      const whole = evidence.get(k);
      return whole === undefined ? row : { ...row, wholeTrace: whole };
    });
    const shipped = bestOf(rows, true);
    const candidate = bestOf(rows, false);
    return {
      definitions: REAL_OUTCOME_DEFINITIONS,
      sessions: { ...this.labels },
      stretches: { n: this.kinds.identical + this.kinds["changing-args"], ...this.kinds },
      rows,
      best: { rule: BEST_RULE, ...(shipped === undefined ? {} : { shipped: shipped.name }), ...(candidate === undefined ? {} : { candidate: candidate.name }), front: paretoFront(rows) },
    };
  }
}

/**
 * Every guard on the sessions under `paths`, read one at a time. A session's outcome is its label
 * from `options` (--labels), or, with `outcomeFiles` (the datasets' own labels.json files, as
 * published: `loopsim loops --labels` reads them the same), the label those give it: resolved,
 * failed (unresolved), anything else (an evaluation error) unknown; no label, unlabelled.
 */
export async function measureRealOutcomes(paths: readonly string[], options: ReadOptions, guards: readonly OutcomeGuard[], outcomeFiles: readonly DatasetLabels[] = [], sampling?: WholeTraceSampling, progress?: OutcomeProgress, parallel = 1, source: StretchSource = { kind: "mined" }): Promise<RealOutcomes> {
  const run = new RealOutcomesRun(guards, sampling, progress);
  const labelOf = (session: RecordedSession): SessionLabel => {
    if (outcomeFiles.length === 0) return session.label;
    const value = labelFor(session.file, outcomeFiles);
    const outcome = value === undefined ? undefined : outcomeOf(value);
    return outcome === undefined ? "unlabelled" : outcome === "resolved" ? "resolved" : outcome === "failed" ? "unresolved" : "unknown";
  };
  if (source.kind === "mined") {
    await forEachRecordedSession(paths, options, (session) => run.session(session.events, labelOf(session), session.id));
    return run.finishAsync(parallel);
  }
  // Read stretches: only the sessions read run (every one, stuck or not: the resolved give the cost).
  const leftOut: { session: string; why: string }[] = [];
  const seen = new Set<string>();
  let sessions = 0;
  let stretches = 0;
  await forEachRecordedSession(paths, options, (session) => {
    const reading = source.sessions.get(session.id);
    if (reading === undefined) return;
    seen.add(session.id);
    const read = readStretches(session.events, reading);
    if (read === undefined) return void leftOut.push({ session: session.id, why: `read as ${reading.calls} calls, the miner numbers ${minedCalls(session.events).length}` });
    sessions++;
    stretches += read.length;
    run.session(session.events, labelOf(session), session.id, read);
  });
  for (const ref of [...source.sessions.keys()].sort()) if (!seen.has(ref)) leftOut.push({ session: ref, why: source.sessions.get(ref)?.calls === 0 ? "read as 0 calls: a session without calls is never replayed, and holds no stretch" : "no session of the population has this reference" });
  leftOut.sort((a, b) => (a.session < b.session ? -1 : a.session > b.session ? 1 : 0));
  const measured = await run.finishAsync(parallel);
  const definitions = { ...measured.definitions, ...READ_DEFINITIONS };
  return { ...measured, definitions, stretchSource: { from: source.readings === "all" ? "read" : "read-held-out", file: source.file, read: source.sessions.size, sessions, stretches, leftOut } };
}
