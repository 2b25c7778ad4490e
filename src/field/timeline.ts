// A report across the versions of its runtime: the verdict on each version judged, oldest first,
// and where a fix was lost again ("fixed in X, back in Y"). A fix counts as the fix only when
// every later version keeps it, so a report that fails again on the newest release is not
// counted among the fixed ones.
import { compareSemver } from "../targets/runtimes/packageCache.js";
import { versionLabelOf } from "../targets/targetRef.js";

export type TimelineStatus = "failure" | "let-through" | "fixed";

export interface TimelinePoint {
  readonly target: string;
  readonly status: TimelineStatus;
}

export interface Regression {
  /** The first version of the fixed stretch. */
  readonly fixedIn: string;
  /** The first later version that is not fixed. */
  readonly backIn: string;
  /** How it came back: the failure again, or a block that lets the loop go on. */
  readonly backAs: "failure" | "let-through";
}

const versionOf = (target: string) => versionLabelOf(target);

/**
 * OpenClaw release order: by date, a pre-release (a suffix with letters, 2026.8.1-beta.3) before
 * its release, a correction (2026.7.1-2) after it. The shared compareReleases sorts suffixes by
 * text only, which would put 2026.8.1-beta.3 after 2026.8.1 on a timeline.
 */
export function compareReleaseOrder(a: string, b: string): number {
  const parse = (v: string) => {
    const m = /^(\d+)\.(\d+)\.(\d+)(?:-(.+))?$/.exec(v);
    if (m === null) return undefined;
    const suffix = m[4];
    const beta = suffix !== undefined && /[a-z]/i.test(suffix);
    const n = suffix === undefined ? 0 : Number(/(\d+)$/.exec(suffix)?.[1] ?? 0);
    // rank: beta -1, plain 0, numeric correction 1
    return { parts: [Number(m[1]), Number(m[2]), Number(m[3])], rank: suffix === undefined ? 0 : beta ? -1 : 1, n };
  };
  const x = parse(a);
  const y = parse(b);
  if (x === undefined || y === undefined) return a < b ? -1 : a > b ? 1 : 0;
  for (let i = 0; i < 3; i++) {
    const d = (x.parts[i] ?? 0) - (y.parts[i] ?? 0);
    if (d !== 0) return d;
  }
  return x.rank !== y.rank ? x.rank - y.rank : x.n - y.n;
}

/** Orders two targets of one runtime by version. */
export function compareTargets(runtime: string, a: string, b: string): number {
  return compareVersions(runtime, versionOf(a), versionOf(b));
}

/** Orders two versions of one runtime (OpenClaw's releases by their own order, the others by semver). */
export function compareVersions(runtime: string, a: string, b: string): number {
  return runtime === "openclaw" ? compareReleaseOrder(a, b) : compareSemver(a, b);
}

/** A pre-release (2026.8.1-beta.3, 0.30.0-preview.1): a column, but not a step of the timeline. */
export function isPrerelease(target: string): boolean {
  return /-.*[a-z]/i.test(versionOf(target));
}

/**
 * The releases judged, oldest first. Pre-releases stay out: a beta is cut from a line that may
 * not be the one its number suggests (2026.7.2-beta.6 behaves like 2026.8.1, not like 2026.7.35),
 * so in the timeline it would invent a fix and a regression between two releases.
 */
export function timelineOf(runtime: string, judged: readonly TimelinePoint[]): TimelinePoint[] {
  return judged.filter((p) => !isPrerelease(p.target)).sort((a, b) => compareTargets(runtime, a.target, b.target));
}

/** Every fixed stretch followed by a version that is not fixed. */
export function regressionsOf(timeline: readonly TimelinePoint[]): Regression[] {
  const found: Regression[] = [];
  let fixedSince: string | undefined;
  for (const point of timeline) {
    if (point.status === "fixed") fixedSince ??= point.target;
    else {
      if (fixedSince !== undefined) found.push({ fixedIn: fixedSince, backIn: point.target, backAs: point.status });
      fixedSince = undefined;
    }
  }
  return found;
}

/** The first release after `from` (a release or a pre-release) from which every release is fixed, to the newest. */
export function lastingFixAfter(timeline: readonly TimelinePoint[], from: string, runtime = "openclaw"): string | undefined {
  let fix: string | undefined;
  for (const point of timeline.filter((p) => compareTargets(runtime, p.target, from) > 0)) {
    if (point.status === "fixed") fix ??= point.target;
    else fix = undefined;
  }
  return fix;
}

/** "fixed in openclaw@X, back in openclaw@Y (let through)". */
export function regressionText(r: Regression): string {
  return `fixed in ${r.fixedIn}, back in ${r.backIn}${r.backAs === "let-through" ? " (blocked, then let through)" : ""}`;
}
