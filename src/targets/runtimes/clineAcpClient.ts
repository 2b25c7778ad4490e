// A minimal Agent Client Protocol client for Cline's `--acp` mode, run inside the sandbox by node:
// it resumes one stored session (session/load), sends one prompt (session/prompt) and prints
// every message the agent sends, one JSON line each, then a last line {"loopsim":"done", ...}.
// Cline 3.0's `--id` resumes only interactively (its --json mode refuses it); ACP's session/load
// is its headless way to a second prompt of one conversation. Permission requests are granted
// (Cline's CLI runs auto-approved the same way). Only node built-ins: the sandbox shows nothing
// of loopsim but this file.
// Usage: node clineAcpClient.js CLINE_BINARY SESSION_ID CWD PROMPT
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

interface RpcMessage {
  readonly jsonrpc?: string;
  readonly id?: number | string;
  readonly method?: string;
  readonly params?: Record<string, unknown>;
  readonly result?: unknown;
  readonly error?: unknown;
}

function main(): void {
  const [binary, sessionId, cwd, prompt] = process.argv.slice(2);
  if (binary === undefined || sessionId === undefined || cwd === undefined || prompt === undefined) {
    process.stderr.write("usage: clineAcpClient CLINE_BINARY SESSION_ID CWD PROMPT\n");
    process.exit(2);
  }
  const agent = spawn(binary, ["--acp", "--auto-approve", "true"], { stdio: ["pipe", "pipe", "inherit"], env: process.env });
  const pending = new Map<number, (message: RpcMessage) => void>();
  let next = 1;
  const send = (message: Record<string, unknown>): void => {
    agent.stdin.write(JSON.stringify({ jsonrpc: "2.0", ...message }) + "\n");
  };
  const request = (method: string, params: Record<string, unknown>): Promise<RpcMessage> =>
    new Promise((resolve) => {
      const id = next++;
      pending.set(id, resolve);
      send({ id, method, params });
    });
  const finish = (code: number, line: Record<string, unknown>): void => {
    process.stdout.write(JSON.stringify({ loopsim: "done", ...line }) + "\n");
    agent.kill();
    process.exit(code);
  };
  createInterface({ input: agent.stdout }).on("line", (line) => {
    if (!line.startsWith("{")) return;
    let message: RpcMessage;
    try {
      message = JSON.parse(line) as RpcMessage;
    } catch {
      return;
    }
    process.stdout.write(line + "\n");
    if (message.method !== undefined && message.id !== undefined) {
      // A request of the agent's: grant a permission with its first allowing option; refuse the rest.
      if (message.method === "session/request_permission") {
        const options = (message.params?.options ?? []) as { optionId?: string; kind?: string }[];
        const allow = options.find((o) => o.kind === "allow_always") ?? options.find((o) => o.kind === "allow_once") ?? options[0];
        send({ id: message.id, result: { outcome: allow?.optionId === undefined ? { outcome: "cancelled" } : { outcome: "selected", optionId: allow.optionId } } });
      } else send({ id: message.id, error: { code: -32601, message: `loopsim's client does not offer ${message.method}` } });
      return;
    }
    if (typeof message.id === "number") {
      const resolve = pending.get(message.id);
      pending.delete(message.id);
      resolve?.(message);
    }
  });
  agent.on("exit", (code, signal) => finish(1, { error: `cline --acp exited (${code ?? signal}) before the prompt ended` }));
  void (async () => {
    const init = await request("initialize", { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false } });
    if (init.error !== undefined) return finish(1, { error: init.error });
    const loaded = await request("session/load", { sessionId, cwd, mcpServers: [] });
    if (loaded.error !== undefined) return finish(1, { error: loaded.error });
    const answered = await request("session/prompt", { sessionId, prompt: [{ type: "text", text: prompt }] });
    return answered.error !== undefined ? finish(1, { error: answered.error }) : finish(0, { result: answered.result });
  })();
}

main();
