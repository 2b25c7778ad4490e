// The child process of a driven target (drivenTarget.ts): reads a script on stdin, drives the
// runtime named in argv through it, and writes what it observed as JSON on stdout. Its own signal
// handlers (cliDriver.ts) kill the CLI if the parent's timeout ends it.
import { loadDrivenRuntime } from "./drivenRuntimes.js";
import { drivenRuntimeRefOf } from "../targetRef.js";
import type { DrivenScript } from "./drivenRuntime.js";

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
