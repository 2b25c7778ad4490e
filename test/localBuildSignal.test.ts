// Ctrl-C (or SIGTERM) while `--target openclaw@X.tgz` is unpacking and installing: the children
// (npm here, with a child of its own) are stopped and waited for, then the scratch folder goes; no
// stack, no folder, no process left. A small fake tarball and a fake npm keep it cheap (no
// network, no real install): the fake npm only waits, as a slow install does.
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { until } from "./waitFor.js";
import { tempDir } from "./cli/run.js";

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    const stat = existsSync(`/proc/${pid}/stat`) ? readFileSync(`/proc/${pid}/stat`, "utf8") : "";
    return !/\) Z /.test(stat);
  } catch {
    return false;
  }
}


describe.skipIf(process.platform === "win32")("a signal during a tarball build", () => {
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    it(`${signal} by PID mid-install kills npm and its child, waits, then removes the scratch folder`, async () => {
      const dir = tempDir();
      mkdirSync(join(dir, "package", "dist"), { recursive: true });
      writeFileSync(join(dir, "package", "package.json"), JSON.stringify({ name: "openclaw", version: "2026.10.0", dependencies: { "fake-dep": "1.0.0" } }));
      writeFileSync(join(dir, "package", "dist", "detector.js"), 'import "fake-dep";\nexport function detectToolCallLoop() { return { stuck: false }; }\n');
      const tarball = join(dir, "openclaw-2026.10.0.tgz");
      expect(spawnSync("tar", ["czf", tarball, "-C", dir, "package"]).status).toBe(0);
      const bin = join(dir, "bin");
      mkdirSync(bin);
      const mark = join(dir, "npm-started");
      // npm's stand-in: starts a child of its own, says who they are, and waits.
      writeFileSync(join(bin, "npm"), `#!/bin/sh\nsleep 60 &\necho "$$ $!" > "${mark}.part" && mv "${mark}.part" "${mark}"\nwait\n`);
      chmodSync(join(bin, "npm"), 0o755);
      const tmp = tempDir();
      const child = spawn(process.execPath, [join(import.meta.dirname, "..", "bin", "loopsim.js"), "trace", "/dev/null", "--target", `openclaw@${tarball}`], {
        env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ""}`, TMPDIR: tmp, LOOPSIM_CACHE: tempDir() },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stderr = "";
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
      expect(await until(() => existsSync(mark), 20_000), stderr).toBe(true);
      expect(readdirSync(tmp).filter((f) => f.startsWith("loopsim-openclaw-build-"))).toHaveLength(1);
      const pids = readFileSync(mark, "utf8").trim().split(" ").map(Number);
      child.kill(signal);
      const code = await exited;
      expect(code, stderr).toBe(signal === "SIGINT" ? 130 : 143);
      expect(stderr).not.toMatch(/ENOTEMPTY|\n\s+at /);
      expect(readdirSync(tmp)).toEqual([]);
      for (const pid of pids) expect(alive(pid), `process ${pid} left running`).toBe(false);
    });
  }
});
