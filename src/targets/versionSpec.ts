// The version part of a target reference, in a module of its own so that the driven runtimes'
// table (which the target-reference module reads for its names) can take a parsed reference
// without importing the parser back: an import cycle.

/** `@latest` (the registry's newest, asked when loaded) or one version. */
export type VersionSpec = { readonly kind: "latest" } | { readonly kind: "exact"; readonly version: string };

/** A driven runtime as a parsed target reference names it: `RUNTIME@VERSION` or `RUNTIME@latest`. */
export interface DrivenRuntimeRef {
  readonly runtime: string;
  readonly version: VersionSpec;
}

/** `latest` or the version: what follows `@`. */
export function versionText(version: VersionSpec): string {
  switch (version.kind) {
    case "latest":
      return "latest";
    case "exact":
      return version.version;
    default: {
      const unhandled: never = version;
      throw new Error(`unhandled version ${JSON.stringify(unhandled)}`);
    }
  }
}
