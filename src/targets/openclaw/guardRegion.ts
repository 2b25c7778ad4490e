// The post-compaction guard is not exported: its factory lives inside the runner chunk, which
// imports most of OpenClaw. loopsim loads the release's own guard source, the bundler's region
// for post-compaction-loop-guard.ts, and evaluates it alone with a silent logger. Where the region
// is missing or needs anything else, the guard is reported as not driven (n/a), never emulated.
import { readFileSync } from "node:fs";

export interface GuardVerdict {
  readonly shouldAbort: boolean;
  readonly count?: number;
  readonly toolName?: string;
  readonly message?: string;
}

export interface ReleaseGuard {
  armPostCompaction(): void;
  observe(call: { toolName: string; argsHash: string; resultHash: string }): GuardVerdict;
}

export type GuardFactory = (config: unknown, options?: { enabled: boolean }) => ReleaseGuard;

const REGION = /\/\/#region src\/agents\/[\w-]+\/post-compaction-loop-guard\.ts\n([\s\S]*?)\/\/#endregion/;

const silentLogger = () => {
  const nothing = () => undefined;
  const logger: Record<string, unknown> = { trace: nothing, debug: nothing, info: nothing, warn: nothing, error: nothing, fatal: nothing, raw: nothing, isEnabled: () => false };
  logger.child = () => logger;
  return logger;
};

/** The factory, or the reason it cannot be driven. */
export function loadGuardFactory(chunkFile: string, takesConfig: boolean): { factory: GuardFactory } | { reason: string } {
  const source = readFileSync(chunkFile, "utf8");
  const region = REGION.exec(source)?.[1];
  if (region === undefined) return { reason: "the runner chunk has no post-compaction-loop-guard region" };
  let create: (...args: unknown[]) => ReleaseGuard;
  try {
    // The region's only import is createSubsystemLogger; anything else fails here or in the probe.
    create = new Function("createSubsystemLogger", `${region}\nreturn createPostCompactionLoopGuard;`)(silentLogger) as typeof create;
    if (typeof create !== "function") return { reason: "the guard region does not define createPostCompactionLoopGuard" };
    const probe = (takesConfig ? create({ windowSize: 2 }, { enabled: true }) : create({ enabled: true })) as ReleaseGuard;
    probe.armPostCompaction();
    probe.observe({ toolName: "probe", argsHash: "a", resultHash: "r" });
  } catch (error) {
    return { reason: `the guard region cannot be evaluated alone (${(error as Error).message})` };
  }
  const factory: GuardFactory = takesConfig ? (config, options) => create(config, options) : (_config, options) => create(options);
  return { factory };
}
