#!/usr/bin/env node
// Prints one stretch of a `loopsim loops` catalogue call by call, with a few calls of context on
// each side (args and result as recorded, long ones cut in the middle), numbered as the miner
// numbers them: the view the precision readers judged stretches from (reports/real-loops/judgements.json).
// It reads the session through loopsim's own importers (dist/, built by `npm run build`), so a
// reader sees exactly the calls the catalogue counts.
// Usage, from the checkout that ran `loops`:
//   node scripts/recall/show-stretch.mjs ID [--catalogue reports/real-loops/real-loops.json] [--context 2] [--width 700]
// ID is a stretch id, `<session>@<firstCall>`. The session is looked up under the catalogue's own
// paths (the folders `loops` was given, relative to where it ran), the first one that holds it.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

import { failer, loopsimDist } from "./loopsimDist.mjs";

const { readSessionEvents, minedCalls, sessionRefs } = await loopsimDist("show-stretch");
const fail = failer("show-stretch");
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at < 0 ? fallback : args.splice(at, 2)[1];
};
const catalogueFile = option("--catalogue", "reports/real-loops/real-loops.json");
const context = Number(option("--context", "2"));
const width = Number(option("--width", "700"));
const [id] = args;
if (id === undefined || !Number.isInteger(context) || context < 0 || !Number.isInteger(width) || width < 20) fail("usage: show-stretch.mjs ID [--catalogue FILE] [--context N] [--width N] (N whole; width at least 20)");
if (!existsSync(catalogueFile)) fail(`--catalogue ${catalogueFile}: no such file (run loopsim loops ... --out DIR first)`);
const catalogue = JSON.parse(readFileSync(catalogueFile, "utf8"));
const stretch = catalogue.stretches.find((s) => s.id === id);
if (stretch === undefined) fail(`${id}: no such stretch in ${catalogueFile}`);

// A session of a multi-session file is `file#id`; its file is what lies under a root.
const hash = stretch.session.indexOf("#");
const filePart = hash < 0 ? stretch.session : stretch.session.slice(0, hash);
const root = catalogue.paths.find((p) => existsSync(join(p, filePart)));
if (root === undefined) fail(`${stretch.session}: not under any of the catalogue's paths (${catalogue.paths.join(", ")}), seen from ${process.cwd()}`);
const file = join(root, filePart);
const listed = await sessionRefs([file]);
const wanted = hash < 0 ? file : `${file}${stretch.session.slice(hash)}`;
const ref = listed.refs.find((r) => r.ref === wanted);
if (ref === undefined) fail(`${stretch.session}: ${file} holds no such session`);
const { events } = await readSessionEvents(ref.ref, ref.span);
const calls = minedCalls(events);

const cut = (text) => (text.length <= width ? text : `${text.slice(0, width / 2)} [...] ${text.slice(-width / 2)}`);
const lines = [`${stretch.id}  calls #${stretch.firstCall}-#${stretch.lastCall} of ${calls.length}  ${stretch.rule} (${stretch.kind})  dataset ${stretch.dataset}  label ${stretch.label}`, ""];
for (const c of calls.slice(Math.max(0, stretch.firstCall - context), stretch.lastCall + context + 1)) {
  const inside = c.index >= stretch.firstCall && c.index <= stretch.lastCall ? ">>" : "  ";
  lines.push(`${inside} #${c.index} ${c.call.tool}${c.failed ? " [failed]" : ""}${c.rejected === undefined ? "" : ` [refused: ${c.rejected}]`}`, `   args:   ${cut(c.rawArgs)}`, `   result: ${cut(c.rawResult)}`, "");
}
process.stdout.write(lines.join("\n"));
