// The comparison's section on real loops with real outcomes (--loops real, with --labels): per
// guard the share of real stuck stretches caught, by kind (identical repeats, changing args), the
// calls and tokens it would have saved, and the share of resolved runs it would have stopped;
// the best candidate rule beside the best shipped guard; and the Pareto chart of the two. Markdown
// and HTML draw it from report.json's `realOutcomes` alone.
import { shareCell } from "../stats/interval.js";
import { percentOneDecimal } from "../format/percent.js";
import { BEST_RULE, outcomeScore, type RealOutcomeRow, type RealOutcomes, type Share, type WholeTraceEvidence } from "../grounded/realOutcomes.js";
import { realOutcomesChart } from "./realOutcomesChart.js";

export const CANDIDATE_NOTE =
  "Rows named `candidate:...` are candidate rules (src/targets/candidates): no runtime is known to ship them; they are here as evidence for people who design guards, not as a claim about any runtime.";

const cell = (s: Share) => (s.n === 0 ? "n/a (n=0)" : `${shareCell(s.share, s.interval)} (${s.k}/${s.n})`);
/** Beside a share of runs stopped that rests on a sample (a whole-trace row), the sample it rests on. */
const sampleNote = (row: RealOutcomeRow) => (row.wholeTrace === undefined ? "" : `, measured on a seeded sample of ${row.wholeTrace.sample.n} of ${row.wholeTrace.sample.of}`);
const pctOf = (a: number, b: number) => (b === 0 ? "-" : percentOneDecimal(a / b));

/** Whose rows: guards side by side (compare), or one guard's configs (tune). */
export type RowKind = "guard" | "config";

export function realOutcomesTable(r: RealOutcomes, kind: RowKind = "guard"): { header: string[]; rows: string[][] } {
  return {
    header: [kind, "ships", "real stretches caught [95%]", "identical repeats caught [95%]", "changing args caught [95%]", "stuck calls saved [95%]", "calls saved per stretch [95%]", "stretch tokens saved", "resolved runs stopped [95%]", "unresolved runs stopped [95%]"],
    rows: r.rows.map((row) => [
      row.name,
      row.shipped ? "yes" : "candidate",
      cell(row.caught),
      cell(row.byKind.identical),
      cell(row.byKind["changing-args"]),
      row.callsSaved.shareInterval.n === 0 ? "n/a" : `${shareCell(row.callsSaved.share, row.callsSaved.shareInterval)} (${row.callsSaved.saved}/${row.callsSaved.of})`,
      row.callsSaved.interval.n === 0 ? "n/a" : `${row.callsSaved.perStretch} [${row.callsSaved.interval.low}-${row.callsSaved.interval.high}]`,
      `${row.tokensSaved.saved}/${row.tokensSaved.of} (${pctOf(row.tokensSaved.saved, row.tokensSaved.of)})`,
      cell(row.resolvedStopped) + sampleNote(row),
      cell(row.unresolvedStopped) + sampleNote(row),
    ]),
  };
}

const pct = percentOneDecimal;
const interval = (s: Share) => (s.n === 0 ? "n/a (n=0)" : `${pct(s.share)} [${pct(s.interval.low)}-${pct(s.interval.high)}], n=${s.n}`);

/** One sentence on a guard: what it catches and what it costs. */
export function guardSentence(row: RealOutcomeRow): string {
  return `\`${row.name}\` catches ${interval(row.caught)} of the real stuck stretches (identical repeats ${interval(row.byKind.identical)}; changing args ${interval(row.byKind["changing-args"])}), saves ${row.callsSaved.saved} of the ${row.callsSaved.of} stuck calls (${pct(row.callsSaved.share)} [${pct(row.callsSaved.shareInterval.low)}-${pct(row.callsSaved.shareInterval.high)}]), and stops ${interval(row.resolvedStopped)} of the resolved runs${sampleNote(row)}`;
}

