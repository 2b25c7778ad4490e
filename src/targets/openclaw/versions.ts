// OpenClaw releases are named by date (2026.M.D, with -N or -beta.N suffixes); the registry's
// publish order is not version order, so releases are compared by their numbers.

export interface ReleaseVersion {
  readonly text: string;
  readonly parts: readonly number[];
  readonly prerelease: boolean;
}

export function parseReleaseVersion(text: string): ReleaseVersion | undefined {
  const match = /^(\d+)\.(\d+)\.(\d+)(?:-(.+))?$/.exec(text);
  if (match === null) return undefined;
  return { text, parts: [Number(match[1]), Number(match[2]), Number(match[3])], prerelease: match[4] !== undefined && /[a-z]/i.test(match[4]) };
}

/** Compares by year, month, day; a suffix sorts after its plain release only by text. */
export function compareReleases(a: string, b: string): number {
  const x = parseReleaseVersion(a);
  const y = parseReleaseVersion(b);
  if (x === undefined || y === undefined) return a < b ? -1 : a > b ? 1 : 0;
  for (let i = 0; i < 3; i++) {
    const d = (x.parts[i] ?? 0) - (y.parts[i] ?? 0);
    if (d !== 0) return d;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

/** True when `version` is at or after `since` (both plain dates). */
export function atLeast(version: string, since: string): boolean {
  return compareReleases(version, since) >= 0;
}

/** The first release that ships a loop detector. */
export const FIRST_DETECTOR_RELEASE = "2026.2.17";
