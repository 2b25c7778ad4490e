// `loopsim targets outdated`: asks the npm registry which versions exist of every runtime that
// runs here and of OpenClaw, and names each one newer than what the committed reports cover:
// reports/peers/agreement.json (models against real runtimes) and
// reports/conformance/conformance.json (OpenClaw releases). Exit 0 when the reports cover the
// newest of everything, 1 when something newer exists (a check that failed: regenerate them),
// 2 when the registry cannot be asked (offline: nothing was compared) or a report is missing.
// `outdatedTargets` asks and compares, printing nothing; src/cli/targetsOutdatedOutput.ts prints.
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";
import { UserError } from "../io/errors.js";
import { packageRoot } from "../io/packageRoot.js";
import { compareReleases } from "../targets/openclaw/versions.js";
import { compareSemver, npmEnv } from "../targets/runtimes/packageCache.js";
import { runtimeListing } from "../targets/runtimes/runtimeList.js";
import { parseTargetRef, runtimeOfRef, versionOfRef } from "../targets/targetRef.js";

const run = promisify(execFile);
export const REGISTRY_TIMEOUT_MS = 60_000;

interface Subject {
  /** The name before `@`: gemini-cli, qwen-code, openclaw... */
  readonly names: readonly string[];
  readonly npmPackage: string;
  readonly compare: (a: string, b: string) => number;
  readonly report: string;
}

/** One runtime (or OpenClaw): the versions the committed report covers, and the newer ones on the registry. */
export interface OutdatedRow {
  readonly subject: string;
  readonly npmPackage: string;
  readonly report: string;
  readonly covered: readonly string[];
  /** Covered versions the report lists as not run here, with its reason. */
  readonly notRunnable?: readonly string[];
  readonly newer: readonly string[];
  readonly newest: string | undefined;
}

/** The committed reports: beside the package (a checkout), or where --reports says. */
export function defaultReportsDir(): string {
  return join(packageRoot(), "reports");
}

function readJson(file: string): unknown {
  if (!existsSync(file)) throw new UserError(`${file}: no committed report there (run from a checkout, or pass --reports DIR)`);
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new UserError(`${file}: not JSON (${(error as Error).message})`);
  }
}

/**
 * `name@version` strings a committed report covers, from both reports. A runtime version the
 * peers report lists as not run (it cannot run here: no binary on the registry, GitHub out of
 * reach) was considered and recorded with its reason: it counts as covered, marked `notRunnable`,
 * or `targets outdated` could never exit 0.
 */
export function coveredNames(reportsDir: string): { peers: string[]; conformance: string[]; notRunnable: string[] } {
  const peers = readJson(join(reportsDir, "peers", "agreement.json")) as { reports?: { against?: unknown }[]; notRun?: { against?: unknown }[] };
  const conformance = readJson(join(reportsDir, "conformance", "conformance.json")) as { targets?: { target?: unknown }[] };
  const notRunnable = (peers.notRun ?? []).map((r) => r.against).filter((a): a is string => typeof a === "string");
  return {
    peers: [...(peers.reports ?? []).map((r) => r.against).filter((a): a is string => typeof a === "string"), ...notRunnable],
    conformance: (conformance.targets ?? []).map((t) => t.target).filter((t): t is string => typeof t === "string"),
    notRunnable,
  };
}

/** A report key's runtime and version (undefined for a key that names no runtime at a version). */
function runtimeVersion(name: string): { runtime: string; version: string } | undefined {
  const parsed = parseTargetRef(name);
  if (!parsed.ok) return undefined;
  const version = versionOfRef(parsed.ref);
  return version === undefined ? undefined : { runtime: runtimeOfRef(parsed.ref), version };
}

function subjects(): Subject[] {
  const byPackage = new Map<string, string[]>();
  for (const r of runtimeListing()) byPackage.set(r.npmPackage, [...(byPackage.get(r.npmPackage) ?? []), r.runtime]);
  return [
    ...[...byPackage].map(([npmPackage, names]) => ({ names, npmPackage, compare: compareSemver, report: "reports/peers" })),
    { names: ["openclaw"], npmPackage: "openclaw", compare: compareReleases, report: "reports/conformance" },
  ];
}

/** Published versions of a package (prereleases left out), or why the registry did not answer. */
async function publishedVersions(npmPackage: string): Promise<string[] | { error: string }> {
  try {
    const { stdout } = await run("npm", ["view", npmPackage, "versions", "--json"], { env: npmEnv(), timeout: REGISTRY_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 });
    const parsed = JSON.parse(stdout) as unknown;
    const list = Array.isArray(parsed) ? parsed : [parsed];
    return list.filter((v): v is string => typeof v === "string" && !v.includes("-"));
  } catch (error) {
    const e = error as { killed?: boolean; stderr?: string; message?: string; code?: string };
    if (e.killed === true) return { error: `no answer within ${REGISTRY_TIMEOUT_MS / 1000} s` };
    if (e.code === "ENOENT") return { error: "the npm client is not on PATH" };
    return { error: `${e.stderr ?? e.message ?? ""}`.trim().split("\n").at(-1) ?? "npm failed" };
  }
}

