// The targets of the field matrix, in column order: the reference, every peer model, every
// OpenClaw release of the release matrix (oldest first), the runtimes run in-process, and the
// runtimes driven through their CLIs. What kind each is decides how it runs and what it can show.
import { PEER_TARGETS } from "../targets/peers/index.js";
import { pinnedDrivenRuntimes } from "../targets/runtimes/drivenRuntimes.js";
import { asTargetRef, parseTargetRef, runtimeOfRef, type TargetRef } from "../targets/targetRef.js";
import { compareReleaseOrder } from "./timeline.js";

/** The releases of docs/guide/release-matrix.md: the first with a detector to the newest. */
export const MATRIX_RELEASES: readonly string[] = ["2026.2.17", "2026.3.13", "2026.3.22", "2026.4.14", "2026.4.26", "2026.5.4", "2026.5.12", "2026.6.5", "2026.7.35", "2026.8.1", "2026.9.6"];

/** Gemini CLI versions run in-process: 0.29.0, the oldest on npm near the reports of early 2026 (0.29.5 is not on npm), and the pinned 0.61.0. */
export const FIELD_GEMINI_VERSIONS: readonly string[] = ["0.29.0", "0.61.0"];

export type TargetKind = "reference" | "oracle" | "zoo variant" | "peer model" | "candidate rule" | "release" | "build" | "runtime in-process" | "runtime driven" | "adapter";

export function targetKind(name: string | TargetRef): TargetKind {
  const ref = asTargetRef(name);
  switch (ref.kind) {
    case "reference":
      return "reference";
    case "oracle":
      return "oracle";
    case "zoo":
      return "zoo variant";
    case "peer":
      return "peer model";
    case "candidate":
      return "candidate rule";
    case "release":
      return "release";
    case "build":
      return "build";
    case "inProcessRuntime":
      return "runtime in-process";
    case "drivenRuntime":
      return "runtime driven";
    case "adapter":
      return "adapter";
    default: {
      const unhandled: never = ref;
      throw new Error(`unhandled target reference ${JSON.stringify(unhandled)}`);
    }
  }
}

/** An OpenClaw release as a thread writes it: 2026.9.4, v2026.4.26, 2026.7.1-2, 2026.8.1-beta.3. */
const RELEASE_IN_TEXT = /(?<![\d.])2026\.\d{1,2}\.\d{1,2}(?:-(?:beta\.\d+|\d+))?/g;

/**
 * Releases the OpenClaw threads name that are not among MATRIX_RELEASES: the reportedVersion, and
 * any release the thread's account (`reported`) or its version note (`reportedAs`) names; a note
 * that starts "not stated" gives the scenario writer's estimate (an era), not a thread's release.
 */
export function threadReleases(scenarios: readonly { readonly runtime: string; readonly reportedVersion: string | null; readonly reportedAs?: string; readonly reported?: string }[]): string[] {
  const named = scenarios
    .filter((s) => s.runtime === "openclaw")
    .flatMap((s) => [...(s.reportedVersion === null ? [] : [s.reportedVersion]), ...((s.reported ?? "").match(RELEASE_IN_TEXT) ?? []), ...(/^not stated/i.test(s.reportedAs ?? "") ? [] : ((s.reportedAs ?? "").match(RELEASE_IN_TEXT) ?? []))]);
  return [...new Set(named)].filter((v) => !MATRIX_RELEASES.includes(v)).sort(compareReleaseOrder);
}

/** Whether a target's verdict depends on the OpenClaw config a cell is judged with. */
export function readsOpenClawConfig(kind: TargetKind): boolean {
  return kind === "reference" || kind === "release" || kind === "build";
}

/** The default columns, when --target is not given; `named`: releases the threads name, which become columns too. */
export function defaultFieldTargets(named: readonly string[] = []): string[] {
  const releases = [...new Set([...MATRIX_RELEASES, ...named])].sort(compareReleaseOrder);
  return [
    "reference",
    ...PEER_TARGETS.map((t) => t.name),
    ...releases.map((v) => `openclaw@${v}`),
    ...FIELD_GEMINI_VERSIONS.map((v) => `gemini-cli@${v}`),
    ...pinnedDrivenRuntimes(),
  ];
}

/** The runtime a target is (or models), as scenario files name runtimes. */
export function runtimeOf(name: string): string {
  const parsed = parseTargetRef(name);
  return parsed.ok ? runtimeOfRef(parsed.ref) : name;
}
