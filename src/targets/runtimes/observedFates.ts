// What a driven CLI's output says became of each scripted call of one prompt, as its observer
// (clineCli.ts, opencodeCli.ts, qwenCli.ts, crushCli.ts) reads it: every call not run until the
// output says otherwise, a call the runtime rejected with why, and the PromptObservation they make.
// One place for it, so that every observer reports a rejection the same way (and leaves the
// `rejections` field out when there was none).
import { warningsIn, type CliRun } from "./cliDriver.js";
import type { CallFate, PromptObservation, Rejection } from "./drivenRuntime.js";

export class ObservedFates {
  private readonly fates: Record<string, CallFate> = {};
  private readonly rejections: Record<string, Rejection> = {};

  constructor(private readonly run: CliRun) {
    for (const ids of run.stepCalls) for (const id of ids) this.fates[id] = "not-run";
  }

  /** Whether the id is one of the script's calls (output about any other call is not ours to read). */
  scripted(id: string): boolean {
    return id in this.fates;
  }

  /** The call ran (and perhaps failed), or the loop guard refused it. */
  set(id: string, fate: "ran" | "refused"): void {
    this.fates[id] = fate;
  }

  /** The runtime rejected the call before running it, and the run went on. */
  reject(id: string, why: Rejection): void {
    this.fates[id] = "rejected";
    this.rejections[id] = why;
  }

  /** The prompt ran to the end of its script, as far as its guard is concerned. */
  ranThrough(): PromptObservation {
    return { fates: this.fates, ...this.rejectionsField(), stoppedAtStep: null, warnings: warningsIn(this.run.requests) };
  }

  /** The guard stopped the prompt, by default during the last response served. */
  stopped(message: string, step = Math.max(0, this.run.served - 1)): PromptObservation {
    return { fates: this.fates, ...this.rejectionsField(), stoppedAtStep: step, stopMessage: message, warnings: warningsIn(this.run.requests) };
  }

  private rejectionsField(): { readonly rejections?: Readonly<Record<string, Rejection>> } {
    return Object.keys(this.rejections).length === 0 ? {} : { rejections: this.rejections };
  }
}
