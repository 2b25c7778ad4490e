// The child process of a driven target (drivenTarget.ts): reads a script on stdin, drives the
// runtime named in argv through it, and writes what it observed as JSON on stdout. Its own signal
// handlers (cliDriver.ts) kill the CLI if the parent's timeout ends it. The parent waits blocked
// (the Target interface is synchronous) and so cannot pass a signal on: if it dies (SIGTERM or
// SIGKILL by its id alone, not Ctrl-C, which reaches this process too), this one is handed to
// another parent, and stops the same way, so no CLI runs on and no scratch folder is left.
import { loadDrivenRuntime } from "./drivenRuntimes.js";
import { drivenRuntimeRefOf } from "../targetRef.js";
import type { DrivenScript } from "./drivenRuntime.js";

const PARENT = process.ppid;
const PARENT_CHECK_MS = 250;
setInterval(() => {
  if (process.ppid !== PARENT) process.kill(process.pid, "SIGTERM");
}, PARENT_CHECK_MS).unref();

async function main(): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const script = JSON.parse(Buffer.concat(chunks).toString("utf8")) as DrivenScript;
  const runtime = await loadDrivenRuntime(drivenRuntimeRefOf(process.argv[2] ?? ""), (line) => process.stderr.write(line + "\n"));
  const observed = await runtime.drive(script);
  process.stdout.write(JSON.stringify(observed));
}

main().catch((error: unknown) => {
  process.stdout.write(JSON.stringify({ ok: false, error: (error as Error).message.split("\n")[0] }));
});
