#!/usr/bin/env node
// Prints one recorded session whole, call by call, for the issue-35 recall reading of formats that
// scripts/recall/read.py does not know (the corpus's Agent Data Protocol samples, Claude Code,
// Codex and pi sessions). It reads the session through loopsim's own importers (dist/, built by
// `npm run build`), so calls are numbered as the miner numbers them, and it shows no miner
// judgement (no rule, no refusal): the readers read blind. The agent's own text (messages,
// reasoning) is shown, cut, before the call it led to, because a reader judges what the agent knew.
// Usage, from a built checkout:
//   node scripts/recall/show-session.mjs ROOT REF [--width 600]
// REF is the session's reference relative to ROOT, `file#id` for one run of a file of several,
// exactly as `loopsim loops ROOT` names it; with `--list`, every reference under ROOT is printed
// with its number of calls (tab between), the list scripts/recall/sample.py --batch 12 draws from.
import { existsSync } from "node:fs";
import { join } from "node:path";

import { failer, loopsimDist } from "./loopsimDist.mjs";

const { readSessionEvents, minedCalls, sessionRefs } = await loopsimDist("show-session");
const fail = failer("show-session");
const args = process.argv.slice(2);
const flag = (name) => {
  const at = args.indexOf(name);
  return at < 0 ? false : args.splice(at, 1).length === 1;
};
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at < 0 ? fallback : args.splice(at, 2)[1];
};
const width = Number(option("--width", "600"));
const list = flag("--list");
const [root, wantedRef] = args;
if (root === undefined || (!list && wantedRef === undefined) || !Number.isInteger(width) || width < 20) fail("usage: show-session.mjs ROOT REF [--width N] | show-session.mjs ROOT --list");
if (!existsSync(root)) fail(`${root}: no such folder`);

const listed = await sessionRefs([root]);
const relative = (ref) => (ref.startsWith(`${root}/`) ? ref.slice(root.length + 1) : ref);
if (list) {
  for (const r of listed.refs) {
    const { events } = await readSessionEvents(r.ref, r.span);
    process.stdout.write(`${relative(r.ref)}\t${minedCalls(events).length}\n`);
  }
  process.exit(0);
}
const ref = listed.refs.find((r) => r.ref === join(root, wantedRef) || relative(r.ref) === wantedRef);
if (ref === undefined) fail(`${wantedRef}: no such session under ${root} (see --list)`);
const { events } = await readSessionEvents(ref.ref, ref.span);
const calls = minedCalls(events);

const flat = (text) => text.replace(/\s+/g, " ").trim();
const cut = (text) => (text.length <= width ? text : `${text.slice(0, width / 2)} [...] ${text.slice(-width / 2)}`);
// Which call each event belongs to, so text is shown where the agent wrote it.
const callAt = new Map();
for (const c of calls) callAt.set(c.events[0], c);
const lines = [`${wantedRef}  calls=${calls.length}`, ""];
events.forEach((event, at) => {
  if (event.type === "message" || event.type === "thought") {
    if (flat(event.text) !== "") lines.push(`   (${event.type}) ${cut(flat(event.text))}`);
    return;
  }
  const c = callAt.get(at);
  if (c === undefined) return;
  lines.push(`#${c.index} ${c.call.tool}${c.outcome === undefined ? " [no answer]" : c.failed ? " [failed]" : ""}`, `   args:   ${cut(c.rawArgs)}`, `   result: ${cut(c.rawResult)}`, "");
});
process.stdout.write(`${lines.join("\n")}\n`);