/** At the top of a comparison: where rows run by a runtime's own CLI are, and are not (undefined when there are none). */
export function wholeTraceRowsNote(r: RealOutcomes | undefined): string | undefined {
  const rows = (r?.rows ?? []).filter((row) => row.wholeTrace !== undefined);
  if (rows.length === 0) return undefined;
  return `${rows.map((row) => `\`${row.name}\``).join(", ")} ${rows.length === 1 ? "is a runtime's own CLI: it is" : "are runtimes' own CLIs: they are"} in the section **Real loops, real outcomes** only, run open-loop on the recorded sessions; the closed-loop sections leave ${rows.length === 1 ? "it" : "them"} out (an agent there needs a verdict before its next call, and a CLI cannot be paused between calls).`;
}

/**
 * How rows run by a runtime's own CLI were measured, and whether the model row (run on every
 * session, and in the closed-loop sections) stands for the CLI: how often the two first blocked
 * or stopped at the same call on the sessions the CLI ran.
 */
export function wholeTraceParagraphs(r: RealOutcomes, kind: RowKind): string[] {
  const rows = r.rows.filter((row) => row.wholeTrace !== undefined);
  const first = rows[0]?.wholeTrace;
  if (first === undefined) return [];
  const lines = [
    `Rows run by a runtime's own CLI (${rows.map((row) => `\`${row.name}\``).join(", ")}) are driven a whole session at a time, seconds a session, so they run on every session holding a stuck stretch (${first.stretchSessions}: their catch rates and calls saved rest on every stretch, as the other rows' do) and on a seeded sample (seed ${first.sample.seed}) of ${first.sample.n} of the ${first.sample.of} labelled sessions: their resolved and unresolved runs stopped rest on that sample alone, with its own n.${kind === "guard" ? " The closed-loop sections of this report (real sessions as agents, real stuck stretches, by family) leave them out: an agent there needs a verdict before its next call, and a CLI cannot be paused between calls; the runtime's model row, where it has one, stands in for it there." : ""}`,
  ];
  for (const row of rows) {
    const w = row.wholeTrace;
    if (w === undefined) continue;
    const m = w.model;
    if (m !== undefined) lines.push(`\`${row.name}\` against its model \`${m.name}\` on the ${w.sessions} sessions the CLI ran: the first block or stop at the same call, or neither stopped, in ${interval(m.sameFirstStop)} (neither stopped ${m.neitherStopped}, the same call ${m.sameCall}, different calls ${m.differentCalls}, only the CLI ${m.onlyRuntime}, only the model ${m.onlyModel}).`);
    lines.push(rejectedSentence(row.name, w));
    if (w.failed.sessions > 0) lines.push(`\`${row.name}\`: ${w.failed.sessions} session${w.failed.sessions === 1 ? "" : "s"} (holding ${w.failed.stretches} stretch${w.failed.stretches === 1 ? "" : "es"}) could not be run by the CLI and are left out of its row, which then rests on fewer stretches than the others: ${w.failed.reasons.join("; ")}.`);
  }
  return lines;
}

/** How many recorded calls a CLI rejected before running them: they did not run, and were no guard decision. */
function rejectedSentence(name: string, w: WholeTraceEvidence): string {
  const r = w.rejected;
  if (r.rejected === 0) return `\`${name}\` rejected none of the ${r.answered} recorded calls it answered in the sessions it ran (a call it rejects, as a tool it does not have or args its schema refuses, does not run and is no guard decision: it counts as allowed, its outcome not recorded).`;
  return `\`${name}\` rejected ${r.rejected} of the ${r.answered} recorded calls it answered (${pct(r.rejected / r.answered)}), in ${r.sessions} of the ${w.sessions} sessions it ran: ${r.unknownTool} as a tool it does not have, ${r.rejected - r.unknownTool} as args its schema refuses. Those calls did not run and were no guard decision: they count as allowed, their outcomes not recorded.`;
}

/** Where the stretches come from, when people read them (--stretches read:FILE or held-out:FILE); undefined for the miner's. */
export function stretchSourceNote(r: RealOutcomes | undefined): string | undefined {
  const src = r?.stretchSource;
  if (src === undefined) return undefined;
  const left = src.leftOut.length === 0 ? "" : ` Left out (${src.leftOut.length}): ${src.leftOut.map((l) => `\`${l.session}\` (${l.why})`).join("; ")}.`;
  return `**The stuck stretches of the real-outcomes figures were read by people, not mined:** ${src.stretches} stretch${src.stretches === 1 ? "" : "es"} marked stuck reading ${src.sessions} session${src.sessions === 1 ? "" : "s"} whole (of ${src.read} read in \`${src.file}\`: ${src.from === "read" ? "its \`sessions\` and \`heldOut.sessions\`" : "its \`heldOut.sessions\` alone, held out from the rules: no rule of the miner, nor a candidate built from one, was shaped on them (the file's protocol lines say when they were read and what the rules' authors saw)"}), and only those sessions run, stuck or not (the resolved ones give the cost); the closed-loop sections still run the miner's stretches on every session.${left}`;
}

