// A scan report written as the sessions are scanned: each session's JSON row, Markdown row,
// first-block line and HTML strip go to spools, and only the summary stays in memory, so a scan
// of 300,000 sessions needs no more memory than a scan of 3,000. The documents are put together
// at the end, byte for byte what one JSON.stringify of the whole report would give.
import type { BadFile } from "../import/sessionRefs.js";
import { Spool, type Pieces } from "../io/spool.js";
import { type ShardSlice, scanFirstBlockLine, scanHtmlHead, scanHtmlStrip, scanHtmlTail, scanMarkdownFirstBlocksHead, scanMarkdownHead, scanMarkdownRow, scanMarkdownTail, ScanTally, type ScanFrame, type ScanReport } from "./render.js";
import type { SessionScan } from "./scanSession.js";

/** A session's row as it sits in the report's "sessions" array (indented two levels). */
const jsonRow = (x: SessionScan): string => JSON.stringify(x, null, 2).replace(/^/gm, "    ");

/** A scan's report as scan.json, scan.md and scan.html hold it: text and spooled pieces, in order (see writePieces). */
export interface ScanDocuments {
  readonly json: Pieces;
  readonly markdown: Pieces;
  readonly html: Pieces;
}

export class ScanReportWriter {
  private readonly tally = new ScanTally();
  private readonly json: Spool;
  private readonly markdown: Spool;
  private readonly firstBlocks: Spool;
  private readonly html: Spool;

  constructor(
    scratch: string,
    private readonly target: string,
    private readonly config: string,
  ) {
    this.json = new Spool(scratch, "sessions.json");
    this.markdown = new Spool(scratch, "sessions.md");
    this.firstBlocks = new Spool(scratch, "first-blocks.md");
    this.html = new Spool(scratch, "sessions.html");
  }

  add(x: SessionScan): void {
    this.tally.add(x);
    this.json.append((this.json.count === 0 ? "\n" : ",\n") + jsonRow(x));
    this.markdown.append(scanMarkdownRow(x));
    const block = scanFirstBlockLine(x);
    if (block !== undefined) this.firstBlocks.append(block);
    this.html.append((this.html.count === 0 ? "" : "\n") + scanHtmlStrip(x));
  }

  get sessions(): number {
    return this.tally.count;
  }

  documents(unreadable: readonly BadFile[], shard?: ShardSlice): ScanDocuments {
    const frame: ScanFrame = { target: this.target, config: this.config, ...(shard === undefined ? {} : { shard }), summary: this.tally.summary(unreadable.length), unreadable };
    // The report without its sessions, cut where they go: `"sessions": []` can only be the key
    // itself (a quote inside a string value is escaped).
    const shell: ScanReport = { schema: "loopsim/scan@1", target: frame.target, config: frame.config, ...(shard === undefined ? {} : { shard }), sessions: [], unreadable: frame.unreadable, summary: frame.summary };
    const whole = JSON.stringify(shell, null, 2) + "\n";
    const at = whole.indexOf('"sessions": []') + '"sessions": ['.length;
    const json: Pieces = this.json.count === 0 ? [whole] : [whole.slice(0, at), this.json, "\n  ", whole.slice(at)];
    const markdown: Pieces = [scanMarkdownHead(frame), this.markdown, ...(this.firstBlocks.count === 0 ? [] : [scanMarkdownFirstBlocksHead(), this.firstBlocks]), scanMarkdownTail(frame)];
    const html: Pieces = [scanHtmlHead(frame), this.html, scanHtmlTail(frame)];
    return { json, markdown, html };
  }

  close(): void {
    for (const s of [this.json, this.markdown, this.firstBlocks, this.html]) s.close();
  }
}
