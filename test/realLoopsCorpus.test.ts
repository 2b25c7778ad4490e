// The committed catalogue of real stuck stretches (reports/real-loops/) against the corpus and
// the committed reading of it: the precision of the definition, stuck stretches over judged ones,
// must be at least 90%, and every stretch in the catalogue must be judged. To stay cheap, only the
// sessions the catalogue and the judgements name are mined again (the whole corpus takes about
// 15 s; `loopsim loops ../shared/corpus --out reports/real-loops --force` regenerates the catalogue
// and shows any new stretch as "not judged"). Needs ../shared/corpus; says SKIPPED without it.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readSessionEvents } from "../src/sessions/recorded.js";
import { loadJudgements, precisionOf, stretchId } from "../src/realLoops/judgements.js";
import { mineStretches } from "../src/realLoops/mine.js";

const ROOT = join(import.meta.dirname, "..");
const CORPUS = join(ROOT, "..", "shared", "corpus");
const HAVE_CORPUS = existsSync(CORPUS);
const DIR = join(ROOT, "reports", "real-loops");
if (!HAVE_CORPUS) console.log(`SKIPPED: the real-loop precision test needs ../shared/corpus, which is not here (${CORPUS})`);

interface Committed {
  readonly paths: readonly string[];
  readonly stretches: readonly { readonly id: string; readonly session: string; readonly firstCall: number; readonly lastCall: number }[];
}

describe.skipIf(!HAVE_CORPUS)("the real stuck stretches of the corpus", () => {
  it("are what the definition finds in their sessions, all judged, with a precision of at least 90%", async () => {
    const catalogue = JSON.parse(readFileSync(join(DIR, "real-loops.json"), "utf8")) as Committed;
    expect(catalogue.paths).toEqual(["../shared/corpus"]);
    const judgements = loadJudgements(join(DIR, "judgements.json"));
    // Every session the catalogue or the judgements name, mined again with today's definition.
    const sessions = new Set([...catalogue.stretches.map((s) => s.session), ...[...judgements.byId.keys()].map((id) => id.slice(0, id.lastIndexOf("@")))]);
    const found: string[] = [];
    const foundInCatalogueSessions: string[] = [];
    for (const session of [...sessions].sort()) {
      const { events } = await readSessionEvents(join(CORPUS, session));
      for (const s of mineStretches(events)) {
        const id = stretchId(session, s.firstCall);
        found.push(`${id} ${s.firstCall}-${s.lastCall}`);
        if (catalogue.stretches.some((c) => c.session === session)) foundInCatalogueSessions.push(`${id} ${s.firstCall}-${s.lastCall}`);
      }
    }
    // The catalogue is up to date with the definition in the sessions it names.
    expect(foundInCatalogueSessions).toEqual(catalogue.stretches.map((s) => `${s.id} ${s.firstCall}-${s.lastCall}`).sort());
    const precision = precisionOf(found.map((f) => f.split(" ")[0] as string), judgements);
    // A stretch no one has read yet (after a change of the definition, an importer or the corpus): read it and judge it in judgements.json.
    expect(precision.unjudged, "stretches to read and judge in reports/real-loops/judgements.json").toEqual([]);
    expect(precision.judged).toBeGreaterThanOrEqual(3);
    expect(precision.precision).toBeGreaterThanOrEqual(0.9);
  });
});
