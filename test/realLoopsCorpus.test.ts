// The committed catalogue of real stuck stretches (reports/real-loops/) against the datasets and
// the corpus, and the committed reading of it: the precision of the definition, stuck stretches
// over judged ones, must be at least 90%, and every stretch in the catalogue must be judged. To
// stay cheap, only the sessions the catalogue names are mined again (the whole run takes about a
// minute; the command in the catalogue's header regenerates it and shows any new stretch as "not
// judged"). Needs ../shared/datasets and ../shared/corpus; says SKIPPED without them.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readSessionEvents } from "../src/sessions/recorded.js";
import { loadJudgements, precisionOf, stretchId } from "../src/realLoops/judgements.js";
import { mineStretches } from "../src/realLoops/mine.js";

const ROOT = join(import.meta.dirname, "..");
const SHARED = join(ROOT, "..", "shared");
const ROOTS = [join(SHARED, "datasets"), join(SHARED, "corpus")];
const HAVE_DATA = ROOTS.every((r) => existsSync(r));
const DIR = join(ROOT, "reports", "real-loops");
if (!HAVE_DATA) console.log(`SKIPPED: the real-loop precision test needs ../shared/datasets and ../shared/corpus, which are not both here (${ROOTS.join(", ")})`);

interface Committed {
  readonly paths: readonly string[];
  readonly stretches: readonly { readonly id: string; readonly session: string; readonly firstCall: number; readonly lastCall: number; readonly kind: string; readonly rule: string }[];
}

/** The file a session id names, under whichever root holds it (plus its #id). */
function refOf(session: string): string {
  const hash = session.indexOf("#");
  const file = hash < 0 ? session : session.slice(0, hash);
  const root = ROOTS.find((r) => existsSync(join(r, file))) ?? (ROOTS[0] as string);
  return join(root, session);
}

describe.skipIf(!HAVE_DATA)("the real stuck stretches of the datasets and the corpus", () => {
  it("are what the definition finds in their sessions, all judged, with a precision of at least 90%", async () => {
    const catalogue = JSON.parse(readFileSync(join(DIR, "real-loops.json"), "utf8")) as Committed;
    expect(catalogue.paths).toEqual(["../shared/datasets", "../shared/corpus"]);
    const judgements = loadJudgements(join(DIR, "judgements.json"));
    const found: string[] = [];
    for (const session of [...new Set(catalogue.stretches.map((s) => s.session))].sort()) {
      const { events } = await readSessionEvents(refOf(session));
      for (const s of mineStretches(events)) found.push(`${stretchId(session, s.firstCall)} ${s.firstCall}-${s.lastCall} ${s.rule} ${s.kind}`);
    }
    // The catalogue is up to date with the definition in the sessions it names.
    expect(found.sort()).toEqual(catalogue.stretches.map((s) => `${s.id} ${s.firstCall}-${s.lastCall} ${s.rule} ${s.kind}`).sort());
    const precision = precisionOf(catalogue.stretches.map((s) => s.id), judgements);
    // A stretch no one has read yet (after a change of the definition, an importer or the data): read it and judge it in judgements.json.
    expect(precision.unjudged, "stretches to read and judge in reports/real-loops/judgements.json").toEqual([]);
    expect(precision.judged).toBeGreaterThanOrEqual(3);
    expect(precision.precision).toBeGreaterThanOrEqual(0.9);
  });
});
