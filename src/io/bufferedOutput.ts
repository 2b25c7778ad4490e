// Buffered line output with back-pressure: millions of lines go out fast, and only whole lines
// are ever written, so output cut short by an error still parses line by line.
import type { Writable } from "node:stream";

export class LineWriter {
  private buffer: string[] = [];
  private size = 0;

  constructor(private readonly out: Writable = process.stdout) {}

  async line(text: string): Promise<void> {
    this.buffer.push(text);
    this.size += text.length + 1;
    if (this.size >= 1 << 16) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.buffer.length === 0) return;
    const chunk = this.buffer.join("\n") + "\n";
    this.buffer = [];
    this.size = 0;
    if (!this.out.write(chunk)) await new Promise<void>((resolve) => this.out.once("drain", () => resolve()));
  }
}
