// `targets outdated` in-process, with a stub npm first on PATH (no network in tests): exit 0 when
// the committed reports cover the newest of everything, 2 when the registry cannot be asked.
// test/cli/targets.test.ts runs the CLI once for the case where something is newer (exit 1).
import { afterEach, describe, expect, it, vi } from "vitest";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { targetsOutdatedCommand } from "../src/cli/targetsOutdatedOutput.js";
import { tempDir } from "./cli/run.js";

const originalPath = process.env.PATH;
afterEach(() => {
  process.env.PATH = originalPath;
  vi.restoreAllMocks();
});

function stubNpm(script: string): void {
  const dir = tempDir();
  writeFileSync(join(dir, "npm"), `#!/bin/sh\n${script}\n`);
  chmodSync(join(dir, "npm"), 0o755);
  process.env.PATH = `${dir}:${originalPath ?? ""}`;
}

async function outcome(reportsDir?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  vi.spyOn(process.stdout, "write").mockImplementation((chunk) => ((stdout += String(chunk)), true));
  vi.spyOn(process.stderr, "write").mockImplementation((chunk) => ((stderr += String(chunk)), true));
  try {
    await targetsOutdatedCommand({ json: false, ...(reportsDir === undefined ? {} : { reportsDir }) });
    return { code: 0, stdout, stderr };
  } catch (error) {
    return { code: (error as { exitCode?: number }).exitCode ?? 3, stdout, stderr: `${stderr}${(error as Error).message}` };
  }
}

describe("targets outdated", () => {
  it("exit 0 when nothing on the registry is newer than the reports", async () => {
    stubNpm(`case "$2" in
  @google/gemini-cli-core) echo '["0.61.0","0.70.0-nightly.1"]';;
  openclaw) echo '["2026.9.6"]';;
  @qwen-code/qwen-code) echo '["0.24.4"]';;
  opencode-linux-x64) echo '"1.18.33"';;
  *) echo '["7.7.7"]';;
esac`);
    // Reports that cover every runtime at the versions the stub publishes (the committed ones may lag).
    const reports = tempDir();
    mkdirSync(join(reports, "peers"));
    mkdirSync(join(reports, "conformance"));
    writeFileSync(join(reports, "peers", "agreement.json"), JSON.stringify({ reports: ["gemini-cli@0.61.0", "opencode@1.18.33", "kilo@7.7.7", "cline@7.7.7", "crush@7.7.7", "qwen-code@0.24.4"].map((against) => ({ against })) }));
    writeFileSync(join(reports, "conformance", "conformance.json"), JSON.stringify({ targets: [{ target: "openclaw@2026.9.6" }] }));
    const res = await outcome(reports);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout.trim().split("\n").every((l) => l.endsWith("nothing newer on the registry"))).toBe(true);
  });
  it("a version the peers report lists as not runnable (crush) counts as covered: exit 0 is reachable", async () => {
    stubNpm(`case "$2" in
  @google/gemini-cli-core) echo '["0.61.0"]';;
  openclaw) echo '["2026.9.6"]';;
  @qwen-code/qwen-code) echo '["0.24.4"]';;
  opencode-linux-x64) echo '"1.18.33"';;
  *) echo '["7.7.7"]';;
esac`);
    const reports = tempDir();
    mkdirSync(join(reports, "peers"));
    mkdirSync(join(reports, "conformance"));
    writeFileSync(join(reports, "peers", "agreement.json"), JSON.stringify({ reports: ["gemini-cli@0.61.0", "opencode@1.18.33", "kilo@7.7.7", "cline@7.7.7", "qwen-code@0.24.4"].map((against) => ({ against })), notRun: [{ model: "crush", against: "crush@7.7.7", reason: "no binary" }] }));
    writeFileSync(join(reports, "conformance", "conformance.json"), JSON.stringify({ targets: [{ target: "openclaw@2026.9.6" }] }));
    const res = await outcome(reports);
    expect(res.code, res.stdout + res.stderr).toBe(0);
    expect(res.stdout).toContain("reports/peers covers 7.7.7 (listed as not runnable here); nothing newer on the registry");
  });
  it("exit 2, and nothing compared, when the registry cannot be asked", async () => {
    stubNpm("echo 'npm ERR! code ENOTFOUND' >&2; exit 1");
    const res = await outcome();
    expect(res.code).toBe(2);
    expect(res.stdout).toBe("");
    expect(res.stderr).toMatch(/cannot ask the npm registry, so nothing was compared \(offline\?\): @google\/gemini-cli-core: npm ERR! code ENOTFOUND/);
  });
});