/**
 * The registry asked once, directly, before npm is: npm retries a refused connection with backoff
 * for about a minute, though nothing listens and nothing will. Undefined when the connection is
 * made, times out, or cannot be judged here (a proxy stands between: npm goes through it).
 */
async function refusedRegistry(): Promise<string | undefined> {
  if (Object.keys(process.env).some((k) => /^(https?|all)_proxy$/i.test(k) && (process.env[k] ?? "") !== "")) return undefined;
  let config: string;
  try {
    config = (await run("npm", ["config", "get", "registry", "proxy", "https-proxy"], { env: npmEnv(), timeout: 15_000 })).stdout;
  } catch {
    return undefined; // npm itself will say what is wrong
  }
  const get = (key: string) => new RegExp(`^${key}=(.*)$`, "m").exec(config)?.[1]?.trim();
  if ([get("proxy"), get("https-proxy")].some((v) => v !== undefined && v !== "" && v !== "null")) return undefined;
  let url: URL;
  try {
    url = new URL(get("registry") ?? "");
  } catch {
    return undefined;
  }
  const port = url.port !== "" ? Number(url.port) : url.protocol === "http:" ? 80 : 443;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (answer: string | undefined) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(5_000, () => done(undefined));
    socket.once("connect", () => done(undefined));
    socket.once("error", (error: NodeJS.ErrnoException) => done(error.code === "ECONNREFUSED" ? `${url.origin} refused the connection` : undefined));
  });
}

/** What `targets outdated` found: each runtime's versions the committed reports cover, and what the registry has that is newer. */
export interface OutdatedReport {
  /** The reports folder compared. */
  readonly reports: string;
  readonly rows: readonly OutdatedRow[];
  /** The rows with a version no committed report covers (they make `targets outdated` exit 1). */
  readonly stale: readonly OutdatedRow[];
}

/**
 * Asks the npm registry (once per package, with a timeout) which versions each runtime has, and
 * compares them with the versions the committed reports cover; prints nothing (`notice` hears
 * what is asked). A registry that cannot be asked is a user error: nothing is compared.
 */
export async function outdatedTargets(options: { readonly reportsDir?: string } = {}, notice: (line: string) => void = () => undefined): Promise<OutdatedReport> {
  const reportsDir = options.reportsDir ?? defaultReportsDir();
  const covered = coveredNames(reportsDir);
  const all = subjects();
  const refused = await refusedRegistry();
  if (refused !== undefined) throw new UserError(`cannot ask the npm registry, so nothing was compared: ${refused} (a refused connection is final, so it is not retried)`);
  notice(`asking the npm registry (npm view PACKAGE versions, ${REGISTRY_TIMEOUT_MS / 1000} s timeout) about ${all.map((s) => s.npmPackage).join(", ")}`);
  const answers = await Promise.all(all.map((s) => publishedVersions(s.npmPackage)));
  const unreachable = all.flatMap((s, i) => {
    const a = answers[i];
    return a !== undefined && !Array.isArray(a) ? [`${s.npmPackage}: ${a.error}`] : [];
  });
  if (unreachable.length > 0) throw new UserError(`cannot ask the npm registry, so nothing was compared (offline?): ${unreachable.join("; ")}`);
  const rows: OutdatedRow[] = all.map((s, i) => {
    const published = (answers[i] as string[]).slice().sort(s.compare);
    const names = s.report === "reports/conformance" ? covered.conformance : covered.peers;
    const mine = names.flatMap((n) => {
      const rv = runtimeVersion(n);
      return rv !== undefined && s.names.includes(rv.runtime) ? [{ ...rv, notRunnable: covered.notRunnable.includes(n) }] : [];
    });
    const versions = [...new Set(mine.map((m) => m.version))].sort(s.compare);
    const notRunnable = [...new Set(mine.filter((m) => m.notRunnable).map((m) => m.version))];
    const top = versions.at(-1);
    const newer = top === undefined ? [] : published.filter((v) => s.compare(v, top) > 0);
    return { subject: s.names.join(", "), npmPackage: s.npmPackage, report: s.report, covered: versions, ...(notRunnable.length === 0 ? {} : { notRunnable }), newer, newest: published.at(-1) };
  });
  return { reports: reportsDir, rows, stale: rows.filter((r) => r.newer.length > 0 || r.covered.length === 0) };
}

/** `targets outdated`'s text: one line per runtime. */
export function outdatedText(report: OutdatedReport): string {
  const lines = report.rows.map((r) => {
    const cover = r.covered.length === 0 ? "no committed report covers it" : `${r.report} covers ${r.covered.map((v) => (r.notRunnable?.includes(v) === true ? `${v} (listed as not runnable here)` : v)).join(", ")}`;
    const verdict = r.covered.length === 0 ? `newest on the registry: ${r.newest ?? "none"}` : r.newer.length === 0 ? "nothing newer on the registry" : `newer on the registry: ${r.newer.join(", ")}`;
    return `${r.subject} (${r.npmPackage}): ${cover}; ${verdict}`;
  });
  return lines.join("\n") + "\n";
}
