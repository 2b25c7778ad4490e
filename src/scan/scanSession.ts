// Scanning one session: it streams through a target once, and what a person looks at first is
// kept: the first warning, block and abort with their places in the original file and the call,
// the most repeated (tool, args) and how many distinct results it got, and where verdicts fell.
import type { ResolvedConfig } from "../../models/config.js";
import type { ToolEvent } from "../../models/events.js";
import { openSession } from "../import/session.js";
import type { ElementSpan } from "../import/jsonDocument.js";
import type { ImportStats, SessionFormat } from "../import/types.js";
import { collect, sessionOver, type Target } from "../targets/target.js";

export interface VerdictPlace {
  readonly at: string;
  readonly event: number;
  readonly tool: string;
  readonly args: string;
  readonly detector: string;
  readonly count: number;
}

export interface SessionScan {
  /** The session's name: its path relative to the folder given, plus #id in a multi-session file. */
  readonly id: string;
  readonly file: string;
  readonly format: string;
  readonly stats: ImportStats;
  readonly events: number;
  readonly tools: number;
  readonly firstWarning: VerdictPlace | null;
  readonly firstBlock: VerdictPlace | null;
  readonly firstAbort: { readonly at: string; readonly event: number; readonly tool: string } | null;
  readonly warnings: number;
  readonly blocks: number;
  readonly aborts: number;
  readonly blockDetectors: Readonly<Record<string, number>>;
  readonly warnDetectors: Readonly<Record<string, number>>;
  readonly mostRepeated: { readonly tool: string; readonly args: string; readonly calls: number; readonly distinctResults: number } | null;
  /** Event positions (0-based) of warnings, blocks and aborts, for the strip picture. */
  readonly marks: readonly { readonly event: number; readonly kind: "warning" | "block" | "abort" }[];
}

const MAX_ARGS = 160;
const MAX_MARKS = 2000;

export function shortArgs(params: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(params) ?? "undefined";
  } catch {
    text = "(unserialisable)";
  }
  return text.length > MAX_ARGS ? `${text.slice(0, MAX_ARGS - 1)}…` : text;
}

export async function scanSession(file: string, config: ResolvedConfig, target: Target, id: string = file, format: SessionFormat | "auto" = "auto", span?: ElementSpan): Promise<SessionScan> {
  // Model text streams through only to a target that judges it; event numbers stay the same for the others.
  const opened = await openSession(file, format, { text: target.capabilities.readsText === true, span });
  // A whole-trace target (a driven CLI) reads the session in full first; others stream it.
  const whole = target.wholeTrace === undefined ? undefined : await collect(opened.events);
  const session = whole === undefined ? target.start(config) : sessionOver(target, config, whole.map((e) => e.event));
  const tools = new Set<string>();
  const byArgs = new Map<string, { tool: string; args: string; calls: number; results: Set<string> }>();
  const blockDetectors: Record<string, number> = {};
  const warnDetectors: Record<string, number> = {};
  const marks: { event: number; kind: "warning" | "block" | "abort" }[] = [];
  let firstWarning: VerdictPlace | null = null;
  let firstBlock: VerdictPlace | null = null;
  let firstAbort: SessionScan["firstAbort"] = null;
  let warnings = 0;
  let blocks = 0;
  let aborts = 0;
  let index = 0;
  const place = (event: ToolEvent, at: string, detector: string, count: number): VerdictPlace => ({ at, event: index, tool: "tool" in event ? event.tool : "", args: "params" in event ? shortArgs(event.params) : "", detector, count });
  for await (const { event, at } of whole ?? opened.events) {
    for (const o of session.step(event)) {
      if (o.kind === "call") {
        tools.add(o.tool);
        const entry = byArgs.get(o.argsHash) ?? { tool: o.tool, args: shortArgs(event.type === "call" ? event.params : undefined), calls: 0, results: new Set<string>() };
        entry.calls++;
        byArgs.set(o.argsHash, entry);
        if (o.verdict === "warning") {
          warnings++;
          warnDetectors[o.detector] = (warnDetectors[o.detector] ?? 0) + 1;
          firstWarning ??= place(event, at, o.detector, o.count);
          if (marks.length < MAX_MARKS) marks.push({ event: index, kind: "warning" });
        } else if (o.verdict === "critical") {
          blocks++;
          blockDetectors[o.detector] = (blockDetectors[o.detector] ?? 0) + 1;
          firstBlock ??= place(event, at, o.detector, o.count);
          if (marks.length < MAX_MARKS) marks.push({ event: index, kind: "block" });
        }
      } else if (o.kind === "outcome" && o.resultHash !== undefined) {
        byArgs.get(o.argsHash)?.results.add(o.resultHash);
      } else if (o.kind === "abort") {
        aborts++;
        firstAbort ??= { at, event: index, tool: o.tool };
        if (marks.length < MAX_MARKS) marks.push({ event: index, kind: "abort" });
      }
    }
    index++;
  }
  let mostRepeated: SessionScan["mostRepeated"] = null;
  for (const e of byArgs.values()) {
    if (mostRepeated === null || e.calls > mostRepeated.calls) mostRepeated = { tool: e.tool, args: e.args, calls: e.calls, distinctResults: e.results.size };
  }
  return { id, file, format: opened.format, stats: opened.stats, events: index, tools: tools.size, firstWarning, firstBlock, firstAbort, warnings, blocks, aborts, blockDetectors, warnDetectors, mostRepeated, marks };
}
