// The targets of the field matrix, in column order: the reference, every peer model, every
// OpenClaw release of the release matrix (oldest first), the runtimes run in-process, and the
// runtimes driven through their CLIs. What kind each is decides how it runs and what it can show.
import { PEER_TARGETS } from "../targets/peers/index.js";
import { pinnedDrivenRuntimes } from "../targets/runtimes/drivenRuntimes.js";
import { asTargetRef, parseTargetRef, runtimeOfRef, type TargetRef } from "../targets/targetRef.js";

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


/** The default columns, when --target is not given. */
export function defaultFieldTargets(): string[] {
  return [
    "reference",
    ...PEER_TARGETS.map((t) => t.name),
    ...MATRIX_RELEASES.map((v) => `openclaw@${v}`),
    ...FIELD_GEMINI_VERSIONS.map((v) => `gemini-cli@${v}`),
    ...pinnedDrivenRuntimes(),
  ];
}

/** The runtime a target is (or models), as scenario files name runtimes. */
export function runtimeOf(name: string): string {
  const parsed = parseTargetRef(name);
  return parsed.ok ? runtimeOfRef(parsed.ref) : name;
}
