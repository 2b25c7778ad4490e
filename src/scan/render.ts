// The scan report: a table per session and a summary across sessions, as text or Markdown, and
// an HTML page with one strip per session showing where verdicts fell.
import type { BadFile } from "../import/sessionRefs.js";
import { shareCell, wilson } from "../stats/interval.js";
import { visible } from "../format/timeline.js";
import type { SessionScan } from "./scanSession.js";

export interface ScanReport {
  readonly schema: "loopsim/scan@1";
  readonly target: string;
  readonly config: string;
  /** With --shard: this report is one slice of the sessions listed. */
  readonly shard?: ShardSlice;
  readonly sessions: readonly SessionScan[];
  /** Files that could not be read, each with why: skipped, and the exit code says so. */
  readonly unreadable: readonly BadFile[];
  readonly summary: ScanSummary;
}

export interface ScanSummary {
  readonly sessions: number;
  readonly warned: number;
  readonly blocked: number;
  readonly aborted: number;
  readonly blockedBy: Readonly<Record<string, number>>;
  readonly warnedBy: Readonly<Record<string, number>>;
  readonly calls: number;
  readonly unreadable: number;
}

/** The summary, added one session at a time: a scan keeps this, never its sessions' rows. */
export class ScanTally {
  private sessions = 0;
  private warned = 0;
  private blocked = 0;
  private aborted = 0;
  private calls = 0;
  private readonly blockedBy: Record<string, number> = {};
  private readonly warnedBy: Record<string, number> = {};

  add(s: SessionScan): void {
    this.sessions++;
    for (const d of Object.keys(s.blockDetectors)) this.blockedBy[d] = (this.blockedBy[d] ?? 0) + 1;
    for (const d of Object.keys(s.warnDetectors)) this.warnedBy[d] = (this.warnedBy[d] ?? 0) + 1;
    if (s.warnings > 0) this.warned++;
    if (s.blocks > 0) this.blocked++;
    if (s.aborts > 0) this.aborted++;
    this.calls += s.stats.calls;
  }

  /** Sessions added so far. */
  get count(): number {
    return this.sessions;
  }

  summary(unreadable: number): ScanSummary {
    return { sessions: this.sessions, warned: this.warned, blocked: this.blocked, aborted: this.aborted, blockedBy: { ...this.blockedBy }, warnedBy: { ...this.warnedBy }, calls: this.calls, unreadable };
  }
}

/** Which slice of the listing a --shard report holds. */
export interface ShardSlice {
  readonly index: number;
  readonly of: number;
  /** Sessions in this slice, of those listed. */
  readonly sessions: number;
  readonly listed: number;
}

/** What heads and ends a scan report; the sessions' rows come between, spooled. */
export interface ScanFrame {
  readonly target: string;
  readonly config: string;
  readonly shard?: ShardSlice;
  readonly summary: ScanSummary;
  readonly unreadable: readonly BadFile[];
}

const where = (p: { at: string } | null) => (p === null ? "-" : cell(p.at.slice(p.at.lastIndexOf("/") + 1)));

/**
 * Text from a session (names, tools, arguments, paths) as a table cell: control characters shown
 * as \u{...} (printed raw they move a terminal's cursor or hide text), and | escaped.
 */
const cell = (text: string): string => visible(text).replace(/\|/g, "\\|");

/** The line that says a report is one shard's slice, not the whole listing. */
export function shardLine(s: ShardSlice): string {
  if (s.of === 1) return `Shard 1 of 1: all ${s.listed} sessions listed.`;
  return `Shard ${s.index} of ${s.of}: ${s.sessions} of the ${s.listed} sessions listed (the listing's ${s.index}, ${s.index + s.of}, ${s.index + 2 * s.of}, ...); the other shards hold the rest.`;
}

