// Per-call scorer experiment (issue 35), step 1: one JSON line per call of every judged session,
// with the miner's own per-call facts and the readers' verdict, for the Python steps to learn from.
// It reads the sessions through this checkout's build (dist/), exactly as `loops` imports them, so
// the calls are numbered as the readers numbered them and "inMined" is what the miner flags today.
//
// Usage (from the repository root, after `npm run build`):
//   node scripts/experiments/per-call-scorer/dump.mjs [JUDGEMENTS] [SHARED] > ROWS.jsonl
// JUDGEMENTS defaults to reports/real-loops/judgements.json, SHARED to ../shared (its datasets/ and
// corpus/ folders hold the recorded sessions). A summary goes to stderr.
import { existsSync, readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";

const [judgementsPath = "reports/real-loops/judgements.json", sharedPath = "../shared"] = process.argv.slice(2);
const dist = (path) => new URL(`../../../dist/src/${path}`, import.meta.url);
if (!existsSync(dist("realLoops/mine.js"))) {
  process.stderr.write("dump.mjs: loopsim is not built yet: run `npm run build` in the checkout first\n");
  process.exit(2);
}
const { listedFiles } = await import(dist("import/sessionRefs.js").href);
const { readSessionEvents } = await import(dist("sessions/recorded.js").href);
const { minedCalls, stretchesOf, recheckSources, DEFAULT_MINE_PARAMETERS } = await import(dist("realLoops/mine.js").href);
const { staleCalls } = await import(dist("realLoops/noNewFact.js").href);
const { unlandedAttempts } = await import(dist("realLoops/unlandedEdits.js").href);
const facts = await import(dist("import/facts.js").href);
const { SHELL_TOOLS, createdFileOf } = await import(dist("import/writes.js").href);

const judgements = JSON.parse(readFileSync(judgementsPath, "utf8"));
/** Every judged session: the development readings (batches 1-12) and the held-out batch 13. */
const judged = new Map();
for (const [ref, reading] of Object.entries(judgements.sessions)) judged.set(ref, { reading, heldOut: false });
for (const [ref, reading] of Object.entries(judgements.heldOut.sessions)) judged.set(ref, { reading, heldOut: true });

/** The development split the guide uses: a session is in the fit half when sha1(ref) is even. */
const halfOf = (ref) => (BigInt("0x" + createHash("sha1").update(ref, "utf8").digest("hex")) % 2n === 0n ? "fit" : "test");

/** The recent window (in calls) the "...Win" counts look back over: the miner's NEW_FACT_WINDOW. */
const RECENT = facts.NEW_FACT_WINDOW;
/** How far back a call's answer is looked for among earlier answers (hears30). */
const HEARD_REACH = 30;
/** Commands that put a file back as it was: an edit undone is a sign of going round. */
const REVERT = /git (?:checkout|restore|stash|reset)|\.bak\b|\.orig\b|\.backup\b/;

const seen = new Set();
let countMismatches = 0;
for await (const file of listedFiles([join(sharedPath, "datasets"), join(sharedPath, "corpus")], false)) {
  if ("bad" in file) continue;
  for (const { ref, id, span, format } of file.refs) {
    const entry = judged.get(id);
    if (entry === undefined) continue;
    seen.add(id);
    const { reading, heldOut } = entry;
    const { events } = await readSessionEvents(ref, span, format);
    const calls = minedCalls(events);
    if (calls.length !== reading.calls) {
      countMismatches++;
      process.stderr.write(`call count differs for ${id}: mined ${calls.length}, read ${reading.calls}\n`);
    }
    process.stdout.write(rowsOf(id, format ?? "", calls, reading, heldOut).map((row) => JSON.stringify(row) + "\n").join(""));
  }
}
const missing = [...judged.keys()].filter((ref) => !seen.has(ref));
process.stderr.write(`sessions ${seen.size}, not found ${missing.length}, call-count mismatches ${countMismatches}\n`);
for (const ref of missing.slice(0, 20)) process.stderr.write(`not found: ${ref}\n`);
if (missing.length > 0) process.exit(1);

/** One row per call: the readers' verdict (stuck), the miner's (inMined, rule) and the facts. */
function rowsOf(id, format, calls, reading, heldOut) {
  const n = calls.length;
  const ruleOf = new Array(n).fill("");
  for (const s of stretchesOf(calls, DEFAULT_MINE_PARAMETERS)) for (let k = s.firstCall; k <= s.lastCall; k++) ruleOf[k] = s.rule;
  // A reader's stretch past the mined call count (one session, see the README) is cut at the end.
  const stuck = new Array(n).fill(0);
  for (const x of reading.stuck) for (let k = x.from; k <= x.to && k < n; k++) stuck[k] = 1;
  const { wrote, source: recheckSource, same: recheckSame } = recheckSources(calls);
  const staleness = staleCalls(calls, wrote);
  const unlanded = unlandedAttempts(calls);
  const basics = calls.map((c, k) => basicFacts(c, k, { ruleOf, wrote, recheckSource, recheckSame, staleness, unlanded }));

  // How many earlier calls satisfy `matches`, in the whole session and within the last RECENT calls.
  const countBefore = (k, matches) => {
    let all = 0;
    let recent = 0;
    for (let i = 0; i < k; i++) {
      if (!matches(basics[i])) continue;
      all++;
      if (i >= k - RECENT) recent++;
    }
    return [all, recent];
  };

  const rows = [];
  const answersSeen = new Set();
  let lastNew = -1;
  let lastChanged = -1;
  let lastWorked = -1;
  let lastNotStale = -1;
  for (let k = 0; k < n; k++) {
    const b = basics[k];
    const c = calls[k];
    const [resAll, resWin] = b.silent ? [0, 0] : countBefore(k, (p) => !p.silent && p.res === b.res);
    const [shapeAll, shapeWin] = countBefore(k, (p) => p.shape === b.shape);
    const [rawAll, rawWin] = countBefore(k, (p) => p.raw === b.raw);
    const [famAll, famWin] = b.fam === undefined ? [0, 0] : countBefore(k, (p) => facts.sameFamily(p.fam, b.fam));
    const [sigAll, sigWin] = b.sig === undefined ? [0, 0] : countBefore(k, (p) => p.sig === b.sig);
    const [rejAll, rejWin] = b.rej === undefined ? [0, 0] : countBefore(k, (p) => p.rej === b.rej);
    // The miner's own "heard again" test against earlier answers, ignoring the writes between
    // (the miner resets at a change; a scorer may learn whether that reset matters).
    let hears30 = 0;
    let hears10 = 0;
    let zooms10 = 0;
    if (c.outcome !== undefined) {
      for (let i = Math.max(0, k - HEARD_REACH); i < k; i++) {
        if (calls[i].outcome === undefined) continue;
        const heard = facts.hearsAgain(calls[i], c, i === k - 1);
        if (heard === "again") {
          hears30++;
          if (i >= k - RECENT) hears10++;
        } else if (heard === "zoom" && i >= k - RECENT) zooms10++;
      }
    }
    const isNew = c.outcome !== undefined && !b.silent && !answersSeen.has(b.res) && !b.stale && hears30 === 0 ? 1 : 0;
    if (!b.silent) answersSeen.add(b.res);
    const worked = !b.failed && !b.rejected && !b.silent && b.subst && !b.stale ? 1 : 0;
    rows.push({
      ref: id, k, n, split: heldOut ? "heldout" : halfOf(id), fmt: format, stuck: stuck[k], rule: ruleOf[k],
      wkind: b.wkind, rejKind: b.rej ?? "",
      failed: b.failed, rejected: b.rejected, silent: b.silent, subst: b.subst, noOutcome: b.noOutcome, shell: b.shell,
      hasFam: b.hasFam, wrote: b.wrote, changed: b.changed, stale: b.stale, zoom: b.zoom, recheck: b.recheck, recheckSame: b.recheckSame,
      unlanded: b.unlanded, never: b.never, creates: b.creates, inMined: b.inMined, resLen: b.resLen,
      resAll, resWin, shapeAll, shapeWin, rawAll, rawWin, famAll, famWin, sigAll, sigWin, rejAll, rejWin, hears30, hears10, zooms10,
      isNew, worked,
      revert: REVERT.test(c.rawArgs) ? 1 : 0,
      famKind: familyKind(b.fam),
      sameAsPrevRes: k > 0 && !b.silent && basics[k - 1].res === b.res ? 1 : 0,
      sameAsPrevFam: k > 0 && b.fam !== undefined && facts.sameFamily(basics[k - 1].fam, b.fam) ? 1 : 0,
      // Calls since the last new answer, change, call that worked, or call that was not stale.
      sinceNew: lastNew < 0 ? k + 1 : k - lastNew,
      sinceChanged: lastChanged < 0 ? k + 1 : k - lastChanged,
      sinceWorked: lastWorked < 0 ? k + 1 : k - lastWorked,
      sinceNotStale: lastNotStale < 0 ? k + 1 : k - lastNotStale,
      pos: n > 1 ? k / (n - 1) : 0,
    });
    if (isNew) lastNew = k;
    if (b.changed) lastChanged = k;
    if (worked) lastWorked = k;
    if (!b.stale) lastNotStale = k;
  }
  return rows;
}

/** What the miner knows of one call on its own (0/1 flags so the rows stay numeric). */
function basicFacts(c, k, { ruleOf, wrote, recheckSource, recheckSame, staleness, unlanded }) {
  const fam = facts.failureFamily(c);
  return {
    fam,
    res: c.result,
    shape: c.shape,
    raw: c.call.tool + "\u0000" + c.rawArgs,
    rej: c.rejected,
    sig: c.signature,
    failed: c.failed ? 1 : 0,
    rejected: c.rejected !== undefined ? 1 : 0,
    silent: c.silent ? 1 : 0,
    subst: c.substantial ? 1 : 0,
    noOutcome: c.outcome === undefined ? 1 : 0,
    shell: SHELL_TOOLS.has(c.call.tool) ? 1 : 0,
    hasFam: fam !== undefined ? 1 : 0,
    wrote: wrote[k] ? 1 : 0,
    changed: staleness.changed[k] ? 1 : 0,
    stale: staleness.stale[k] ? 1 : 0,
    zoom: staleness.zoom[k] ? 1 : 0,
    recheck: recheckSource[k] !== undefined ? 1 : 0,
    recheckSame: recheckSame[k] ? 1 : 0,
    unlanded: unlanded[k] ? 1 : 0,
    never: facts.neverTookEffect(c) ? 1 : 0,
    creates: createdFileOf(c.rawArgs) !== undefined ? 1 : 0,
    wkind: facts.writeKindOf(c).kind,
    inMined: ruleOf[k] !== "" ? 1 : 0,
    resLen: Math.log1p(c.rawResult.length),
  };
}

/** A failure family's coarse kind, so that families can be features without their text. */
function familyKind(fam) {
  if (fam === undefined) return "";
  if (fam === facts.UNPARSED) return "unparsed";
  if (fam === facts.INSTALL_FAILED) return "install";
  return /^missing module/.test(String(fam)) ? "module" : "other";
}
