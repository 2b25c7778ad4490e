// How a recorded session, replayed as a closed-loop agent, reacts when a guard speaks. The
// recording cannot say what its agent would have done after a warning, a blocked call or a stop,
// so loopsim states it: for each signal, the chances that the agent goes on with its recording,
// skips past the repeated stretch to its next different call, or ends. One seeded draw per signal.
import { UserError } from "../io/errors.js";

export const SIGNALS = ["warning", "block", "stop"] as const;
export type Signal = (typeof SIGNALS)[number];
export const REACTIONS = ["goOn", "skip", "end"] as const;
export type Reaction = (typeof REACTIONS)[number];

export type ReactionOdds = Readonly<Record<Reaction, number>>;
export type SessionReaction = Readonly<Record<Signal, ReactionOdds>>;

/**
 * The defaults, stated in every report that uses them. A warning is mostly read and ignored (as
 * the small simulated model does); a blocked call mostly makes the agent move on; a stop ends
 * the run, as OpenClaw's abort does.
 */
export const DEFAULT_SESSION_REACTION: SessionReaction = {
  warning: { goOn: 0.6, skip: 0.35, end: 0.05 },
  block: { goOn: 0.3, skip: 0.6, end: 0.1 },
  stop: { goOn: 0, skip: 0, end: 1 },
};

export function describeReaction(r: SessionReaction): string {
  const pct = (x: number) => `${Math.round(x * 1000) / 10}%`;
  return SIGNALS.map((s) => `${s}: go on ${pct(r[s].goOn)}, skip ${pct(r[s].skip)}, end ${pct(r[s].end)}`).join("; ");
}

/** The flag's form: `warning=GO/SKIP/END,block=GO/SKIP/END,stop=GO/SKIP/END`; signals left out keep the default. */
export function reactionSpec(r: SessionReaction): string {
  return SIGNALS.map((s) => `${s}=${r[s].goOn}/${r[s].skip}/${r[s].end}`).join(",");
}

function odds(where: string, values: readonly unknown[]): ReactionOdds | string {
  if (values.length !== 3 || values.some((v) => typeof v !== "number" || !Number.isFinite(v) || v < 0 || v > 1)) return `${where}: three chances between 0 and 1 (go on, skip, end), got ${JSON.stringify(values)}`;
  const [goOn, skip, end] = values as number[];
  const sum = (goOn as number) + (skip as number) + (end as number);
  if (Math.abs(sum - 1) > 1e-9) return `${where}: go on, skip and end must add up to 1 (they add up to ${Math.round(sum * 1e6) / 1e6})`;
  return { goOn: goOn as number, skip: skip as number, end: end as number };
}

/** `--reaction warning=0.6/0.35/0.05,block=0.3/0.6/0.1,stop=0/0/1`. */
export function parseReaction(spec: string, flag = "--reaction"): SessionReaction {
  const out: Record<Signal, ReactionOdds> = { ...DEFAULT_SESSION_REACTION };
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const part of spec.split(",").map((p) => p.trim()).filter((p) => p !== "")) {
    const [signal, value] = part.split("=").map((x) => x.trim());
    if (!(SIGNALS as readonly string[]).includes(signal ?? "") || value === undefined) {
      problems.push(`"${part}": each entry is SIGNAL=GO/SKIP/END with SIGNAL one of ${SIGNALS.join(", ")}`);
      continue;
    }
    if (seen.has(signal as string)) {
      problems.push(`${signal} is given twice: give each signal once`);
      continue;
    }
    seen.add(signal as string);
    const texts = value.split("/").map((v) => v.trim());
    const parsed = odds(signal as string, texts.map((v) => (v === "" ? Number.NaN : Number(v))));
    // The user's own spelling in the message ("NaN", "abc"), not JSON's null for a number that is none.
    if (typeof parsed === "string") problems.push(parsed.includes("three chances") ? `${signal}: three chances between 0 and 1 (go on, skip, end), got ${texts.join("/")}` : parsed);
    else out[signal as Signal] = parsed;
  }
  if (problems.length > 0) throw new UserError(`${flag} ${spec}: ${problems.join("; ")}`);
  return out;
}

/** The same, from a population file's `reaction` object ({warning: [go, skip, end], ...}); problems name their JSON path. */
export function reactionFromJson(raw: unknown, at: string, problems: string[]): SessionReaction {
  const out: Record<Signal, ReactionOdds> = { ...DEFAULT_SESSION_REACTION };
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    problems.push(`${at}: must be an object {warning, block, stop}, each [go on, skip, end]`);
    return out;
  }
  for (const [key, value] of Object.entries(raw)) {
    if (!(SIGNALS as readonly string[]).includes(key)) {
      problems.push(`${at}.${key}: unknown signal (allowed: ${SIGNALS.join(", ")})`);
      continue;
    }
    const parsed = odds(`${at}.${key}`, Array.isArray(value) ? value : [value]);
    if (typeof parsed === "string") problems.push(parsed);
    else out[key as Signal] = parsed;
  }
  return out;
}
