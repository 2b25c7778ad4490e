// A driven CLI runs whatever calls it is given, from anyone's trace: it must do so inside the OS
// sandbox. This drives a stand-in agent (a few lines of node that, like a real CLI, asks the
// scripted model and runs the shell calls it answers with) through the same driver, relay and
// sandbox as opencode or Qwen Code, with calls that try to escape: write into the system's /tmp,
// into this repo and into the host's HOME, reach a non-routable address (TEST-NET-1, 192.0.2.1)
// and a server on the host's loopback. Nothing may get out. A real CLI takes 15-40 s a run; the
// stand-in takes about a second, and the path from the script to the tool is the same.
import { describe, expect, it } from "vitest";
import { createServer } from "node:net";
import { existsSync, writeFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { driveCli, type CliAdapter } from "../src/targets/runtimes/cliDriver.js";
import { sandboxUnavailable } from "../src/targets/runtimes/osSandbox.js";
import type { CallFate, PromptObservation } from "../src/targets/runtimes/drivenRuntime.js";
import { tempDir } from "./cli/run.js";

const why = sandboxUnavailable();
if (why !== undefined) console.log(`SKIPPED: the sandbox escape test: ${why}`);

// The stand-in agent: one request per step, each shell call run with sh, its output sent back.
const AGENT = `
const { execSync } = require("node:child_process");
const base = process.env.MODEL_URL;
const messages = [{ role: "user", content: "go" }];
(async () => {
  for (let turn = 0; turn < 20; turn++) {
    const res = await fetch(base + "/chat/completions", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ model: "m", tools: [{ type: "function", function: { name: "shell" } }], messages }) });
    const message = (await res.json()).choices[0].message;
    messages.push(message);
    if (!message.tool_calls) break;
    for (const call of message.tool_calls) {
      let out;
      try { out = execSync(JSON.parse(call.function.arguments).command, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 10000 }); } catch (e) { out = "FAILED " + String(e.stderr || e.message); }
      process.stdout.write(JSON.stringify({ id: call.id, out }) + "\\n");
      messages.push({ role: "tool", tool_call_id: call.id, content: out });
    }
  }
})();
`;

function standInAdapter(agentDir: string, outputs: { id: string; out: string }[]): CliAdapter {
  return {
    toolCall: (action) => ({ name: "shell", args: { command: action.kind === "shell" ? action.command : "true" } }),
    invocation: ({ baseUrl, home }) => ({ file: process.execPath, args: [join(agentDir, "agent.cjs")], env: { HOME: home, MODEL_URL: baseUrl }, readOnly: [agentDir] }),
    observe(run): PromptObservation | string {
      const fates: Record<string, CallFate> = {};
      for (const line of run.stdout.split("\n").filter((l) => l.startsWith("{"))) {
        const parsed = JSON.parse(line) as { id: string; out: string };
        outputs.push(parsed);
        fates[parsed.id] = "ran";
      }
      return run.exitCode === 0 ? { fates, stoppedAtStep: null, warnings: [] } : `exit ${run.exitCode}: ${run.stderr}`;
    },
  };
}

describe.skipIf(why !== undefined)("the OS sandbox of driven CLIs", () => {
  it("lets a trace's calls write only in the scratch folder and reach only the scripted model", async () => {
    const agentDir = tempDir();
    writeFileSync(join(agentDir, "agent.cjs"), AGENT);
    const tag = `escape-${randomUUID()}`;
    const inRepo = join(process.cwd(), tag);
    const inTmp = join("/tmp", tag);
    const hostHome = join(process.env.HOME ?? "/root", tag);
    const inAgentDir = join(agentDir, tag);
    // A server on the host's loopback: the sandbox's 127.0.0.1 is its own, so nothing may arrive.
    let hostConnections = 0;
    const host = createServer((socket) => {
      hostConnections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => host.listen(0, "127.0.0.1", resolve));
    const hostPort = (host.address() as { port: number }).port;
    const connect = (address: string, port: number) =>
      `node -e 'const s=require("node:net").connect({host:"${address}",port:${port}});s.setTimeout(2000,()=>{console.log("NET-TIMEOUT");process.exit(0)});s.on("connect",()=>{console.log("NET-CONNECTED");process.exit(0)});s.on("error",(e)=>{console.log("NET-BLOCKED "+e.code);process.exit(0)})'`;
    const attempts = [
      `touch ${inTmp} && echo TMP-WRITTEN`,
      `echo x > ${inRepo} && echo REPO-WRITTEN`,
      `echo x > ${hostHome} && echo HOME-WRITTEN`,
      `echo x > ${inAgentDir} && echo RUNTIME-WRITTEN`,
      connect("192.0.2.1", 80),
      connect("127.0.0.1", hostPort),
      "echo x > inside.txt && cat inside.txt && ulimit -d",
    ];
    const outputs: { id: string; out: string }[] = [];
    try {
      const observed = await driveCli(standInAdapter(agentDir, outputs), { files: {}, prompts: [attempts.map((command, i) => ({ calls: [{ id: `c${i}`, action: { kind: "shell", command } }] }))] }, { stepTimeoutMs: 20_000 });
      expect(observed.ok, observed.ok ? "" : observed.error).toBe(true);
    } finally {
      host.close();
    }
    const out = (id: string) => outputs.find((o) => o.id === id)?.out ?? "(not run)";
    // Inside, /tmp is the sandbox's own tmpfs: the write succeeds there and lands nowhere outside.
    expect(out("c0")).toContain("TMP-WRITTEN");
    expect(existsSync(inTmp)).toBe(false);
    // Nothing reaches the repo, the host's HOME or the runtime's own files: what matters is that
    // no file appears outside. A checkout or HOME under /tmp lies beneath the sandbox's own /tmp
    // tmpfs; when a mount point sits inside it (TMPDIR in the checkout, as some CI runners set),
    // bwrap makes its folders in that tmpfs, so the write succeeds inside and lands nowhere.
    // Elsewhere it fails (the path is absent or read-only). The runtime's files are bound
    // read-only wherever they are.
    const hiddenByTmpfs = (path: string) => path === "/tmp" || path.startsWith("/tmp/");
    for (const [id, path] of [["c1", inRepo], ["c2", hostHome], ["c3", inAgentDir]] as const) {
      if (id === "c3" || !hiddenByTmpfs(path)) expect(out(id)).toContain("FAILED");
      expect(existsSync(path)).toBe(false);
    }
    // No route out, and the host's loopback is not the sandbox's.
    expect(out("c4")).toMatch(/NET-BLOCKED (ENETUNREACH|EHOSTUNREACH|ECONNREFUSED)/);
    expect(out("c5")).toMatch(/NET-BLOCKED ECONNREFUSED/);
    expect(hostConnections).toBe(0);
    // The scratch folder is writable, and each process's writable memory is bounded (4 GiB in KiB).
    expect(out("c6")).toBe(`x\n${4 * 1024 * 1024}\n`);
  });
});
