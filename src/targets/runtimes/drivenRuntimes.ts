// The runtimes loopsim drives end to end through their published CLIs, by the names `--against`
// and `targets fetch` take: `opencode@V`, `kilo@V`, `qwen-code@V` (or `@latest`), and
// `qwen-code:heuristics@V` (the same CLI with its heuristic tier switched on in its settings).
// Each is fetched once with npm into the cache. The versions pinned here are the ones the committed report was
// made with; other versions work when their CLI speaks the same way.
import { chmodSync, existsSync } from "node:fs";
import { join } from "node:path";
import { UserError } from "../../io/errors.js";
import { driveCli, type CliAdapter } from "./cliDriver.js";
import { CLINE_BINARY, clineAdapter } from "./clineCli.js";
import { CRUSH_PACKAGE, crushAdapter, runCrushInstaller } from "./crushCli.js";
import type { DrivenRuntime, DriveOptions, DrivenScript } from "./drivenRuntime.js";
import { DEFAULT_SANDBOX_MEMORY_BYTES } from "./osSandbox.js";
import { KILO_FLAVOUR, OPENCODE_FLAVOUR, opencodeAdapter, type OpencodeFlavour } from "./opencodeCli.js";
import { cacheRoot } from "../openclaw/cache.js";
import { cachedRuntimeVersions, ensureRuntime, latestVersion, npm, npmInstallInto, npmPackInto, readRuntimeManifest, runtimeDir } from "./packageCache.js";
import type { Target } from "../target.js";
import { drivenTarget } from "./drivenTarget.js";
import { QWEN_PACKAGE, qwenAdapter } from "./qwenCli.js";
import { versionText, type DrivenRuntimeRef } from "../versionSpec.js";

interface RuntimeKind {
  readonly runtime: string;
  /** The cache folder its package lives in (variants share their runtime's). */
  readonly cache: string;
  /** The package whose version names the runtime (for @latest). */
  readonly npmPackage: string;
  readonly pinned: string;
  readonly summary: string;
  readonly notes: readonly string[];
  /** The bound of the memory each of its sandboxed processes may write (RLIMIT_DATA, osSandbox.ts). */
  readonly memoryBytes: number;
  /** Why it cannot run on this machine, if it cannot. */
  unavailable(): string | undefined;
  install(dir: string, version: string): Promise<readonly string[]>;
  adapter(dir: string): CliAdapter;
}

const linuxX64 = (): string | undefined => (process.platform === "linux" && process.arch === "x64" ? undefined : `its binary is pinned for linux-x64; this machine is ${process.platform}-${process.arch}`);

function opencodeKind(flavour: OpencodeFlavour, npmPackage: string, pinned: string, summary: string, memoryBytes: number): RuntimeKind {
  return {
    runtime: flavour.runtime,
    cache: flavour.runtime,
    npmPackage,
    pinned,
    summary,
    memoryBytes,
    notes: ["`run --format json`, headless: a doom_loop permission request is auto-rejected and the run ends with an error", "the scripted model is an @ai-sdk/openai-compatible provider in the scratch folder's opencode.json", "that config allows external_directory, bash and read, which headless runs would otherwise auto-reject (ending the run): they guard the machine, not the loop; doom_loop stays as shipped", "a recorded call spelled for another agent's tools is spelled in opencode's schema where the record plainly says the same thing (file_path as filePath; several shell commands of one action as one command); the rest goes as recorded"],
    unavailable: linuxX64,
    async install(dir, version) {
      try {
        await npmPackInto(dir, `${flavour.platformPackage}@${version}`);
      } catch (error) {
        throw await missingBinary(flavour, version, error);
      }
      const binary = join(dir, flavour.binary);
      if (!existsSync(binary)) throw new UserError(`${flavour.runtime}@${version}: layout not recognised: no ${flavour.binary} in ${flavour.platformPackage}`);
      chmodSync(binary, 0o755);
      return [`${flavour.platformPackage}@${version}`];
    },
    adapter: (dir) => opencodeAdapter(flavour, dir),
  };
}

/** A release whose wrapper is on the registry but whose linux-x64 binary package is not (Kilo
 * 7.8.1: every platform package of it answers 404): say so, and name the newest binary there is. */
async function missingBinary(flavour: OpencodeFlavour, version: string, error: unknown): Promise<unknown> {
  const wrapper = flavour.wrapperPackage;
  if (!(error instanceof UserError) || !/no such version/.test(error.message)) return error;
  const [wrapperThere, newestBinary] = await Promise.all([npm(["view", `${wrapper}@${version}`, "version"], cacheRoot()).then((v) => v.trim() !== "", () => false), npm(["view", flavour.platformPackage, "version"], cacheRoot()).then((v) => v.trim(), () => "")]);
  const newest = newestBinary === "" ? "" : ` (the newest binary there is ${flavour.platformPackage}@${newestBinary}: ${flavour.runtime}@${newestBinary})`;
  return new UserError(`${flavour.runtime}@${version}: ${wrapperThere ? `${wrapper}@${version} is published, but` : "there is no"} its linux-x64 binary package ${flavour.platformPackage}@${version} ${wrapperThere ? "is not on the npm registry, so there is nothing to run" : "on the npm registry"}${newest}`);
}

