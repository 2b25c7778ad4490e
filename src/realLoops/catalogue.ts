// The catalogue of real stuck stretches: every stretch mined from the sessions under some paths,
// with where it is, its shape and an excerpt, a summary per source and format, and (when a
// judgements file is given) the precision of the definition by a person's reading. Built as the
// sessions stream; the report object alone gives the JSON and the Markdown, byte for byte the
// same for the same inputs.
import type { ToolEvent } from "../../models/events.js";
import type { BadFile } from "../import/sessionRefs.js";
import { plural } from "../format/words.js";
import { nearestRank } from "../evaluation/metrics.js";
import { percentWithInterval } from "../stats/interval.js";
import { precisionOf, stretchId, type Judgements, type Precision, type Verdict } from "./judgements.js";
import { minedCalls, stretchesOf, type MinedCall, type MineParameters, type Stretch } from "./mine.js";

export const CATALOGUE_SCHEMA = "loopsim/real-loops@1";

/** How much of a call's args or result an excerpt shows. */
const EXCERPT_CHARS = 160;
const SHAPE_CHARS = 100;

/** A mined stretch (its shape clipped for reading) with where it is, an excerpt and its verdict. */
export interface CatalogueStretch extends Pick<Stretch, "rule" | "firstCall" | "lastCall" | "length" | "shape" | "repeats"> {
  readonly id: string;
  readonly session: string;
  readonly format: string;
  readonly excerpt: { readonly tool: string; readonly args: string; readonly first: string; readonly last: string };
  readonly judgement?: { readonly verdict: Verdict; readonly reason: string };
}

interface Tally {
  sessions: number;
  calls: number;
  stretches: number;
  stuckCalls: number;
}

export interface Catalogue {
  readonly schema: typeof CATALOGUE_SCHEMA;
  readonly paths: readonly string[];
  readonly parameters: MineParameters;
  readonly definition: readonly string[];
  readonly summary: {
    readonly sessions: number;
    readonly calls: number;
    readonly stretches: number;
    readonly sessionsWithStretches: number;
    readonly byRule: Readonly<Record<string, number>>;
    readonly bySource: Readonly<Record<string, Tally>>;
    readonly byFormat: Readonly<Record<string, Tally>>;
    readonly lengths: { readonly min: number; readonly median: number; readonly max: number };
  };
  readonly judged?: { readonly file: string; readonly criteria: readonly string[] } & Precision;
  readonly stretches: readonly CatalogueStretch[];
  readonly unreadable: readonly BadFile[];
}

export function definitionLines(p: MineParameters): string[] {
  return [
    "A call's shape is its tool and its args as JSON with timestamps, UUIDs and hex ids, temporary paths and every run of digits (line numbers, pids, counters) masked; its result is the outcome's text, masked the same way.",
    `repeat: ${p.repeat} or more consecutive calls with the same shape and the same masked result, where no two neighbours differ both in their recorded args and in their recorded result (asking about another thing and hearing about it is not a repeat).`,
    `failing: ${p.failing} or more consecutive calls with the same shape whose every outcome failed (error, non-zero exit, timeout), whatever the errors say.`,
    `alternation: ${p.alternation} or more consecutive calls taking turns between two calls, A B A B, each answered as the same call two before.`,
    "Not stuck: a repeat whose very next call is the same recorded call with a new result (a wait that paid off: a build finished, a page loaded); calls never answered; stretches inside another (stretches never overlap; repeats and failing runs are found first).",
  ];
}

