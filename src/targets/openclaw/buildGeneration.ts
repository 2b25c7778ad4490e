// Which generation of the caller a local build gets (see generation.ts). A release is named by
// its date; a build of a branch is not always: its package.json may say 2026.10.0-dev, something
// that is no date at all, or nothing. The version decides when it is a date (a suffix such as
// -dev or -beta.1 is dropped: 2026.10.0-dev is 2026.10.0's generation); otherwise the code is
// read for the features that mark each generation. Either way the code is read, and where it
// disagrees with the version, a note says so (the version still decides: the caller's behaviour
// that loopsim emulates is not in the detector's code).
import { generationOf, type Generation } from "./generation.js";
import { parseReleaseVersion } from "./versions.js";

export interface BuildFeatures {
  /** detectToolCallLoop takes a fifth `scope` parameter (run scoping). */
  readonly runScoped: boolean;
  /** The detector names unknown_tool_repeat. */
  readonly unknownTool: boolean;
  /** The detector names argument_churn (the constants-only generation). */
  readonly constantsOnly: boolean;
  /** Some chunk defines createPostCompactionLoopGuard. */
  readonly hasGuard: boolean;
}

/** What the detector chunk's source and the guard's presence say about the build. */
export function featuresOf(detectorSource: string, hasGuard: boolean): BuildFeatures {
  const params = /function detectToolCallLoop\(([^)]*)\)/.exec(detectorSource)?.[1] ?? "";
  return {
    runScoped: params.split(",").filter((p) => p.trim() !== "").length >= 5,
    unknownTool: detectorSource.includes("unknown_tool_repeat"),
    constantsOnly: detectorSource.includes("argument_churn"),
    hasGuard,
  };
}

/** The first release of the generation these features mark. */
export function releaseOfFeatures(f: BuildFeatures): string {
  if (f.constantsOnly) return "2026.8.1";
  if (f.hasGuard) return "2026.5.4";
  if (f.runScoped) return "2026.4.26";
  if (f.unknownTool) return "2026.4.14";
  return "2026.2.17";
}

export interface ChosenGeneration {
  readonly generation: Generation;
  /** The release date whose generation applies. */
  readonly asRelease: string;
  readonly notes: readonly string[];
}

export function generationOfBuild(version: string | undefined, features: BuildFeatures): ChosenGeneration {
  const sniffed = releaseOfFeatures(features);
  const parsed = version === undefined ? undefined : parseReleaseVersion(version);
  if (parsed === undefined) {
    const why = version === undefined ? "its package.json has no version" : `its version ${JSON.stringify(version)} is not a release date`;
    return { generation: generationOf(sniffed), asRelease: sniffed, notes: [`Generation: ${why}, so it was read from the code: the caller of ${sniffed} and later.`] };
  }
  const date = parsed.parts.join(".");
  const notes = [`Generation: from its package.json version ${version}${date === version ? "" : ` (as ${date})`}.`];
  const fromVersion = releaseOfFeatures(featuresOfGeneration(generationOf(date), features.hasGuard));
  if (fromVersion !== sniffed) notes.push(`Generation: its code looks like ${sniffed} and later, not like ${version}; the version decides.`);
  return { generation: generationOf(date), asRelease: date, notes };
}

/** The features a generation has, to compare a version's generation with the code's. */
function featuresOfGeneration(g: Generation, guardFound: boolean): BuildFeatures {
  return { runScoped: g.runScoped, unknownTool: g.detectors.includes("unknown_tool_repeat"), constantsOnly: g.enabledGate, hasGuard: g.hasGuard && guardFound };
}