/**
 * Kilo's bound of writable memory per process. RLIMIT_DATA counts what a process reserves, not
 * what it uses, and Kilo's JavaScriptCore (bun) reserves far ahead of its heap. Measured driven
 * through pvlib-python-1072 (deepseek_lite_dev_noparallel, 90 responses; `loopsim trace --target
 * kilo@7.7.9`, the sandbox's own run, /proc polled every 0.2 s; 2026-12-05): under the default
 * 4 GiB it aborted at the 79th response (exit 134, JSC::LocalAllocator::allocateSlowCase) holding
 * 1.0 GiB; under 16 GiB it ran all 90, reserving at most 7.7 GiB (VmData 8,036,396 kB) while its
 * peak resident memory was 1.34 GiB (VmHWM 1,405,800 kB; 1,396,620 kB in a second run) and the
 * whole sandbox's, its commands included, 2.1 GiB. 16 GiB is twice that reservation; what a run
 * really holds is bounded by the resident watchdog (residentWatchdog.ts).
 */
const KILO_MEMORY_BYTES = 16 * 1024 ** 3;

const CLINE_PLATFORM_PACKAGE = "@cline/cli-linux-x64";

const KINDS: readonly RuntimeKind[] = [
  opencodeKind(OPENCODE_FLAVOUR, "opencode-linux-x64", "1.18.33", "opencode's own CLI binary, driven through the scripted model", DEFAULT_SANDBOX_MEMORY_BYTES),
  opencodeKind(KILO_FLAVOUR, "@kilocode/cli-linux-x64", "7.7.7", "Kilo Code's own CLI binary (opencode's engine), driven through the scripted model", KILO_MEMORY_BYTES),
  {
    runtime: "cline",
    cache: "cline",
    npmPackage: CLINE_PLATFORM_PACKAGE,
    pinned: "3.0.65",
    memoryBytes: DEFAULT_SANDBOX_MEMORY_BYTES,
    summary: "Cline's own CLI binary (npm cline 3.0), driven headless through the scripted model",
    notes: ["`cline auth` stores the scripted model as an OpenAI provider in the sandbox's HOME; `cline --json` runs the prompt, every tool auto-approved", "a later prompt resumes the session through `cline --acp` (session/load, session/prompt): its --id resumes only interactively, and --json refuses that", "a recorded call goes to Cline's own tool for the same work, one to one (bash {command} to run_commands, the code-act file tools to read_files and editor); any other as recorded: a tool Cline lacks is rejected, and 3 turns in a row of rejected calls end its run (its consecutive-mistake limit), which is then reported as not run"],
    unavailable: linuxX64,
    async install(dir, version) {
      await npmPackInto(dir, `${CLINE_PLATFORM_PACKAGE}@${version}`);
      const binary = join(dir, CLINE_BINARY);
      if (!existsSync(binary)) throw new UserError(`cline@${version}: layout not recognised: no ${CLINE_BINARY} in ${CLINE_PLATFORM_PACKAGE}`);
      chmodSync(binary, 0o755);
      return [`${CLINE_PLATFORM_PACKAGE}@${version}`];
    },
    adapter: (dir) => clineAdapter(dir),
  },
  {
    runtime: "crush",
    cache: "crush",
    npmPackage: CRUSH_PACKAGE,
    pinned: "0.96.1",
    memoryBytes: DEFAULT_SANDBOX_MEMORY_BYTES,
    summary: "Crush's own CLI (a Go binary), driven headless (`crush run`) through the scripted model",
    notes: ["the scripted model is an openai-compat provider in the scratch folder's crush.json", "it prints only its final text: what ran is read from the results that reached the model", "its npm package downloads the binary from GitHub at install: it cannot be fetched where GitHub is unreachable"],
    unavailable: linuxX64,
    async install(dir, version) {
      await npmInstallInto(dir, `${CRUSH_PACKAGE}@${version}`);
      await runCrushInstaller(dir, version);
      return [`${CRUSH_PACKAGE}@${version}`];
    },
    adapter: (dir) => crushAdapter(dir),
  },
  qwenKind(false),
  qwenKind(true),
];