/** The first folder of a session's id (its source in the corpus), or the file for a file given alone. */
export function sourceOf(session: string): string {
  const slash = session.indexOf("/");
  return slash < 0 ? session.replace(/#.*$/, "") : session.slice(0, slash);
}

const clip = (text: string, n: number) => {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= n ? flat : `${flat.slice(0, n - 1)}…`;
};

export class CatalogueBuilder {
  private readonly stretches: CatalogueStretch[] = [];
  private readonly bySource = new Map<string, Tally>();
  private readonly byFormat = new Map<string, Tally>();
  private sessions = 0;
  private calls = 0;

  constructor(
    private readonly paths: readonly string[],
    private readonly parameters: MineParameters,
    private readonly judgements?: Judgements,
  ) {}

  add(session: string, format: string, events: readonly ToolEvent[]): void {
    const calls = minedCalls(events);
    const found = stretchesOf(calls, this.parameters);
    this.sessions++;
    this.calls += calls.length;
    for (const [map, key] of [
      [this.bySource, sourceOf(session)],
      [this.byFormat, format],
    ] as const) {
      const t = map.get(key) ?? { sessions: 0, calls: 0, stretches: 0, stuckCalls: 0 };
      t.sessions++;
      t.calls += calls.length;
      t.stretches += found.length;
      t.stuckCalls += found.reduce((sum, s) => sum + s.length, 0);
      map.set(key, t);
    }
    for (const s of found) {
      const id = stretchId(session, s.firstCall);
      const first = calls[s.firstCall] as MinedCall;
      const last = calls[s.lastCall] as MinedCall;
      const judgement = this.judgements?.byId.get(id);
      this.stretches.push({
        id,
        session,
        format,
        rule: s.rule,
        firstCall: s.firstCall,
        lastCall: s.lastCall,
        length: s.length,
        shape: s.shape.map((x) => clip(x, SHAPE_CHARS)),
        repeats: s.repeats,
        excerpt: { tool: first.call.tool, args: clip(first.rawArgs, EXCERPT_CHARS), first: clip(first.rawResult, EXCERPT_CHARS), last: clip(last.rawResult, EXCERPT_CHARS) },
        ...(judgement === undefined ? {} : { judgement }),
      });
    }
  }

  finish(unreadable: readonly BadFile[]): Catalogue {
    const lengths = this.stretches.map((s) => s.length);
    const byRule: Record<string, number> = {};
    for (const s of this.stretches) byRule[s.rule] = (byRule[s.rule] ?? 0) + 1;
    const sorted = <T>(m: Map<string, T>) => Object.fromEntries([...m.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)));
    const j = this.judgements;
    return {
      schema: CATALOGUE_SCHEMA,
      paths: this.paths,
      parameters: this.parameters,
      definition: definitionLines(this.parameters),
      summary: {
        sessions: this.sessions,
        calls: this.calls,
        stretches: this.stretches.length,
        sessionsWithStretches: new Set(this.stretches.map((s) => s.session)).size,
        byRule: Object.fromEntries(Object.entries(byRule).sort()),
        bySource: sorted(this.bySource),
        byFormat: sorted(this.byFormat),
        lengths: { min: lengths.length === 0 ? 0 : Math.min(...lengths), median: nearestRank(lengths, 0.5), max: lengths.length === 0 ? 0 : Math.max(...lengths) },
      },
      ...(j === undefined ? {} : { judged: { file: j.file, criteria: j.criteria, ...precisionOf(this.stretches.map((s) => s.id), j) } }),
      stretches: this.stretches,
      unreadable,
    };
  }
}

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/`/g, "'");

export function catalogueMarkdown(c: Catalogue): string {
  const s = c.summary;
  const lines: string[] = [
    "# Real stuck stretches",
    "",
    `Mined by \`loopsim loops ${c.paths.join(" ")}\` from ${plural(s.sessions, "session")} with calls (${plural(s.calls, "call")}; sessions without any are passed over): ${plural(s.stretches, "stretch", "stretches")} in ${plural(s.sessionsWithStretches, "session")}. The definition belongs to no guard:`,
    "",
    ...c.definition.map((d) => `- ${d}`),
    "",
    "## Summary",
    "",
    "| source | sessions | calls | stretches | calls in stretches |",
    "|---|---|---|---|---|",
    ...Object.entries(s.bySource).map(([k, t]) => `| ${cell(k)} | ${t.sessions} | ${t.calls} | ${t.stretches} | ${t.stuckCalls} |`),
    "",
    "| format | sessions | calls | stretches | calls in stretches |",
    "|---|---|---|---|---|",
    ...Object.entries(s.byFormat).map(([k, t]) => `| ${cell(k)} | ${t.sessions} | ${t.calls} | ${t.stretches} | ${t.stuckCalls} |`),
    "",
    `By rule: ${Object.keys(s.byRule).length === 0 ? "none" : Object.entries(s.byRule).map(([r, n]) => `${r} ${n}`).join(", ")}. Lengths in calls: min ${s.lengths.min}, median ${s.lengths.median}, max ${s.lengths.max}.`,
    "",
  ];
  if (c.judged !== undefined) {
    const j = c.judged;
    lines.push("## Precision by reading", "", `Judged in \`${j.file}\`: ${j.stuck} stuck, ${j.falseAlarms} false alarm${j.falseAlarms === 1 ? "" : "s"}${j.unjudged.length > 0 ? `, ${j.unjudged.length} not judged yet (${j.unjudged.join(", ")})` : ""}. Precision: ${j.judged === 0 ? "no stretch judged" : percentWithInterval(j.precision, j.interval)} (95% Wilson interval). How each stretch was judged:`, "", ...j.criteria.map((x) => `- ${x}`), "");
  }
  lines.push("## Stretches", "");
  if (c.stretches.length === 0) lines.push("None found.", "");
  else {
    lines.push(`| id | calls | length | rule | shape | repeats${c.judged === undefined ? "" : " | judged"} |`, `|---|---|---|---|---|---${c.judged === undefined ? "" : "|---"}|`);
    for (const x of c.stretches) lines.push(`| \`${cell(x.id)}\` | #${x.firstCall}-#${x.lastCall} | ${x.length} | ${x.rule} | \`${cell(x.shape.join(" / "))}\` | ${x.repeats}${c.judged === undefined ? "" : ` | ${x.judgement === undefined ? "not judged" : `${x.judgement.verdict}: ${cell(x.judgement.reason)}`}`} |`);
    lines.push("", "### Excerpts", "");
    for (const x of c.stretches) {
      lines.push(`**${x.id}** (${x.format}), calls #${x.firstCall} to #${x.lastCall}:`, "", "```text", `${x.excerpt.tool} ${x.excerpt.args}`, `first result: ${x.excerpt.first || "(empty)"}`, `last result:  ${x.excerpt.last || "(empty)"}`, "```", "");
    }
  }
  if (c.unreadable.length > 0) lines.push("## Unreadable files", "", ...c.unreadable.map((b) => `- \`${b.file}\`: ${b.reason}`), "");
  return lines.join("\n");
}

export const catalogueJson = (c: Catalogue): string => `${JSON.stringify(c, null, 2)}\n`;
