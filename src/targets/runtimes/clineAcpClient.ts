// A minimal Agent Client Protocol client for Cline's `--acp` mode, run inside the sandbox by node:
// it resumes one stored session (session/load), sends one prompt (session/prompt) and prints
// every message the agent sends, one JSON line each, then a last line {"loopsim":"done", ...}
// (exit 0 when the prompt ended, 1 when anything failed).
// Cline 3.0's `--id` resumes only interactively (its --json mode refuses it); ACP's session/load
// is its headless way to a second prompt of one conversation. Permission requests are granted
// with their first allowing option (Cline's CLI runs auto-approved the same way); any other request
// of the agent's is refused (the client offers no file system or terminal).
// Source text, CommonJS, written into the sandbox's HOME: the sandbox shows nothing of loopsim,
// and the driver runs from dist/ and from src/ alike. Only node built-ins.
// Usage: node loopsim-acp-client.cjs CLINE_BINARY SESSION_ID CWD PROMPT

/** The file name it is written as, in the sandbox's HOME. */
export const ACP_CLIENT_FILE = "loopsim-acp-client.cjs";

export const ACP_CLIENT_SOURCE = `"use strict";
const { spawn } = require("node:child_process");
const { createInterface } = require("node:readline");
const [binary, sessionId, cwd, prompt] = process.argv.slice(2);
if (!binary || !sessionId || !cwd || !prompt) {
  process.stderr.write("usage: loopsim-acp-client CLINE_BINARY SESSION_ID CWD PROMPT\\n");
  process.exit(2);
}
const agent = spawn(binary, ["--acp", "--auto-approve", "true"], { stdio: ["pipe", "pipe", "inherit"], env: process.env });
const pending = new Map();
let next = 1;
let over = false;
const send = (message) => agent.stdin.write(JSON.stringify(Object.assign({ jsonrpc: "2.0" }, message)) + "\\n");
const request = (method, params) => new Promise((resolve) => { const id = next++; pending.set(id, resolve); send({ id, method, params }); });
const finish = (code, line) => {
  if (over) return;
  over = true;
  process.stdout.write(JSON.stringify(Object.assign({ loopsim: "done" }, line)) + "\\n");
  agent.kill();
  process.exit(code);
};
createInterface({ input: agent.stdout }).on("line", (line) => {
  if (!line.startsWith("{")) return;
  let message;
  try { message = JSON.parse(line); } catch { return; }
  process.stdout.write(line + "\\n");
  if (message.method !== undefined && message.id !== undefined) {
    if (message.method === "session/request_permission") {
      const options = (message.params && message.params.options) || [];
      const allow = options.find((o) => o.kind === "allow_always") || options.find((o) => o.kind === "allow_once") || options[0];
      send({ id: message.id, result: { outcome: allow && allow.optionId ? { outcome: "selected", optionId: allow.optionId } : { outcome: "cancelled" } } });
    } else send({ id: message.id, error: { code: -32601, message: "loopsim's client does not offer " + message.method } });
    return;
  }
  if (typeof message.id === "number" && pending.has(message.id)) {
    const resolve = pending.get(message.id);
    pending.delete(message.id);
    resolve(message);
  }
});
agent.on("exit", (code, signal) => finish(1, { error: "cline --acp exited (" + (code === null ? signal : code) + ") before the prompt ended" }));
(async () => {
  const init = await request("initialize", { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false } });
  if (init.error !== undefined) return finish(1, { error: init.error });
  const loaded = await request("session/load", { sessionId, cwd, mcpServers: [] });
  if (loaded.error !== undefined) return finish(1, { error: loaded.error });
  const answered = await request("session/prompt", { sessionId, prompt: [{ type: "text", text: prompt }] });
  return answered.error !== undefined ? finish(1, { error: answered.error }) : finish(0, { result: answered.result });
})();
`;
