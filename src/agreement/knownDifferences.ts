// What the differences between a model and a real runtime mean, where they were read off the
// real code: printed under the runtime's section of the agreement report, so a reader knows which
// differences are the runtime's history (the model describes the current release) and which are
// limits of what can be observed.
import { parseTargetRef, runtimeOfRef, versionOfRef } from "../targets/targetRef.js";

export function notesFor(model: string, against: string): string[] {
  const parsed = parseTargetRef(against);
  const runtime = parsed.ok ? runtimeOfRef(parsed.ref) : against;
  const version = (parsed.ok ? versionOfRef(parsed.ref) : undefined) ?? "";
  const [major = 0, minor = 0] = version.split(".").map(Number);
  const notes: string[] = [];
  if (model === "gemini-cli" && runtime === "gemini-cli" && major === 0 && minor < 50) {
    notes.push("This release counts consecutive identical calls only: its LoopDetectionService has no cycle rule yet, so A/B alternations and longer cycles run on (the differences on alternate-*, cycle-* and key-order-10). The model describes the current generation (0.5x on).");
    if (minor < 40) notes.push("It also stops the prompt at the first detection: addAndCheck answers a boolean and its client has no recovery turn, so the 5th identical call ends the prompt instead of being cut off with feedback (the differences on repeat-*, changing-*, error-*, shell-*, and name-padded-6 and args-missing-null-empty-6, where its own turn makes the calls one: a trimmed name, args || {}).");
  }
  if (runtime === "opencode") notes.push("In the response where opencode stops, its output reports none of the calls of that response; a side-effect check (3 identical appends to a file in one response) found the first had run and the others not. Those calls are not compared (the model says they ran); the stop itself is.");
  if (runtime === "kilo") {
    notes.push("Kilo runs the triggering call (its output reports it completed, and a side-effect check confirmed all 3 appends ran) before the rejected doom_loop ask ends the run; the model does the same.");
    notes.push("Kilo asks permission for most shell commands (git status, python ...) and headless `run` rejects the ask, which ends the run before any loop rule can act; --auto would approve every ask, doom_loop included, and defeat the guard under test. So the driven config allows bash and external_directory (asks that guard the machine; the run is in a throwaway sandbox) and leaves doom_loop as shipped: git-overview-9 runs (it was n/a before).");
  }
  if (runtime === "qwen-code") notes.push("Runs the CLI on Node 20 although it asks for Node 22; every probe behaved as on its documented rules.");
  if (runtime === "qwen-code" || runtime === "qwen-code:heuristics") notes.push("Names reach its loop key trimmed (probe name-padded-6 showed it; the model trims too), never lowercased; missing, null and {} args are one call (args || {}).");
  if (runtime === "qwen-code:heuristics") notes.push("The CLI runs with model.skipLoopDetection: false in its settings. Its default is true: as shipped the heuristic tier (6 identical calls anywhere, 3 A/B cycles, 8 calls in a row to one tool, 8 reads among the last 15) is off, which the qwen-code model describes; qwen-code:heuristics describes the tier switched on.");
  if (runtime === "opencode" || runtime === "kilo") notes.push("Names and args as the AI SDK and its repair see them: a name wrong only by case is lowercased to its tool (3 parallel reads as read, Read, read are a doom loop); a name it does not know becomes its `invalid` tool, which the model does not follow (a trace's tools are taken as its own).");
  return notes;
}