export function realOutcomesParagraphs(r: RealOutcomes, kind: RowKind = "guard"): string[] {
  const byName = new Map(r.rows.map((row) => [row.name, row]));
  const shipped = r.best.shipped === undefined ? undefined : byName.get(r.best.shipped);
  const candidate = r.best.candidate === undefined ? undefined : byName.get(r.best.candidate);
  const s = r.sessions;
  const source = stretchSourceNote(r);
  const lines = [
    ...(source === undefined ? [] : [source]),
    `${r.stretches.n} real stuck stretch${r.stretches.n === 1 ? "" : "es"} (${r.stretches.identical} identical repeats, ${r.stretches["changing-args"]} with changing args) in ${s.n} sessions (${s.resolved} resolved, ${s.unresolved} unresolved, ${s.unknown} whose label says the outcome is unknown, ${s.unlabelled} unlabelled). Each session is replayed open-loop under each guard: the run as it really went, with the guard's verdicts beside it. A stretch is caught when a block or a stop falls on one of its calls; a run is stopped when the guard blocked or stopped any of its calls, so a resolved run stopped is work that went well and would have been cut short. Brackets: 95% Wilson intervals (calls saved per stretch: a seeded bootstrap), with k/n.`,
    ...(kind === "guard" || candidate !== undefined ? [CANDIDATE_NOTE] : []),
    ...wholeTraceParagraphs(r, kind),
    `Best by the rule (${BEST_RULE}):`,
    shipped === undefined ? `No shipped ${kind} in the rows.` : `best ${kind === "guard" ? "shipped guard" : "config"}: ${guardSentence(shipped)} (score ${Math.round(outcomeScore(shipped) * 1000) / 1000}).`,
    ...(kind === "config" && candidate === undefined ? [] : [candidate === undefined ? "No candidate rule in the rows (add `--targets all,candidates`)." : `best candidate rule: ${guardSentence(candidate)} (score ${Math.round(outcomeScore(candidate) * 1000) / 1000}).`]),
    `Not beaten on both catch rate and resolved runs stopped (the Pareto front): ${r.best.front.join(", ")}.`,
  ];
  if (s.resolved === 0) lines.push("No session carries a resolved label (give `--labels`): the cost to resolved runs is not measured.");
  if (r.stretches.n < 30) lines.push(`With n=${r.stretches.n} stretches every catch rate's interval is wide: this says little.`);
  return lines;
}

export function realOutcomesMarkdown(r: RealOutcomes | undefined, kind: RowKind = "guard"): string[] {
  if (r === undefined) return [];
  const row = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
  const t = realOutcomesTable(r, kind);
  return [
    `## Real loops, real outcomes: what each ${kind} catches and what it costs`,
    "",
    ...realOutcomesParagraphs(r, kind).flatMap((l) => [l, ""]),
    row(t.header),
    `|${t.header.map(() => "---").join("|")}|`,
    ...t.rows.map(row),
    "",
    ...Object.entries(r.definitions).map(([k, v]) => `- **${k}**: ${v}`),
    "",
  ];
}

export function realOutcomesHtml(r: RealOutcomes | undefined, esc: (s: string) => string, kind: RowKind = "guard"): string {
  if (r === undefined) return "";
  const t = realOutcomesTable(r, kind);
  const cells = (tag: string, xs: readonly string[]) => xs.map((x) => `<${tag}>${esc(x)}</${tag}>`).join("");
  return `<h2>Real loops, real outcomes: what each ${kind} catches and what it costs</h2>
${realOutcomesParagraphs(r, kind).map((l) => `<p>${esc(l.replace(/`|\*\*/g, ""))}</p>`).join("\n")}
<figure>${realOutcomesChart(r, "stretches")}<figcaption>Each ${kind}: real stuck stretches caught (up is better) against resolved runs it would have stopped (left is better). Filled dots: shipped guards (red: OpenClaw); hollow diamonds: candidate rules no runtime ships. Bars: 95% Wilson intervals.</figcaption></figure>
<figure>${realOutcomesChart(r, "calls")}<figcaption>Each ${kind}: the share of stuck calls it would have saved (those at or after its first block or stop; up is better) against resolved runs it would have stopped (left is better). Bars: 95% intervals (a bootstrap over stretches for the calls, Wilson for the runs).</figcaption></figure>
<table><thead><tr>${cells("th", t.header)}</tr></thead><tbody>${t.rows.map((row) => `<tr>${cells("td", row)}</tr>`).join("\n")}</tbody></table>
<dl>${Object.entries(r.definitions).map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`).join("")}</dl>
`;
}