export function scanMarkdownHead(frame: ScanFrame): string {
  const s = frame.summary;
  const by = (m: Readonly<Record<string, number>>) => Object.entries(m).map(([d, n]) => `${d} ${n}`).join(", ") || "none";
  const lines = [
    `# loopsim scan (${frame.target}, ${frame.config})`,
    "",
    ...(frame.shard === undefined ? [] : [shardLine(frame.shard), ""]),
    `${s.sessions} sessions, ${s.calls} calls: ${s.warned} warned, ${shareCell(s.warned / Math.max(1, s.sessions), wilson(s.warned, s.sessions))} (${by(s.warnedBy)}), ${s.blocked} blocked, ${shareCell(s.blocked / Math.max(1, s.sessions), wilson(s.blocked, s.sessions))} (${by(s.blockedBy)}), ${s.aborted} aborted, ${shareCell(s.aborted / Math.max(1, s.sessions), wilson(s.aborted, s.sessions))}. Brackets: 95% Wilson intervals over the ${s.sessions} sessions.${s.unreadable > 0 ? ` ${s.unreadable} unreadable file${s.unreadable === 1 ? "" : "s"} skipped (listed below).` : ""}`,
    "",
    "| session | format | tools | calls | runs | compactions | first warning | first block | abort | most repeated call | its calls / distinct results |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  return lines.join("\n") + "\n";
}

/** One session's table row, with its line end. */
export function scanMarkdownRow(x: SessionScan): string {
  const w = x.firstWarning === null ? "-" : `${where(x.firstWarning)} ${cell(x.firstWarning.tool)} ${x.firstWarning.detector} x${x.firstWarning.count}`;
  const b = x.firstBlock === null ? "-" : `${where(x.firstBlock)} ${cell(x.firstBlock.tool)} ${x.firstBlock.detector} x${x.firstBlock.count}`;
  const a = x.firstAbort === null ? "-" : `${where(x.firstAbort)} ${cell(x.firstAbort.tool)}`;
  const m = x.mostRepeated;
  return `| ${cell(x.id)} | ${x.format} | ${x.tools} | ${x.stats.calls} | ${x.stats.runs} | ${x.stats.compactions} | ${w} | ${b} | ${a} | ${m === null ? "-" : `${cell(m.tool)} ${cell(m.args)}`} | ${m === null ? "-" : `${m.calls} / ${m.distinctResults}`} |\n`;
}

/** The line under "First blocks" for a session that was blocked, with its line end. */
export function scanFirstBlockLine(x: SessionScan): string | undefined {
  return x.firstBlock === null ? undefined : `- ${visible(x.id)}: first block at ${visible(x.firstBlock.at)}: ${visible(x.firstBlock.tool)} ${visible(x.firstBlock.args)}\n`;
}

export function scanMarkdownFirstBlocksHead(): string {
  return "\nFirst blocks, with the call's arguments:\n\n";
}

export function scanMarkdownTail(frame: ScanFrame): string {
  return frame.unreadable.length === 0 ? "" : `\nUnreadable files (skipped):\n\n${frame.unreadable.map((b) => `- ${visible(b.file)}: ${visible(b.reason)}\n`).join("")}`;
}

const esc = (t: string) => t.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

const STRIP_WIDTH = 600;

/** One session's strip of where verdicts fell (rows are joined by line breaks, none after the last). */
export function scanHtmlStrip(x: SessionScan): string {
  const n = Math.max(1, x.events);
  const ticks = x.marks
    .map((m) => {
      const left = ((m.event + 0.5) / n) * STRIP_WIDTH;
      const colour = m.kind === "warning" ? "#e0a800" : m.kind === "block" ? "#c62828" : "#6a1b9a";
      return `<rect x="${left.toFixed(1)}" y="${m.kind === "warning" ? 4 : 0}" width="2" height="${m.kind === "warning" ? 10 : 18}" fill="${colour}"><title>${m.kind} at event ${m.event}</title></rect>`;
    })
    .join("");
  return `<tr><td class="name" title="${esc(x.file)}">${esc(x.id)}</td><td>${x.stats.calls}</td><td>${x.warnings}</td><td>${x.blocks}</td><td>${x.aborts}</td><td><svg width="${STRIP_WIDTH}" height="18" role="img" aria-label="verdicts along ${esc(x.id)}"><rect width="${STRIP_WIDTH}" height="18" fill="#eef2f5"/>${ticks}</svg></td></tr>`;
}

export function scanHtmlHead(frame: ScanFrame): string {
  const s = frame.summary;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>loopsim scan</title>
<style>body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#1b1b1b}table{border-collapse:collapse}td,th{padding:2px 8px;text-align:right;border-bottom:1px solid #e3e3e3}td.name{text-align:left;max-width:320px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}.key span{display:inline-block;width:10px;height:10px;margin:0 4px 0 12px}</style></head><body>
<h1>loopsim scan</h1>
${frame.shard === undefined ? "" : `<p><strong>${esc(shardLine(frame.shard))}</strong></p>\n`}<p>Target ${esc(frame.target)}, ${esc(frame.config)}. ${s.sessions} sessions, ${s.calls} calls: ${s.warned} warned, ${s.blocked} blocked, ${s.aborted} aborted. Each strip is one session from its first event (left) to its last (right).</p>
<p class="key"><span style="background:#e0a800"></span>warning<span style="background:#c62828"></span>block<span style="background:#6a1b9a"></span>abort</p>
<table><thead><tr><th style="text-align:left">session</th><th>calls</th><th>warnings</th><th>blocks</th><th>aborts</th><th style="text-align:left">where verdicts fell</th></tr></thead><tbody>
`;
}

export function scanHtmlTail(frame: ScanFrame): string {
  return `
</tbody></table>${frame.unreadable.length === 0 ? "" : `
<h2>Unreadable files (skipped)</h2>
<ul class="unreadable">${frame.unreadable.map((b) => `<li>${esc(b.file)}: ${esc(b.reason)}</li>`).join("")}</ul>`}</body></html>
`;
}
