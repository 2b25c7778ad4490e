// No vacuous passes: a law names the classes of case it must reach (detectors, levels, families,
// aborts...) and fails when a run of the suite never reached one of them.
export class Coverage {
  private readonly hits = new Map<string, number>();

  constructor(readonly law: string, readonly required: readonly string[]) {}

  hit(tag: string): void {
    this.hits.set(tag, (this.hits.get(tag) ?? 0) + 1);
  }

  reached(tag: string): boolean {
    return (this.hits.get(tag) ?? 0) > 0;
  }

  assertReached(): void {
    const missing = this.required.filter((tag) => !this.reached(tag));
    if (missing.length > 0) {
      throw new Error(`property ${this.law} passed vacuously: its cases never reached ${missing.join(", ")}. Widen its arbitrary.`);
    }
  }

  summary(): string {
    const parts = [...this.hits.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([tag, n]) => `${tag}=${n}`);
    return `coverage ${this.law}: ${parts.join(" ")}`;
  }
}