function qwenKind(heuristics: boolean): RuntimeKind {
  return {
    runtime: heuristics ? "qwen-code:heuristics" : "qwen-code",
    cache: "qwen-code",
    npmPackage: QWEN_PACKAGE,
    pinned: "0.24.4",
    memoryBytes: DEFAULT_SANDBOX_MEMORY_BYTES,
    summary: heuristics ? "Qwen Code's own CLI with model.skipLoopDetection false in its settings (its heuristic tier on), driven headless through the scripted model" : "Qwen Code's own CLI, driven headless through the scripted model",
    notes: ["`-o stream-json --approval-mode yolo`; usage statistics and telemetry off in the sandbox's settings", "asks for Node 22 and runs on Node 20 (the warning is npm's only)", "a recorded call goes to Qwen's own tool for the same work, one to one (bash {command} to run_shell_command, print_code_context to read_file, code_replace to edit, save_code_to_file to write_file, relative paths inside the scratch folder); any other as recorded: a tool Qwen lacks is answered 'not found in registry' and runs nothing, though its loop guard counts the call", ...(heuristics ? ["settings.json sets model.skipLoopDetection: false: the heuristic tier the CLI ships switched off runs"] : [])],
    unavailable: () => undefined,
    async install(dir, version) {
      await npmInstallInto(dir, `${QWEN_PACKAGE}@${version}`, ["--omit=optional"]);
      return [`${QWEN_PACKAGE}@${version}`];
    },
    adapter: (dir) => qwenAdapter(dir, heuristics ? { model: { skipLoopDetection: false } } : {}),
  };
}

export const DRIVEN_RUNTIME_NAMES: readonly string[] = KINDS.map((k) => k.runtime);

/** The bound of writable memory each sandboxed process of a driven runtime gets (RLIMIT_DATA), by its name without a version. */
export function drivenRuntimeMemoryBytes(runtime: string): number | undefined {
  return KINDS.find((k) => k.runtime === runtime)?.memoryBytes;
}

/** The table's row for a parsed reference (the name was parsed once, in targetRef.ts). */
function kindOf(ref: DrivenRuntimeRef): RuntimeKind | undefined {
  return KINDS.find((k) => k.runtime === ref.runtime);
}

const nameOf = (ref: DrivenRuntimeRef): string => `${ref.runtime}@${versionText(ref.version)}`;

/** The pinned version of each driven runtime (what the committed report used). */
export function pinnedDrivenRuntimes(): string[] {
  return KINDS.map((k) => `${k.runtime}@${k.pinned}`);
}

async function resolve(ref: DrivenRuntimeRef, onNote: (line: string) => void): Promise<{ kind: RuntimeKind; version: string }> {
  const kind = kindOf(ref);
  if (kind === undefined) throw new UserError(`${nameOf(ref)}: not a driven runtime (known: ${DRIVEN_RUNTIME_NAMES.map((r) => `${r}@VERSION`).join(", ")})`);
  const why = kind.unavailable();
  if (why !== undefined) throw new UserError(`${nameOf(ref)}: n/a on this machine: ${why}`);
  switch (ref.version.kind) {
    case "latest":
      return { kind, version: await latestVersion(kind.cache, kind.npmPackage, onNote) };
    case "exact":
      return { kind, version: ref.version.version };
    default: {
      const unhandled: never = ref.version;
      throw new Error(`unhandled version ${JSON.stringify(unhandled)}`);
    }
  }
}

/** Fetches the runtime into the cache (once); returns its name with the version. */
export async function fetchDrivenRuntime(ref: DrivenRuntimeRef, onNote: (line: string) => void): Promise<string> {
  const { kind, version } = await resolve(ref, onNote);
  await ensureRuntime(kind.cache, version, (dir) => kind.install(dir, version), onNote);
  return `${kind.runtime}@${version}`;
}

/** Whether the runtime is in the cache already (tests say SKIPPED when it is not). */
export function isDrivenRuntimeCached(ref: DrivenRuntimeRef): boolean {
  const kind = kindOf(ref);
  return kind !== undefined && ref.version.kind === "exact" && readRuntimeManifest(kind.cache, ref.version.version) !== undefined;
}

export async function loadDrivenRuntime(ref: DrivenRuntimeRef, onNote: (line: string) => void = (line) => process.stderr.write(line + "\n")): Promise<DrivenRuntime> {
  const { kind, version } = await resolve(ref, onNote);
  await ensureRuntime(kind.cache, version, (dir) => kind.install(dir, version), onNote);
  const adapter = kind.adapter(runtimeDir(kind.cache, version));
  return {
    name: `${kind.runtime}@${version}`,
    summary: `${kind.summary} (${kind.npmPackage}@${version})`,
    notes: kind.notes,
    toolCall: adapter.toolCall,
    drive: (script: DrivenScript, options?: DriveOptions) => driveCli(adapter, script, { ...options, memoryBytes: options?.memoryBytes ?? kind.memoryBytes }),
  };
}

/** The driven runtime as a target of whole-trace commands (fetched first, once). */
export async function loadDrivenTarget(ref: DrivenRuntimeRef, onNote: (line: string) => void = (line) => process.stderr.write(line + "\n")): Promise<Target> {
  const runtime = await loadDrivenRuntime(ref, onNote);
  return drivenTarget(runtime.name, ref.runtime, runtime.summary, runtime.notes);
}

/** Each driven runtime with the npm package its versions come from, its pinned and its cached versions. */
export function drivenRuntimeVersions(): { runtime: string; npmPackage: string; pinned: string; cached: string[]; unavailable: string | undefined }[] {
  return KINDS.map((k) => ({ runtime: k.runtime, npmPackage: k.npmPackage, pinned: k.pinned, cached: cachedRuntimeVersions(k.cache), unavailable: k.unavailable() }));
}
