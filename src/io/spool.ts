// Text appended to a file instead of kept in memory: a report with one row per session over
// hundreds of thousands of sessions writes its rows here as they come, then copies them into
// place once the summary that heads the report is known.
import { closeSync, openSync, readSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { Writable } from "node:stream";

const CHUNK = 1 << 16;

/** Text spooled to a file in a scratch folder (read it back with `chunks()`, or write a document with writePieces). */
export class Spool {
  private readonly fd: number;
  private pending: string[] = [];
  private pendingSize = 0;
  /** How many pieces were appended (a row count, for the caller's separators). */
  count = 0;

  constructor(dir: string, name: string) {
    this.path = join(dir, name);
    this.fd = openSync(this.path, "w+");
  }

  /** The file the text is spooled to. */
  readonly path: string;

  /** Adds text at the end. */
  append(text: string): void {
    this.count++;
    this.pending.push(text);
    this.pendingSize += text.length;
    if (this.pendingSize >= CHUNK) this.flush();
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    writeSync(this.fd, this.pending.join(""));
    this.pending = [];
    this.pendingSize = 0;
  }

  /** Every chunk of what was appended, in order, read back from the file. */
  *chunks(): Generator<Buffer> {
    this.flush();
    const buffer = Buffer.alloc(CHUNK);
    let position = 0;
    for (;;) {
      const n = readSync(this.fd, buffer, 0, CHUNK, position);
      if (n === 0) return;
      position += n;
      yield Buffer.from(buffer.subarray(0, n));
    }
  }

  /** Closes the file (the scratch folder holding it is removed by its owner). */
  close(): void {
    closeSync(this.fd);
  }
}

/** A document made of text and spooled pieces, in order. */
export type Pieces = readonly (string | Spool)[];

/** Writes the pieces to a stream (stdout), waiting whenever the stream asks to. */
export async function writePieces(out: Writable, pieces: Pieces): Promise<void> {
  const write = async (chunk: string | Buffer): Promise<void> => {
    if (!out.write(chunk)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
  };
  for (const piece of pieces) {
    if (typeof piece === "string") await write(piece);
    else for (const chunk of piece.chunks()) await write(chunk);
  }
}
