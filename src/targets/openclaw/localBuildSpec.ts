// Telling a local build from a release in `openclaw@...` without loading anything (the registry
// asks this of every name, and loads localBuild.ts only when it is one).
const TARBALL = /\.(tgz|tar\.gz|tar)$/;

export function isTarball(path: string): boolean {
  return TARBALL.test(path);
}

/**
 * Whether what follows `openclaw@` names a path rather than a release: `file:` anything, or a
 * path-looking text (a slash, a leading dot or tilde, a tarball's extension). `openclaw@2026.9.6`
 * and `openclaw@latest` stay releases.
 */
export function isLocalBuildSpec(spec: string): boolean {
  return spec.startsWith("file:") || spec.includes("/") || spec.includes("\\") || spec.startsWith(".") || spec.startsWith("~") || isTarball(spec);
}
