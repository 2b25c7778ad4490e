// The shortcuts that make `loopsim loops` fast (issue 35, bench row "loops") give what the plain
// computations they replace give, byte for byte: the catalogue must not change by a character.
// Each law compares a shortcut with the plain computation written out here, on generated inputs
// built from the characters the shortcut looks for. Each failure prints its seed and a replay.
import fc from "fast-check";
import { mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { SEED } from "../properties/support.js";
import { answerLines, hasAnswerLine, lastAnswerLines, leadingLines, maskedCall, maskedShape, maskText, mayHoldMaskedLine, pathsIn, REJECTIONS, rejectionOf } from "../src/import/mask.js";
import { detectFormat, MINI_SWE_AGENT_FORMAT, namesMiniSweAgentFormat } from "../src/import/detect.js";
import { parseObservation } from "../src/import/miniSweAgent.js";
import type { ElementSpan } from "../src/import/jsonDocument.js";
import { openSession, wholeSessionEvents } from "../src/import/session.js";
import { sessionRefs } from "../src/import/sessionRefs.js";
import type { ImportedEvent } from "../src/import/types.js";
import { answerKey } from "../src/import/orphans.js";
import { callUnits } from "../src/scenario/eventPairs.js";
import { perCall } from "../src/import/perCall.js";
import { pythonCalls, pythonCallsStepwise } from "../src/import/pythonCall.js";
import { contentHead, contentHeadText, contentWhole, heldText, holdWhole, inflateWhole } from "../src/io/compressed.js";
import { nestsDeeperThan } from "../src/io/eventSchema.js";
import { decodeUtf8, utf8Decoder } from "../src/io/textFile.js";
import { eventTokens, tokensOf } from "../src/sim/tokens.js";
import { callTokens } from "../src/realLoops/catalogue.js";
import type { ToolEvent } from "../models/events.js";
import { answerBody, commandOf, detailsOf, factCallOf, sameCommand, factLines, factLinesFromResult, factLinesOf, leadingFactLines, linesIn, sameResult, shownBefore, substantial } from "../src/import/facts.js";
import { codeLine, leadingCodeLines, linesWithin, type MinedCall, minedCalls, sameShape, stretchesOf, verdictOf } from "../src/realLoops/mine.js";
import { tempDir } from "./cli/run.js";
import { filesUnder } from "../src/io/filesUnder.js";
import { namesUnknownCommand, UNKNOWN_COMMAND, WRITING_COMMAND } from "../src/import/writes.js";
import { printedLines, sameLinesAgain } from "../src/realLoops/unlandedEdits.js";
import { namesParseError } from "../src/realLoops/unmovedBreak.js";
import { type FactCall, ownProgramUnparsed, sameRegion, WITHIN_MIN_LINES } from "../src/import/facts.js";

const FILE = "test/loopsFastPaths.test.ts";

function check<T>(law: string, input: fc.Arbitrary<T>, body: (value: T) => void, numRuns = 300): void {
  const out = fc.check(fc.property(input, body), { seed: SEED, numRuns, ...(process.env.FC_PATH === undefined ? {} : { path: process.env.FC_PATH }) });
  if (!out.failed) return;
  const why = out.errorInstance instanceof Error ? out.errorInstance.message : String(out.errorInstance);
  throw new Error(`${law}: failed with seed ${out.seed}, path ${out.counterexamplePath}\nreplay: FC_SEED=${out.seed} FC_PATH=${out.counterexamplePath} npx vitest run ${FILE}\ncounterexample: ${JSON.stringify(out.counterexample)}\n${why}`);
}

/** Text from the characters the masks, the escapes and the line scans look for. */
const piece = fc.constantFrom("a", "f", "x", "0x", "tmp", "/tmp/", "/var/", "0", "7", "12", "2026", "-", ":", ".", " ", "\n", "\r", "\t", '"', "\\", "\b", "\u0001", "\ud800", "\ud83d\ude00", "é", "<output>", "</output>", "deadbeef1", "-1a2b-", "T", "_", "g", "B2", "0X", "abcdef");
const text = fc.array(piece, { maxLength: 60 }).map((parts) => parts.join(""));

/** The masks applied one after another with no shortcut: what maskText computed before its prechecks. */
function plainMask(input: string): string {
  const hexId = (run: string) => {
    const body = run.replace(/^0x/i, "");
    return /\d/.test(body) && /[a-f]/i.test(body) ? "<id>" : run;
  };
  return input
    .replace(/\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?/g, "<time>")
    .replace(/\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b/g, "<time>")
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, "<id>")
    .replace(/(?:\/tmp|\/var\/folders|\/private\/var\/folders|\/var\/tmp)(?:\/[\w.@+-]+)*/g, "<tmp>")
    .replace(/\btmp[\w-]{4,}\b/g, "<tmp>")
    .replace(/\b(?:0x)?[0-9a-f]{6,}\b/gi, hexId)
    .replace(/\d+/g, "#");
}

describe("loops' shortcuts give the plain result", () => {
  it("maskText with its prechecks masks as the masks applied one by one", () => {
    for (const sample of ["2026-12-03T10:00:01.123Z", "at 10:00:01.5 ok", "550e8400-e29b-41d4-a716-446655440000", "/tmp/x/y and /var/folders/a/b", "tmpab12_x", "0xdeadbeef12 faceed 1234567"]) expect(maskText(sample)).toBe(plainMask(sample));
    check("maskText", text, (t) => {
      expect(maskText(t)).toBe(plainMask(t));
    });
  });

  it("maskText's date precheck (-DD-D) passes every text the date mask changes", () => {
    const dateish = fc.array(fc.constantFrom("2026", "-", "12", "0", "7", "1", "T", " ", ":", "Z", "+", ".", "a", "\n"), { maxLength: 30 }).map((parts) => parts.join(""));
    for (const sample of ["2026-12-03", "x2026-12-03T10:00", "12026-12-3", "2026-1-03", "2026-12-03 10:00:01+02:00"]) expect(maskText(sample)).toBe(plainMask(sample));
    check("maskText dates", dateish, (t) => {
      expect(maskText(t)).toBe(plainMask(t));
    }, 1000);
  });

  it("maskText's clock precheck (D:DD:D, on the text as given) passes every text the clock mask changes, after a date's", () => {
    const clockish = fc.array(fc.constantFrom("2026", "-", "12", "0", "7", "1", "10", ":", "00", ":0", "T", " ", ".", ",", "5", "Z", "a", "_", "\n"), { maxLength: 30 }).map((parts) => parts.join(""));
    for (const sample of ["10:00:01", "at 1:02:03,5 and 2026-12-03T10:00:01Z", "2026-12-03T10:00 10:00:01", "x10:00:01", "1:2:3 12:345:6", "2026-12-0310:00:01"]) expect(maskText(sample)).toBe(plainMask(sample));
    check("maskText clocks", clockish, (t) => {
      expect(maskText(t)).toBe(plainMask(t));
    }, 1000);
  });

  it("maskText's one scan for a date's or a UUID's middle, and its tmp test on the text as given, pass every text those masks change", () => {
    const idish = fc.array(fc.constantFrom("550e8400", "-", "e29b", "41d4", "a716", "446655440000", "2026", "12", "03", "1", "T", " ", ":", "Z", "/tmp", "/var/", "folders", "/x", "tmp", "ab12", "_", "\n"), { maxLength: 24 }).map((parts) => parts.join(""));
    for (const sample of ["550e8400-e29b-41d4-a716-446655440000 at 2026-12-03T10:00:01Z", "2026-12-03 550E8400-E29B-41D4-A716-446655440000", "/var/folders/ab/tmpab12_x", "/private/var/folders/x", "x/var/tmp/y tmpdir12"]) expect(maskText(sample)).toBe(plainMask(sample));
    check("maskText ids and tmp", idish, (t) => {
      expect(maskText(t)).toBe(plainMask(t));
    }, 1000);
  });

  it("answerBody drops the last line only when it is a {...} details line, as the pattern did", () => {
    const body = fc.array(fc.constantFrom("{", "}", "\n", "a", " ", '"exitCode":1', "{}", "\n{", "}\n"), { maxLength: 12 }).map((parts) => parts.join(""));
    check("answerBody", body, (t) => {
      expect(answerBody(t)).toBe(t.replace(/\n\{[^\n]*\}$/, ""));
    }, 1000);
  });

  it("maskText over lines joined by newlines gives the lines masked one by one (the miner masks an answer's fact lines at once)", () => {
    const line = text.map((t) => t.replace(/\s+/g, " "));
    check("maskText by lines", fc.array(line, { maxLength: 6 }), (lines) => {
      expect(maskText(lines.join("\n")).split("\n")).toEqual(lines.length === 0 ? [""] : lines.map((l) => maskText(l)));
    });
    const joined = ["2026-12-03", "10:00:01", "/tmp/a", "b", "550e8400-e29b-41d4-a716-446655440000", "deadbeef12", "tmpab12_x"];
    expect(maskText(joined.join("\n")).split("\n")).toEqual(joined.map((l) => maskText(l)));
  });

  it("whitespace made one space over an answer's joined lines gives each line's whitespace made one space (facts.ts factLinesOf)", () => {
    check("whitespace by lines", fc.array(text.map((t) => t + "\u2028\u00a0\v\f"), { maxLength: 6 }), (raw) => {
      const lines = answerLines(raw.join("\n"));
      expect(lines.join("\n").replace(/[^\S\n]+/g, " ")).toBe(lines.map((l) => l.replace(/\s+/g, " ")).join("\n"));
    });
  });

  it("a call's fact lines taken from its masked answer are the lines masked again from the raw answer (facts.ts factLinesFromResult)", () => {
    // Dates before white space of every kind, harness tags, details lines and blank lines: what the shortcut must get right or leave to the plain path.
    const answerPiece = fc.oneof(piece, fc.constantFrom("2026-12-03", "2026-12-03 ", "2026-12-03  10:00", "2026-12-03\t10:00:01", "  ", "\t", "\u00a0", "\n\n", "{", "}", '\n{"exitCode":1}', "<returncode>\n", "10:00:01", "#", "# 1:"));
    const answer = fc.array(answerPiece, { maxLength: 40 }).map((parts) => parts.join(""));
    const details = fc.constantFrom(undefined, { exitCode: 1 }, { status: "failed", exitCode: 2, at: "2026-12-03  10:00" }, "2026-12-03\t1", 7, null);
    const outcome = fc.tuple(answer, details, fc.constantFrom("content", "string", "error")).map(([t, d, shape]) =>
      shape === "error" ? { type: "outcome" as const, tool: "bash", error: t } : shape === "string" ? { type: "outcome" as const, tool: "bash", result: t } : { type: "outcome" as const, tool: "bash", result: { content: [{ type: "text", text: t }], ...(d === undefined ? {} : { details: d }) } },
    );
    let fast = 0;
    check("factLinesFromResult", outcome, (o) => {
      const c = factCallOf({ type: "call", tool: "bash", params: { command: "sed -n 1,9p a.py" } }, o);
      const plain = factLinesOf(c);
      const shortcut = factLinesFromResult(c);
      if (shortcut !== undefined) fast++;
      expect(shortcut ?? plain).toEqual(plain);
      expect(factLines(c)).toEqual(plain);
    }, 600);
    // The miner's shape masks the rawArgs factCallOf made: what maskedCall gives from the params.
    for (const params of [{ command: "sed -n 1,9p a.py" }, undefined, null, { a: [1, "2026-12-03"], b: { c: "deadbeef12" } }, "x"]) {
      const call = { type: "call" as const, tool: "bash", params };
      expect(maskedShape("bash", factCallOf(call, undefined).rawArgs)).toBe(maskedCall(call));
    }
    // The shortcut must be taken for most answers, or it saves nothing.
    expect(fast).toBeGreaterThan(300);
    const wide = factCallOf({ type: "call", tool: "bash", params: {} }, { type: "outcome", tool: "bash", result: "2026-12-03  10:00 up\nnext" });
    expect(factLinesFromResult(wide)).toBeUndefined();
    expect(factLines(wide)).toEqual(factLinesOf(wide));
  });

  it("an answer shown before (facts.ts shownBefore, its first line looked up before the earlier answer's set is made) is every line among the earlier answer's", () => {
    const line = fc.constantFrom("def f():", "  return 1", "x = 2", "x  = 2", "", "<output>", "# 3", "12", "x", "y", "at 10:00:01 x", "/tmp/ab\tx", "x = 7");
    const answer = fc.array(line, { maxLength: 6 }).map((ls) => ls.join("\n"));
    let shown = 0;
    check("shownBefore", fc.array(answer, { minLength: 2, maxLength: 4 }), (answers) => {
      const calls = answers.map((text) => factCallOf({ type: "call", tool: "bash", params: { command: "cat a.py" } }, { type: "outcome", tool: "bash", result: { content: [{ type: "text", text }] } }));
      for (const c of calls) for (const p of calls) {
        const plain = linesIn(factLines(c), new Set(factLines(p)));
        if (plain && factLines(c).length > 0 && c !== p) shown++;
        expect(shownBefore(c, p)).toBe(plain);
      }
    }, 300);
    expect(shown).toBeGreaterThan(50);
  });

  it("a narrower view (mine.ts linesWithin, its code lines worked out once and its set made only when needed) is every shown code line among the other answer's", () => {
    const plainCodeLine = (line: string) => line.replace(/^#(?::|-|\s)\s*/, "").trim();
    const codeLinesPlain = (c: MinedCall) => answerLines(answerBody(c.result)).map(plainCodeLine);
    const plainWithin = (a: MinedCall, b: MinedCall) => {
      const shown = codeLinesPlain(a).filter((l) => l !== "");
      const seen = new Set(codeLinesPlain(b));
      return shown.length >= 3 && shown.every((l) => seen.has(l));
    };
    const line = fc.constantFrom("def f():", "  return 1", "12:  x = 2", "#: y", "12\tdef f():", "", "<output>", "# 3", "x", "x  y", "7: x = 2", "deadbeef12 = 1", "/tmp/ab x", "x = 9");
    const answer = fc.array(line, { maxLength: 8 }).map((ls) => ls.join("\n"));
    let within = 0;
    check("linesWithin", fc.array(answer, { minLength: 2, maxLength: 5 }), (answers) => {
      const events = answers.flatMap((text, k) => [
        { type: "call" as const, callId: `c${k}`, tool: "bash", params: { command: `sed -n ${k},9p a.py` } },
        { type: "outcome" as const, callId: `c${k}`, tool: "bash", result: { content: [{ type: "text", text }], details: { exitCode: 0 } } },
      ]);
      const calls = minedCalls(events);
      for (const a of calls) for (const b of calls) {
        const plain = plainWithin(a, b);
        if (plain) within++;
        expect(linesWithin(a, b)).toBe(plain);
      }
    }, 300);
    expect(within).toBeGreaterThan(50);
  });

  it("an answer's first lines masked one by one (mask.ts leadingLines, mine.ts leadingCodeLines) are the masked answer's first lines, changed, the emptied ones dropped", () => {
    // Blank lines, harness tags, numbers' masks a code line drops, dates before white space: what a line-by-line mask must get right.
    const answerPiece = fc.oneof(piece, fc.constantFrom("\n\n", "  ", "\u00a0", "<returncode>\n", "#: ", "12: ", "2026-12-03  10:00", "2026-12-03 10:00:01", "\n{", "}"));
    const answer = fc.array(answerPiece, { maxLength: 40 }).map((parts) => parts.join(""));
    const changes: ((line: string) => string)[] = [(l) => l, codeLine, (l) => l.replace(/\s+/g, " "), (l) => (l.includes("#") ? "" : l)];
    check("leadingLines", fc.tuple(answer, fc.nat(5), fc.nat(changes.length - 1)), ([t, count, k]) => {
      const change = changes[k] as (line: string) => string;
      expect(leadingLines(t, count, (line) => change(maskText(line)))).toEqual(answerLines(maskText(t)).map(change).filter((l) => l !== "").slice(0, count));
    }, 1000);
    // A mined call's first shown code lines: its masked answer's, without the details line.
    check("leadingCodeLines", answer, (t) => {
      const [c] = minedCalls([
        { type: "call", callId: "c", tool: "bash", params: { command: "cat a.py" } },
        { type: "outcome", callId: "c", tool: "bash", result: { content: [{ type: "text", text: t }], details: { exitCode: 0 } } },
      ]);
      expect(leadingCodeLines(c as MinedCall)).toEqual(answerLines(answerBody((c as MinedCall).result)).map(codeLine).filter((l) => l !== "").slice(0, WITHIN_MIN_LINES));
    }, 500);
  });

  it("a raw answer one of whose lines masks to a line (or to a code or fact line) may hold it (mask.ts mayHoldMaskedLine), and answers that cannot are told apart", () => {
    const answerPiece = fc.oneof(piece, fc.constantFrom("\n", "def f(x):", "return 12", "#: ", "12: ", "2026-12-03  10:00", "x\t\ty", "<id>", "<tmp> #", "a  b"));
    const answer = fc.array(answerPiece, { maxLength: 30 }).map((parts) => parts.join(""));
    let refused = 0;
    check("mayHoldMaskedLine", fc.array(answer, { minLength: 2, maxLength: 3 }), (answers) => {
      const calls = answers.map((t) => factCallOf({ type: "call", tool: "bash", params: { command: "cat a.py" } }, { type: "outcome", tool: "bash", result: t }));
      const masked = (c: FactCall) => answerLines(maskText(c.rawResult));
      const kinds: [(c: FactCall) => readonly string[], boolean][] = [
        [masked, false],
        [(c) => masked(c).map(codeLine), false],
        [(c) => factLines(c), true],
        [(c) => factLinesOf(c), true],
      ];
      for (const [linesOf, spaced] of kinds)
        for (const c of calls)
          for (const line of linesOf(c))
            for (const p of calls) {
              const holds = mayHoldMaskedLine(p.rawResult, line, spaced);
              if (linesOf(p).includes(line)) expect(holds).toBe(true);
              if (!holds) refused++;
            }
    }, 500);
    // It tells answers apart, or it saves nothing.
    expect(refused).toBeGreaterThan(1000);
  });

  it("a call's first fact lines worked out alone (facts.ts leadingFactLines) are its fact lines' first three", () => {
    const answerPiece = fc.oneof(piece, fc.constantFrom("2026-12-03", "2026-12-03 ", "2026-12-03  10:00", "2026-12-03\t10:00:01", "  ", "\t", "\u00a0", "\n\n", "\n", '\n{"exitCode":1}', "<returncode>\n", "# 1:"));
    const answer = fc.array(answerPiece, { maxLength: 40 }).map((parts) => parts.join(""));
    check("leadingFactLines", fc.tuple(answer, fc.constantFrom(undefined, { exitCode: 1 }, { at: "2026-12-03  10:00" })), ([t, details]) => {
      const c = factCallOf({ type: "call", tool: "bash", params: { command: "cat a.py" } }, { type: "outcome", tool: "bash", result: { content: [{ type: "text", text: t }], ...(details === undefined ? {} : { details }) } });
      expect(leadingFactLines(c)).toEqual(factLinesOf(c).slice(0, WITHIN_MIN_LINES));
    }, 1000);
  });

  it("a call's details line and last lines masked from its raw answer (facts.ts detailsOf, mine.ts verdictOf) are those of its masked answer", () => {
    const answerPiece = fc.oneof(piece, fc.constantFrom("2026-12-03 10:00", "deadbeef12", "\n{", "}", "{}", "\n{}", '\n{"exitCode":1}', "\n{12}", "<returncode>\n", "\n\n", "  "));
    const answer = fc.array(answerPiece, { maxLength: 30 }).map((parts) => parts.join(""));
    const details = fc.constantFrom<unknown>(undefined, { exitCode: 1 }, { status: "completed", exitCode: 0, at: "2026-12-03 10:00:01" }, "x\n{7}", 7, null);
    check("details and verdict", fc.array(fc.tuple(answer, details, fc.boolean()), { minLength: 1, maxLength: 4 }), (specs) => {
      const events: ToolEvent[] = specs.flatMap(([t, d, asString], k) => [
        { type: "call" as const, callId: `c${k}`, tool: "bash", params: { command: "make" } },
        { type: "outcome" as const, callId: `c${k}`, tool: "bash", result: asString ? t : { content: [{ type: "text", text: t }], ...(d === undefined ? {} : { details: d }) } },
      ]) as ToolEvent[];
      const plain = (c: FactCall) => c.result.slice(answerBody(c.result).length);
      for (const c of minedCalls(events)) expect(detailsOf(c)).toBe(plain(c));
      for (const c of minedCalls(events)) {
        for (const n of [1, 5]) expect(lastAnswerLines(c.rawResult, n).map(maskText)).toEqual(lastAnswerLines(c.result, n));
        expect(verdictOf(c)).toBe(lastAnswerLines(c.result, 5).join("\n"));
        expect(detailsOf(c)).toBe(plain(c));
      }
    }, 500);
  });

  it("sameResult, answers of different numbers of lines told apart before either is masked (facts.ts), is the masked answers compared", () => {
    // Few lines, alike but for what the mask hides, so that many raw answers differ and mask alike.
    const answer = fc.oneof(
      fc.constantFrom("x 12\ny", "x 7\ny", "x 123456\ny", "x 12", "x 7\n\ny", "at 10:00:01\ny", "at 11:22:33\ny", "y\n/tmp/ab", "y\n/tmp/abc/d", "y\n<tmp>", "y\ndeadbeef12", "y\ncafe00babe1"),
      fc.array(fc.constantFrom("x 12", "y", "at 2026-12-03 10:00", "", "/tmp/ab"), { maxLength: 3 }).map((ls) => ls.join("\n")),
    );
    let alike = 0;
    check("sameResult", fc.array(fc.tuple(answer, fc.constantFrom(undefined, { exitCode: 1 }, { exitCode: 12 })), { minLength: 2, maxLength: 5 }), (specs) => {
      const events: ToolEvent[] = specs.flatMap(([t, d], k) => [
        { type: "call" as const, callId: `c${k}`, tool: "bash", params: { command: "cat a.py" } },
        { type: "outcome" as const, callId: `c${k}`, tool: "bash", result: { content: [{ type: "text", text: t }], ...(d === undefined ? {} : { details: d }) } },
      ]) as ToolEvent[];
      const mined = minedCalls(events);
      const plain = mined.map((c) => factCallOf(c.call, c.outcome));
      for (const [i, a] of mined.entries())
        for (const [j, b] of mined.entries()) {
          const same = (plain[i] as FactCall).result === (plain[j] as FactCall).result;
          if (same && a.rawResult !== b.rawResult) alike++;
          expect(sameResult(a, b)).toBe(same);
        }
    }, 500);
    expect(alike).toBeGreaterThan(100);
  });

  it("a long answer's substantiality read from its heads when they say enough (mine.ts substantialOf) is factCallOf's", () => {
    // Heads of numbers and placeholders alone, of letters, of one long line, and blank lines: the head decides, or the whole does.
    // (And an id that the 128th character cuts: its first letters are no letters of the masked answer.)
    const chunk = fc.constantFrom("1234 5678 90\n", "1234 5678 90\n".repeat(200), "letters and more letters here\n", "<id> <tmp> # <time>\n".repeat(60), "\n\n", "ab\n", "x".repeat(700), "9".repeat(900) + "\n", "  \t\n", "deadbeef12 ", "1234 5678 90\n".repeat(8) + "abcdef".repeat(5) + "12\n");
    const answer = fc.array(chunk, { maxLength: 12 }).map((parts) => parts.join(""));
    let substantialCount = 0;
    let headSays = 0;
    let headShort = 0;
    check("substantialOf", fc.array(answer, { minLength: 1, maxLength: 3 }), (texts) => {
      const events: ToolEvent[] = texts.flatMap((t, k) => [
        { type: "call" as const, callId: `c${k}`, tool: "bash", params: { command: "ls" } },
        { type: "outcome" as const, callId: `c${k}`, tool: "bash", result: { content: [{ type: "text", text: t }], details: { exitCode: 0 } } },
      ]) as ToolEvent[];
      for (const c of minedCalls(events)) {
        const plain = factCallOf(c.call, c.outcome);
        expect(c.substantial).toBe(plain.substantial);
        if (c.substantial) substantialCount++;
        // How often the first head of whole lines decides, and how often it says too little.
        const cut = plain.rawResult.indexOf("\n", 128);
        if (cut !== -1 && cut < plain.rawResult.lastIndexOf("\n")) {
          if (substantial(maskText(plain.rawResult.slice(0, cut)))) headSays++;
          else headShort++;
        }
        expect(c.result).toBe(plain.result);
      }
    }, 300);
    expect(substantialCount).toBeGreaterThan(100);
    expect(headSays).toBeGreaterThan(30);
    expect(headShort).toBeGreaterThan(30);
  });

  it("commandOf, its replaces run only where they can change something, is the command with its cd, 2>&1 and white space runs done as before", () => {
    const plainCommand = (c: { call: { tool: string }; rawArgs: string }) => `${c.call.tool} ${c.rawArgs.replace(/^\{"command":"cd [^\s&;]+ && /, '{"command":"').replace(/\s*2>&1/g, "").replace(/\s+/g, " ")}`;
    const command = fc.array(fc.constantFrom("cd /repo && ", "python t.py", " ", "  ", "\t", "\n", "2>&1", " 2>&1", "2>", "&1", "|", "\u00a0", "\u2028", "a"), { maxLength: 12 }).map((parts) => parts.join(""));
    check("commandOf", fc.tuple(command, fc.constantFrom("bash", "str_replace_editor")), ([cmd, tool]) => {
      const c = factCallOf({ type: "call", tool, params: { command: cmd } }, undefined);
      expect(commandOf(c)).toBe(plainCommand(c));
    }, 1000);
  });

  it("sameCommand, most pairs told apart by their commands' heads (facts.ts), is commandOf compared", () => {
    // One command's words, written with different white space, stderr redirections and cd's, long
    // enough that heads are cut near white space and near "2>&1": pairs that differ as recorded and
    // are one command, and pairs that differ late.
    const word = fc.constantFrom("python", "t.py", "x".repeat(70), "y".repeat(45), "2", "2>", "2>&1", "&1", ">", "&&", "a", "b");
    const gap = fc.constantFrom(" ", "  ", "\t", " \t ", " 2>&1 ", " 2>&1", "2>&1", "", "\u00a0");
    const render = (words: readonly string[], gaps: readonly string[], cd: boolean) => (cd ? "cd /repo && " : "") + words.map((w, k) => (k === 0 ? w : `${gaps[k % gaps.length] as string}${w}`)).join("");
    // A first word that puts the head's end (160 characters after a cd) among the words and gaps after it.
    const filler = fc.integer({ min: 130, max: 162 }).map((n) => "f".repeat(n));
    const words = fc.tuple(fc.option(filler, { nil: undefined, freq: 1 }), fc.array(word, { minLength: 2, maxLength: 14 })).map(([f, ws]) => (f === undefined ? ws : [f, ...ws]));
    const pair = fc.tuple(words, fc.array(gap, { minLength: 1, maxLength: 4 }), fc.array(gap, { minLength: 1, maxLength: 4 }), fc.boolean(), fc.boolean(), fc.nat(12), fc.constantFrom("bash", "bash", "bash", "shell"));
    let alike = 0;
    let long = 0;
    check("sameCommand", pair, ([words, g1, g2, cd1, cd2, change, tool]) => {
      const other = change < words.length && change % 3 === 0 ? words.map((w, k) => (k === change ? `${w}z` : w)) : words;
      const a = factCallOf({ type: "call", tool: "bash", params: { command: render(words, g1, cd1) } }, undefined);
      const b = factCallOf({ type: "call", tool, params: { command: render(other, g2, cd2) } }, undefined);
      const plain = commandOf(a) === commandOf(b);
      if (plain && a.rawArgs !== b.rawArgs) alike++;
      // Heads cut from both (args past 160 characters after a cd).
      if (a.rawArgs.length > 200 && b.rawArgs.length > 200) long++;
      expect(sameCommand(a, b)).toBe(plain);
      expect(sameCommand(b, a)).toBe(plain);
    }, 2000);
    expect(alike).toBeGreaterThan(80);
    expect(long).toBeGreaterThan(300);
    // Every head's end among the white space and the "2>&1" of the tails, after a cd or none.
    const tails = ["b", " b", "  b", "\tb", " 2>&1b", "2>&1b", " 2>&1 b", "2>&1 b", " 2>b", "2b", " 2>&1", "2>&1", "&1b", ""];
    for (let n = 130; n <= 165; n++)
      for (const cd of ["", "cd /repo && "])
        for (const x of tails)
          for (const y of tails) {
            const a = factCallOf({ type: "call", tool: "bash", params: { command: `${cd}${"f".repeat(n)}${x}` } }, undefined);
            const b = factCallOf({ type: "call", tool: "bash", params: { command: `${"f".repeat(n)}${y}` } }, undefined);
            expect(sameCommand(a, b)).toBe(commandOf(a) === commandOf(b));
          }
  });

  it("a code line of a trimmed answer line is the line itself unless it starts with the number's mask (mine.ts codeLine)", () => {
    const plainCodeLine = (line: string) => line.replace(/^#(?::|-|\s)\s*/, "").trim();
    check("codeLine", text, (t) => {
      for (const line of answerLines(maskText(t))) expect(codeLine(line)).toBe(plainCodeLine(line));
    });
    for (const line of ["#: x", "#- y", "#\tz", "# ", "#x", "a # b"]) expect(codeLine(line)).toBe(plainCodeLine(line));
  });

  it("perCall works a value out once per object, undefined included, and gives what the derivation gives", () => {
    let runs = 0;
    const derived = perCall((o: { readonly n: number }) => {
      runs++;
      return o.n % 2 === 0 ? undefined : o.n;
    });
    // Plain objects keep their values in a hidden slot, frozen ones in a WeakMap.
    const objects = [0, 1, 2, 3, 5].map((n) => (n === 5 ? Object.freeze({ n }) : { n }));
    for (let round = 0; round < 3; round++) expect(objects.map((o) => derived(o))).toEqual([undefined, 1, undefined, 3, 5]);
    expect(runs).toBe(5);
    // The slot is invisible: JSON and keys are as before, and a copy (spread) is a new call with values of its own.
    expect(JSON.stringify(objects[1])).toBe('{"n":1}');
    expect(Object.keys(objects[1] as object)).toEqual(["n"]);
    expect(derived({ ...(objects[1] as { n: number }), n: 7 })).toBe(7);
    expect(runs).toBe(6);
  });

  it("rejectionOf, its words and its one alternation tested first, names the refusal the patterns name one by one on texts each pattern matches", () => {
    const plain = (t: string) => REJECTIONS.find(([, pattern]) => pattern.test(t.slice(0, 600)))?.[0];
    // Texts each pattern matches (fast-check cannot generate \\b: without it a text may not match, and both say so), in any case, with text around them.
    const matching = fc.oneof(...REJECTIONS.map(([, pattern]) => fc.stringMatching(new RegExp(`^(?:${pattern.source.replace(/\\b/g, "")})$`))));
    // The bounds of the patterns' gaps, which random texts seldom reach.
    const edges = fc.constantFrom(`Tool ${"x".repeat(60)} does not exist`, `tool ${"x".repeat(61)} not found`, `old_str ${"y".repeat(40)} is not unique`, "editing has been reverted", "Invalid function arguments");
    const anyCase = fc.tuple(fc.oneof(matching, edges), fc.array(fc.boolean(), { maxLength: 80 })).map(([t, flips]) => [...t].map((c, i) => (flips[i] === true ? (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) : c)).join(""));
    check("rejectionOf on refusals", fc.tuple(fc.constantFrom("", "x ", "ok\n", "é"), anyCase, fc.constantFrom("", " y", "\n")).map((parts) => parts.join("")), (t) => {
      expect(rejectionOf(t)).toBe(plain(t));
    });
    const phrase = fc.constantFrom("Your changes have NOT been applied", "editing was reverted", "No replacement was performed", "old_str x not found", "patch does not apply", "<tool_use_error>", "Unknown tool", "Tool foo does not exist", "command is not allowed", "blocked by policy", "requires approval", "x", " ", "\n", "tool", "not ");
    check("rejectionOf", fc.array(phrase, { maxLength: 8 }).map((parts) => parts.join("")), (t) => {
      expect(rejectionOf(t)).toBe(plain(t));
    });
  });

  it("answerLines keeps the non-blank lines that are no harness tag; lastAnswerLines is its last lines; hasAnswerLine says whether there is one", () => {
    check("answerLines", text, (t) => {
      expect(answerLines(t)).toEqual(
        t
          .split("\n")
          .map((l) => l.trim())
          .filter((l) => l !== "" && !/^<\/?(?:output|output_head|output_tail|warning|returncode)>$/.test(l)),
      );
    });
    check("hasAnswerLine", text, (t) => {
      expect(hasAnswerLine(t)).toBe(answerLines(t).length > 0);
    });
    check("lastAnswerLines", fc.tuple(text, fc.nat(6)), ([t, n]) => {
      expect(lastAnswerLines(t, n)).toEqual(n === 0 ? [] : answerLines(t).slice(-n));
    });
  });

  it("pathsIn, running its pattern on the runs that hold an extension, names the files the pattern names over the whole args", () => {
    const plain = (args: string) => [...new Set(args.match(/(?:[\w.~-]*\/)*[\w-]+\.(?:py|js|ts|tsx|json|txt|md|c|h|cpp|java|rs|go|rb|sh|cfg|ini|toml|yaml|yml|html|css|rst|pyx|pyi|sty|tex)\b/g) ?? [])].sort().join(" ");
    const part = fc.constantFrom("a", "x_1", "py", "pyx", "tex", "c", "h", ".", "/", "~", "-", " ", "\\n", '"', "'", "é", "..", "./", "~/", "-/", "a.py", ".js", "/tmp/", "$", "=", "(", "\u0000");
    for (const sample of ['{"command":"cd /repo && python ~x.py a.b.c.pyx -o out.json"}', "s/a/b/ foo.py.bak .py a..py -/b.ts", "é.py x.pyé a.c2.h", "~/a.py x-y/b.c .~/.sh_1.sh"]) expect(pathsIn(sample)).toBe(plain(sample));
    check("pathsIn", fc.array(part, { maxLength: 40 }).map((parts) => parts.join("")), (args) => {
      expect(pathsIn(args)).toBe(plain(args));
    }, 1000);
  });

  it("tokensOf counts JSON.stringify's length without building the JSON", () => {
    const plain = (value: unknown) => 12 + Math.ceil((value === undefined ? "" : (JSON.stringify(value) ?? "")).length / 4);
    const json = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: "small" }, text, fc.double(), fc.integer(), fc.boolean(), fc.constant(null), fc.constant(undefined), fc.array(tie("value"), { maxLength: 4 }), fc.dictionary(text, tie("value"), { maxKeys: 4 })),
    })).value;
    check("tokensOf", json, (v) => {
      expect(tokensOf(v)).toBe(plain(v));
    });
    // The same long string twice in a row (a result's text and its `aggregated` copy), and values it hands to JSON.stringify.
    const long = `${"line \"quoted\"\n".repeat(40)}\u0002`;
    for (const v of [long, long, { content: [{ type: "text", text: long }], details: { aggregated: long } }, new Date(0), { at: new Date(0) }, [undefined, () => 1]]) expect(tokensOf(v)).toBe(plain(v));
  });

  it("a call's tokens (catalogue.ts callTokens) take the call event's from the args' JSON factCallOf made: the plain sum of eventTokens", () => {
    const plainCallTokens = (events: readonly ToolEvent[], c: MinedCall) => c.events.reduce((sum, at) => sum + eventTokens(events[at] as ToolEvent), 0);
    const json = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: "small" }, text, fc.double(), fc.integer(), fc.boolean(), fc.constant(null), fc.constant(undefined), fc.array(tie("value"), { maxLength: 3 }), fc.dictionary(text, tie("value"), { maxKeys: 3 })),
    })).value;
    // Args JSON.stringify makes nothing of, or makes "null" of, or builds through toJSON: the event is measured as before.
    const odd = fc.constantFrom<unknown>(undefined, null, () => 1, Symbol("s"), { toJSON: () => undefined }, { toJSON: () => "xy" }, new Date(0), Number.NaN);
    check("callTokens", fc.array(fc.tuple(fc.oneof(json, odd), fc.oneof(json, odd), fc.boolean()), { minLength: 1, maxLength: 4 }), (pairs) => {
      const events: ToolEvent[] = pairs.flatMap(([params, result, answered], k) => [
        { type: "call" as const, callId: `c${k}`, tool: "bash", ...(params === undefined ? {} : { params }) },
        ...(answered ? [{ type: "outcome" as const, callId: `c${k}`, tool: "bash", result }] : []),
      ]) as ToolEvent[];
      for (const c of minedCalls(events)) expect(callTokens(events, c)).toBe(plainCallTokens(events, c));
    });
  });

  it("a mined call's shape (mine.ts minedCalls, masked when first read) is maskedCall of its call, an own enumerable field in its place, two shapes compare as masked (sameShape), and the stretches are those of shapes worked out for every call", () => {
    const json = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: "small" }, text, fc.integer(), fc.boolean(), fc.constant(null), fc.array(tie("value"), { maxLength: 3 }), fc.dictionary(text, tie("value"), { maxKeys: 3 })),
    })).value;
    const odd = fc.constantFrom<unknown>(undefined, null, () => 1, { toJSON: () => "xy" });
    // Few tools, args and answers, so that neighbours answer and fail alike and the shapes are compared.
    const call = fc.tuple(fc.constantFrom("bash", "str_replace"), fc.oneof(fc.constantFrom<unknown>({ command: "ls 1" }, { command: "ls 2" }, { command: "cat a.py" }), json, odd), fc.constantFrom("x", "no such file 1", "no such file 2", ""), fc.constantFrom(0, 1), fc.boolean());
    let found = 0;
    // A few calls sent again and again, in any order: repeats, failing runs and alternations.
    const session = fc.tuple(fc.array(call, { minLength: 1, maxLength: 3 }), fc.array(fc.nat(2), { minLength: 3, maxLength: 12 })).map(([pool, picks]) => picks.map((k) => pool[k % pool.length] as (typeof pool)[number]));
    check("shape", session, (specs) => {
      const events: ToolEvent[] = specs.flatMap(([tool, params, output, exitCode, answered], k) => [
        { type: "call" as const, callId: `c${k}`, tool, ...(params === undefined ? {} : { params }) },
        ...(answered ? [{ type: "outcome" as const, callId: `c${k}`, tool, result: { content: [{ type: "text", text: output }], details: { exitCode } } }] : []),
      ]) as ToolEvent[];
      const lazy = minedCalls(events);
      // The plain computation: every call's shape masked up front, as a data field.
      const eager = minedCalls(events).map((c) => ({ ...c, shape: maskedCall(c.call) }));
      const stretches = stretchesOf(lazy);
      found += stretches.length;
      expect(stretches).toEqual(stretchesOf(eager));
      // Two calls' shapes compared without masking args sent again as recorded (mine.ts sameShape): the masked shapes compared.
      for (const a of lazy) for (const b of minedCalls(events)) expect(sameShape(a, b)).toBe(maskedCall(a.call) === maskedCall(b.call));
      for (const c of minedCalls(events)) {
        expect(Object.keys(c).slice(0, 4)).toEqual(["index", "events", "shape", "call"]);
        expect(c.shape).toBe(maskedCall(c.call));
        expect(c.shape).toBe(maskedShape(c.call.tool, JSON.stringify(c.call.params ?? null) ?? "null"));
      }
    });
    expect(found).toBeGreaterThan(50);
  });

  it("a mined call's masked answer and its substantiality (mine.ts minedCalls, masked when a rule first reads them) are factCallOf's, and sameResult is the masked answers compared", () => {
    // Answers with and without details (an exit code, a status, the output's copy beside it), as
    // text, as a string result, as an error, or none; repeated, so that raw answers come out equal.
    const answerPiece = fc.oneof(piece, fc.constantFrom("2026-12-03 10:00", "deadbeef12", "\n{", "}", '\n{"exitCode":1}', "Error: x", "letters and more letters here", "<id>", "<ab12>"));
    const answer = fc.array(answerPiece, { maxLength: 30 }).map((parts) => parts.join(""));
    const details = fc.constantFrom<unknown>(undefined, { exitCode: 1 }, { status: "completed", exitCode: 0 }, { status: "failed", exitCode: 2, aggregated: "x 12" }, "2026-12-03\t1", 7, null);
    const outcome = fc.tuple(answer, details, fc.constantFrom("content", "content+aggregated", "string", "error", "none"));
    const calls = fc.array(fc.tuple(fc.constantFrom<unknown>({ command: "ls 1" }, { command: "cat a.py" }, { path: "a.py", old_str: "x" }), outcome), { minLength: 1, maxLength: 6 });
    check("masked answer", calls, (specs) => {
      const events: ToolEvent[] = specs.flatMap(([params, [t, d, shape]], k) => {
        const callId = `c${k}`;
        const result = shape === "string" ? t : { content: [{ type: "text", text: t }], ...(d === undefined ? {} : { details: shape === "content+aggregated" && d !== null && typeof d === "object" ? { ...d, aggregated: t } : d }) };
        const answered = shape === "none" ? [] : [shape === "error" ? { type: "outcome" as const, callId, tool: "bash", error: t } : { type: "outcome" as const, callId, tool: "bash", result }];
        return [{ type: "call" as const, callId, tool: "bash", params }, ...answered];
      }) as ToolEvent[];
      const mined = minedCalls(events);
      for (const c of mined) {
        const plain = factCallOf(c.call, c.outcome);
        expect({ ...c }).toEqual({ ...plain, index: c.index, events: c.events, shape: maskedCall(c.call) });
        expect(c.result).toBe(plain.result);
        expect(c.substantial).toBe(plain.substantial);
        expect(Object.keys(c).sort()).toEqual([...Object.keys(plain), "index", "events", "shape"].sort());
      }
      // Read in another order (substantial first): the same values.
      for (const c of minedCalls(events).reverse()) {
        const plain = factCallOf(c.call, c.outcome);
        expect(c.substantial).toBe(plain.substantial);
        expect(c.result).toBe(plain.result);
      }
      for (const a of mined) for (const b of mined) expect(sameResult(a, b)).toBe(a.result === b.result);
    }, 500);
  });

  it("the writing-command pattern, one \\b before its word alternatives (writes.ts WRITING_COMMAND), matches where the alternatives side by side match", () => {
    const plain = /\bsed\s+(?:-\w+\s+)*-[a-zA-Z]*i|\bperl\s+(?:-\w+\s+)*-\w*i|\btee\b|(?:^|[;&|(]\s*|"command":"\s*)(?:mv|cp|rm|touch|mkdir|patch|ln|chmod|truncate)\s|\bgit\s+(?:apply|checkout|stash|reset|restore|am|cherry-pick|commit|merge|rebase|rm|mv)\b|\b(?:pip3?|conda|apt-get|apt|npm|yarn|pnpm|poetry|uv)\s+(?:\w+\s+)*(?:install|add|remove|uninstall)\b|\.write(?:_text|_bytes)?\(|open\([^)]{0,200}['"][wa]\+?b?['"]|\bsetup\.py\s+(?:develop|install)|\bfind\b[^|;&]*\s-delete\b/;
    const word = fc.constantFrom("sed", "perl", "tee", "mv", "cp", "rm", "touch", "patch", "ln", "truncate", "git", "apply", "commit", "cherry-pick", "pip", "pip3", "uv", "apt-get", "install", "add", "setup.py", "develop", "find", "-delete", "-i", "-pi", "-e", "-n", ".write(", ".write_text(", "open(", "'w'", '"a"', "+", "b", ")", "x", "_", "{", '"command":"', ";", "&", "|", "(", " ", "  ", "\n", "\t", "\\n");
    check("WRITING_COMMAND", fc.array(word, { maxLength: 12 }).map((parts) => parts.join("")), (args) => {
      expect(WRITING_COMMAND.test(args)).toBe(plain.test(args));
    }, 3000);
  });

  it("a command known only by a variable or a placeholder (writes.ts namesUnknownCommand, its pattern tried only on args that hold what a match must) is what UNKNOWN_COMMAND says", () => {
    const part = fc.constantFrom('{"command":', '{"command":"', '{"command":{"expr":', '"', "<<", "<", " ", "\\n", "\\", "n", "{", "}", "patch_script", "x", "_", "PY", "'PY'", "cat ", "python - ", "\n", '"}', "\\n{x}\\n", "\\n{", "}\\n", "{patch_script}");
    const args = fc.tuple(fc.constantFrom('{"command":"', '{"command":"python - << PY\\n', '{"command":{"expr":', ""), fc.array(part, { maxLength: 14 })).map(([start, parts]) => start + parts.join(""));
    check("namesUnknownCommand", args, (args) => {
      expect(namesUnknownCommand(args)).toBe(UNKNOWN_COMMAND.test(args));
    }, 5000);
    // Both alternatives, and near misses of each.
    for (const args of ['{"command":{"expr":"cmd"}}', '{"command":"python - << \'PY\'\\n{patch_script}\\nPY"}', '{"command":"python - << PY\\n{a b}\\nPY"}', '{"command":"cat <<EOF\\n{x}\\"\\n"}', '{"command":"a\\n{x}\\n<<"}', '{"cmd":{"expr":"c"}}'])
      expect(namesUnknownCommand(args)).toBe(UNKNOWN_COMMAND.test(args));
    expect(namesUnknownCommand('{"command":"python - << \'PY\'\\n{patch_script}\\nPY"}')).toBe(true);
  });

  it("callUnits (eventPairs.ts), a call answered by the next event paired without its key while no other call is open, pairs as the keys alone pair", () => {
    const plain = (events: readonly ToolEvent[]): number[][] => {
      const units: number[][] = [];
      const open = new Map<string, number[][]>();
      events.forEach((event, index) => {
        if (event.type !== "call" && event.type !== "outcome") {
          units.push([index]);
          return;
        }
        const key = answerKey(event);
        if (event.type === "call") {
          const unit = [index];
          units.push(unit);
          const queue = open.get(key);
          if (queue === undefined) open.set(key, [unit]);
          else queue.push(unit);
          return;
        }
        const unit = open.get(key)?.shift();
        if (unit === undefined) units.push([index]);
        else unit.push(index);
      });
      return units;
    };
    const event = fc.record({ type: fc.constantFrom("call", "outcome", "outcome", "message"), runId: fc.constantFrom(undefined, "r", " r", "s"), callId: fc.constantFrom(undefined, "1", "2", "3"), tool: fc.constantFrom("a", "b") }).map(({ type, runId, callId, tool }): ToolEvent => {
      const ids = { ...(runId === undefined ? {} : { runId }), ...(callId === undefined ? {} : { callId }) };
      if (type === "message") return { type: "message", ...(runId === undefined ? {} : { runId }), text: "t" } as ToolEvent;
      return (type === "call" ? { type, ...ids, tool, params: {} } : { type, ...ids, tool, params: {}, result: "x" }) as ToolEvent;
    });
    check("callUnits", fc.array(event, { maxLength: 16 }), (events) => {
      expect(callUnits(events)).toEqual(plain(events));
    }, 3000);
  });

  it("namesMiniSweAgentFormat (detect.ts, the key looked for in the head's tail, then forward, then tried from its last place) says what MINI_SWE_AGENT_FORMAT says anywhere", () => {
    const part = fc.constantFrom('"trajectory_format"', '"trajectory_format": "mini-swe-agent-1"', '"trajectory_format" : "mini-swe-agent', '"trajectory_format": 5', '"trajectory_format":"other"', '"trajectory_format"', " ", ",", "{", "}", "x".repeat(1500), "é".repeat(700), '"mini-swe-agent"');
    check("namesMiniSweAgentFormat", fc.array(part, { maxLength: 12 }).map((parts) => parts.join("")), (t) => {
      expect(namesMiniSweAgentFormat(t)).toBe(MINI_SWE_AGENT_FORMAT.test(t));
    }, 3000);
  });

  it("a region re-shown (unlandedEdits.ts sameLinesAgain, the earlier lines worked out and made a set only when needed) is the set-first test", () => {
    const plain = (before: readonly string[], now: readonly string[]): boolean => {
      if (now.length < WITHIN_MIN_LINES || before.length === 0) return false;
      const had = new Set(before);
      return now.every((l) => had.has(l)) && sameRegion(new Set(now), before);
    };
    const lines = fc.array(fc.constantFrom("a", "b", "c", "d", "e", ""), { maxLength: 8 });
    check("sameLinesAgain", fc.tuple(lines, lines), ([before, now]) => {
      expect(sameLinesAgain(() => before, now)).toBe(plain(before, now));
    }, 2000);
  });

  it("a script's own parse error (facts.ts ownProgramUnparsed, its answer cut into lines only when it holds File \"<) is found as the lines cut first find it", () => {
    const plain = (rawResult: string): boolean => {
      const body = answerBody(rawResult);
      const lines = body.slice(0, 20000).replace(/^\s*bash execution output:\s*/, "").split("\n");
      // bash's warnings that a here-document was never closed (up to 3) may come first.
      let open = 0;
      while (open < 3 && /^\s*bash: (?:-c: )?(?:line \d+: )?warning: here-document at line \d+ delimited by end-of-file \(wanted `[^\n]*'\)\s*$/.test(lines[open] ?? "")) open++;
      if (/^\s*File "<(?:stdin|string)>", line \d+\s*$/.test(lines[open] ?? "") && lines.slice(open + 1, open + 5).some((l) => /^\s*(?:SyntaxError|IndentationError|TabError)\b/.test(l))) return true;
      return /\bsed: -e expression #\d+, char \d+:|Execution of -e aborted due to compilation errors|\bawk: (?:cmd\. )?line:? ?\d+: (?:syntax error|missing \S+ near|runaway)/.test(body.slice(0, 3000));
    };
    const opening = fc.constantFrom("", "bash execution output: ", "  ", "x", "bash: line 9: warning: here-document at line 1 delimited by end-of-file (wanted `PY')\n", "bash: line 9: warning: here-document at line 1 delimited by end-of-file (wanted `PY')\nbash: line 9: warning: here-document at line 3 delimited by end-of-file (wanted `EOF')\n");
    const location = fc.constantFrom('File "<stdin>", line 3', 'File "<string>", line 12 ', 'File "<', "File", 'File "x.py", line 3', "");
    const line = fc.constantFrom("SyntaxError: invalid syntax", "  IndentationError: x", "TabError", "Traceback (most recent call last):", "    ^", "x", "", '{"status":"failed"}', "sed: -e expression #1, char 9: unterminated", "Execution of -e aborted due to compilation errors");
    const answer = fc.tuple(opening, location, fc.array(line, { maxLength: 7 })).map(([o, l, rest]) => [o + l, ...rest].join("\n"));
    check("ownProgramUnparsed", answer, (rawResult) => {
      expect(ownProgramUnparsed({ outcome: {}, rawResult } as unknown as FactCall)).toBe(plain(rawResult));
    }, 2000);
  });

  it("the lines an answer printed (unlandedEdits.ts printedLines, trimmed and kept in one pass) are the lines trimmed, then the blank ones dropped", () => {
    const part = fc.constantFrom("a", " ", "\t", "\r", "\n", "\u00a0", "\u2028", "b c", '{"status":"ok"}');
    check("printedLines", fc.array(part, { maxLength: 12 }).map((p) => p.join("")), (rawResult) => {
      const plain = answerBody(rawResult).split("\n").map((l) => l.trimEnd()).filter((l) => l.trim() !== "");
      expect(printedLines({ rawResult } as unknown as FactCall)).toEqual(plain);
    }, 2000);
  });

  it("decodeUtf8 decodes as the fatal decoder does (a BOM dropped, invalid UTF-8 refused)", () => {
    const decodeBoth = (bytes: Uint8Array) => {
      const run = (f: () => string) => {
        try {
          return f();
        } catch (error) {
          return `threw ${(error as Error).constructor.name}`;
        }
      };
      return [run(() => utf8Decoder().decode(bytes)), run(() => decodeUtf8(bytes))];
    };
    check("decodeUtf8", fc.tuple(fc.uint8Array({ maxLength: 40 }), fc.boolean(), fc.nat(3)), ([bytes, bom, from]) => {
      const all = Buffer.concat([bom ? Buffer.from([0xef, 0xbb, 0xbf]) : Buffer.alloc(0), Buffer.from(bytes)]);
      const [fatal, fast] = decodeBoth(all.subarray(Math.min(from, all.length)));
      expect(fast).toBe(fatal);
    });
    check("decodeUtf8 on text", text, (t) => {
      const [fatal, fast] = decodeBoth(Buffer.from(`\ufeff${t}`));
      expect(fast).toBe(fatal);
    });
  });

  it("an observation's output is what the <output> regex captured", () => {
    const plainOutput = (t: string) => {
      const whole = /<output>\n?([\s\S]*?)<\/output>/.exec(t);
      const headStart = t.indexOf("<output_head>");
      const tailEnd = t.indexOf("</output_tail>");
      if (whole !== null) return whole[1];
      if (headStart >= 0) return tailEnd > headStart ? t.slice(headStart, tailEnd + "</output_tail>".length) : t.slice(headStart);
      return t;
    };
    const tagged = fc.array(fc.constantFrom("<output>", "</output>", "<output_head>", "</output_tail>", "\n", "x", " "), { maxLength: 12 }).map((parts) => parts.join(""));
    check("parseObservation", tagged, (t) => {
      expect(parseObservation(t).output).toBe(plainOutput(t));
    });
    // With a harness's <exception> notice: its text before the output, or the output when that is empty, as the plain pattern finds it.
    const withException = (t: string) => {
      const output = plainOutput(t) as string;
      const exception = /<exception>([\s\S]*?)<\/exception>/.exec(t)?.[1]?.trim();
      return exception === undefined || exception === "" ? output : output.trim() === "" ? exception : `${exception}\n${output}`;
    };
    const noticed = fc.array(fc.constantFrom("<exception>", "</exception>", "<exception", "<output>", "</output>", "\n", "x", " ", "<"), { maxLength: 12 }).map((parts) => parts.join(""));
    check("parseObservation's exception", noticed, (t) => {
      expect(parseObservation(t).output).toBe(withException(t));
    });
  });

  it("answerKey tells two events apart exactly when the JSON key of their run, kind and name does", () => {
    const jsonKey = (e: { runId?: string; callId?: string; tool: string }) => JSON.stringify([(e.runId ?? "").trim(), e.callId === undefined ? "tool" : "id", e.callId ?? e.tool]);
    const word = fc.array(fc.constantFrom("a", "1", ":", " ", "id", "tool", "2:"), { maxLength: 4 }).map((parts) => parts.join(""));
    const event = fc.record({ runId: fc.option(word, { nil: undefined }), callId: fc.option(word, { nil: undefined }), tool: word }).map((e) => ({ type: "call" as const, tool: e.tool, ...(e.runId === undefined ? {} : { runId: e.runId }), ...(e.callId === undefined ? {} : { callId: e.callId }) }));
    check("answerKey", fc.tuple(event, event), ([a, b]) => {
      expect(answerKey(a) === answerKey(b)).toBe(jsonKey(a) === jsonKey(b));
    });
  });

  it("nestsDeeperThan answers as the stack of every child did, shared and cyclic values too", () => {
    const plain = (value: unknown, max: number): boolean => {
      const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
      const seen = new Set<object>();
      while (stack.length > 0) {
        const { value: v, depth } = stack.pop() as { value: unknown; depth: number };
        if (v === null || typeof v !== "object" || seen.has(v)) continue;
        if (depth >= max) return true;
        seen.add(v);
        for (const child of Array.isArray(v) ? v : Object.values(v as Record<string, unknown>)) stack.push({ value: child, depth: depth + 1 });
      }
      return false;
    };
    const tree = fc.letrec((tie) => ({ node: fc.oneof({ depthSize: "small" }, fc.nat(3), fc.constant(null), fc.array(tie("node"), { maxLength: 3 }), fc.dictionary(fc.constantFrom("a", "b", "c"), tie("node"), { maxKeys: 3 })) })).node;
    check("nestsDeeperThan", fc.tuple(tree, fc.array(fc.tuple(fc.nat(20), fc.nat(20)), { maxLength: 4 }), fc.nat(8)), ([root, links, max]) => {
      // Links between the value's own objects: shared parts and cycles.
      const objects: object[] = [];
      const collect = (v: unknown) => {
        if (v === null || typeof v !== "object" || objects.includes(v)) return;
        objects.push(v);
        for (const child of Object.values(v)) collect(child);
      };
      collect(root);
      for (const [from, to] of links) {
        const a = objects[from % Math.max(1, objects.length)];
        const b = objects[to % Math.max(1, objects.length)];
        if (a !== undefined && b !== undefined && !Array.isArray(a)) (a as Record<string, unknown>)[`link${from}`] = b;
      }
      expect(nestsDeeperThan(root, max)).toBe(plain(root, max));
    });
    // Past what the quick look of a shallow tree takes on (32 levels, 10,000 objects): a chain
    // deeper than it, wider values, a part shared down 40 levels (a tree of 2^40 places, linear
    // for the full walk), a cycle, each with maxima on both sides of their depth.
    const chain = (n: number): unknown => (n === 0 ? {} : { next: chain(n - 1) });
    let shared: unknown = [];
    for (let k = 0; k < 40; k++) shared = [shared, shared];
    const cyclic: Record<string, unknown> = { a: [1] };
    cyclic.self = cyclic;
    const samples = [chain(31), chain(32), chain(33), chain(40), Array.from({ length: 20_000 }, () => ({ a: [1] })), { wide: Array.from({ length: 9_999 }, () => ({})) }, shared, cyclic, [[[]]]];
    for (const value of samples) for (const max of [0, 1, 2, 3, 31, 32, 33, 34, 40, 41, 42, 1000]) expect(nestsDeeperThan(value, max)).toBe(plain(value, max));
  });

  it("namesParseError (unmovedBreak.ts breakOf's first look, only where \"Error\" is) says what /(?:Syntax|Indentation|Tab)Error/ says", () => {
    const errorish = fc.array(fc.constantFrom("Syntax", "Indentation", "Tab", "Error", "Err", "or", "Synt", "ax", "Indent", "ation", "Ta", "b", "x", " ", "\n", "E", "rror"), { maxLength: 12 }).map((parts) => parts.join(""));
    for (const sample of ["TabError", "xSyntaxError", "IndentationError", "Error", "abError", "SyntaxErro", "Tab Error", "SyntaxTabError"]) expect(namesParseError(sample)).toBe(/(?:Syntax|Indentation|Tab)Error/.test(sample));
    check("namesParseError", errorish, (t) => {
      expect(namesParseError(t)).toBe(/(?:Syntax|Indentation|Tab)Error/.test(t));
    }, 2000);
  });

  it("a string literal of a Python call keeps every character and escape", () => {
    expect(pythonCalls(`f('a\\tb\\'c' "x\\"y", '\'\'l1\n'l2'\n\'\'', r'\\n', u='\\x41\\u0042\\q')`)).toEqual([{ name: "f", args: ["a\tb'c" + 'x"y', "l1\n'l2'\n", "\\n"], kwargs: { u: "AB\\q" } }]);
    // A line ends a one-quote string and a bracket ends the call before a quote closes: each is kept as its text.
    expect(pythonCalls("g('abc\n')")).toEqual([{ name: "g", args: [{ expr: "'abc\n'" }], kwargs: {} }]);
    expect(pythonCalls("h('abc)")).toEqual([{ name: "h", args: [{ expr: "'abc" }], kwargs: {} }]);
  });

  it("pythonCalls, skipping runs of characters it only steps over, finds the calls stepping one character at a time finds", () => {
    const py = fc
      .array(fc.constantFrom("f(", "g(1, 'a')", ")", "(", "[", "]", "{", "}", "'", '"', "r'", "b\"", "u", "F", "x", " ", "\n", "\\", "\\n", ";", "#", "# c\n", "return ", "exec_bash_cmd('ls')", "print(h(2))", "=", "@d\n", "def ", "if ", "Let me look:", "é", "#(", "r'\\'", "'\\'", "b'\\\\'", "your", "buffer", "of ", "rb", "Fu", "bar'"), { maxLength: 30 })
      .map((parts) => parts.join(""));
    // A comment or a raw string skipped whole or read from its quote would differ here.
    for (const sample of ["#(\nf()", "x = r'\\' + f('a')\ng()", "say r'\\'\nf()", "s = br'\\'\ng(1)", "Let me look for your buffer'\nf(1)", "our' ) f(2)\ng()", "rb'(' + f(3)\nh()", 'a fu"("\nf(4)']) expect(pythonCalls(sample)).toEqual(pythonCallsStepwise(sample));
    check("pythonCalls", py, (t) => {
      expect(pythonCalls(t)).toEqual(pythonCallsStepwise(t));
    }, 1000);
  });
});

describe("a .gz file held whole for its reader", () => {
  const dir = tempDir();
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("serves its head, its text and its whole content as the ordinary reads give them", () => {
    const content = Buffer.from(`{"a": "${"x".repeat(300_000)}", "é": 1}`);
    const file = join(dir, "big.json.gz");
    writeFileSync(file, gzipSync(content));
    holdWhole(file, 64 * 1024 * 1024);
    expect(contentHead(file, 1000).equals(content.subarray(0, 1000))).toBe(true);
    expect(contentHeadText(file, 256 * 1024)).toBe(content.subarray(0, 256 * 1024).toString("utf8"));
    const whole = contentWhole(file);
    expect(whole.equals(content)).toBe(true);
    expect(heldText(whole)).toBe(content.toString("utf8"));
  });

  it("held with the listing's own stat of the file (sessionRefs.ts listFile), it serves what it serves held with its own stat", () => {
    check("holdWhole given stats", fc.tuple(text, fc.nat(3), fc.boolean()), ([body, copies, stale]) => {
      const content = Buffer.from(`{"a": ${JSON.stringify(body.repeat(copies + 1))}}`);
      const file = join(dir, "held.json.gz");
      writeFileSync(file, gzipSync(content));
      const reads = () => ({ head: contentHeadText(file, 7), whole: contentWhole(file).toString("latin1") });
      holdWhole(file, 64 * 1024 * 1024);
      const own = reads();
      // A stat that no longer matches the file (taken before it was rewritten) holds nothing the reads then serve as the file's.
      const stats = stale ? { mtimeMs: 0, size: 1, isFile: () => true } : statSync(file);
      holdWhole(file, 64 * 1024 * 1024, "this thread", stats);
      expect(reads()).toEqual(own);
      expect(own.whole).toBe(content.toString("latin1"));
    }, 50);
  });

  it("inflateWhole, its output buffer sized by the gzip trailer, inflates as gunzipSync does, whatever the trailer claims", () => {
    const outcome = (f: () => Buffer): { bytes?: string; error?: string } => {
      try {
        return { bytes: f().toString("hex") };
      } catch (error) {
        return { error: `${(error as Error).name}: ${(error as { code?: string }).code ?? ""}` };
      }
    };
    // Content of any size around the chunk sizes; one or two gzip members; a trailer that lies; a cut.
    // Any bytes, or a run of one byte (as its length and byte, so that a counterexample prints short).
    const content = fc.oneof(fc.array(fc.nat(255), { maxLength: 300 }).map((bytes) => ({ bytes })), fc.record({ run: fc.constantFrom(63, 64, 65, 16383, 16384, 16385, 70000), byte: fc.nat(255) }));
    const damage = fc.constantFrom("none", "two members", "size lies small", "size lies large", "size 0", "cut");
    check("inflateWhole", fc.tuple(content, damage, fc.constantFrom(undefined, 100, 70000)), ([spec, how, max]) => {
      const bytes = "bytes" in spec ? Buffer.from(spec.bytes) : Buffer.alloc(spec.run, spec.byte);
      let gz = gzipSync(bytes);
      if (how === "two members") gz = Buffer.concat([gz, gzipSync(Buffer.from("second"))]);
      if (how === "size lies small" || how === "size lies large" || how === "size 0") {
        gz = Buffer.from(gz);
        gz.writeUInt32LE(how === "size 0" ? 0 : how === "size lies small" ? Math.max(0, bytes.length - 7) : bytes.length * 50 + 9, gz.length - 4);
      }
      if (how === "cut") gz = gz.subarray(0, gz.length - 5);
      const options = max === undefined ? {} : { maxOutputLength: max };
      expect(outcome(() => inflateWhole(gz, options))).toEqual(outcome(() => gunzipSync(gz, options)));
    }, 200);
  });

  it("a mini-swe-agent document is told by its trajectory_format wherever it is, the last one tried first", () => {
    let n = 0;
    const doc = (body: string) => {
      const file = join(dir, `doc${n++}.json`);
      writeFileSync(file, body);
      return detectFormat(file);
    };
    expect(doc('{"info": {}, "messages": [], "trajectory_format": "mini-swe-agent-1"}')).toBe("mini-swe-agent");
    expect(doc('{"trajectory_format" : "mini-swe-agent-1.1", "x": 1}')).toBe("mini-swe-agent");
    // A later key that does not match does not hide an earlier one that does.
    expect(doc('{"trajectory_format": "mini-swe-agent-1", "x": {"trajectory_format": 5}}')).toBe("mini-swe-agent");
    expect(doc('{"trajectory_format": "other", "x": 1}')).toBeUndefined();
  });

  it("a cut-short .gz is never held: reading it whole is still refused, naming the file", () => {
    const file = join(dir, "cut.json.gz");
    const gz = gzipSync(Buffer.from(`{"a": "${"y".repeat(2000)}"}`));
    writeFileSync(file, gz.subarray(0, gz.length - 6));
    holdWhole(file, 64 * 1024 * 1024);
    expect(contentHead(file, 10).toString()).toBe('{"a": "yyy');
    expect(() => contentWhole(file)).toThrow(/cut\.json\.gz: not a valid gzip file/);
  });
});

describe("a session read in one go (Importer.wholeEvents) is the session read a stream at a time", () => {
  const dir = tempDir();
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const streamed = async (ref: string, span: ElementSpan | undefined, text: boolean) => {
    const opened = await openSession(ref, "auto", { text, ...(span === undefined ? {} : { span }) });
    const events: ImportedEvent[] = [];
    for await (const e of opened.events) events.push(e);
    return { format: opened.format, stats: opened.stats, events };
  };

  it("gives the same events, places and counts for every fixture session it reads (mini-swe-agent 1 and 1.1, tau-bench runs)", async () => {
    const { refs } = await sessionRefs(["test/fixtures/sessions"]);
    let read = 0;
    for (const { ref, span, format } of refs) {
      for (const text of [true, false]) {
        const now = format === undefined ? undefined : wholeSessionEvents(ref, format, { text, ...(span === undefined ? {} : { span }) });
        if (now === undefined) continue;
        const events = [...now.events];
        const plain = await streamed(ref, span, text);
        expect({ format: now.format, stats: now.stats, events }, ref).toEqual(plain);
        read++;
      }
    }
    // Both formats that have a whole path, with and without text, and several sessions of each.
    expect(read).toBeGreaterThanOrEqual(10);
  });

  it("leaves to the stream what the stream must say (a messages member that is no array), and reads an absent one as empty", async () => {
    const noArray = join(dir, "bad.traj.json");
    writeFileSync(noArray, '{"info": {}, "messages": 5, "trajectory_format": "mini-swe-agent-1"}');
    expect(wholeSessionEvents(noArray, "mini-swe-agent")).toBeUndefined();
    const absent = join(dir, "absent.traj.json");
    writeFileSync(absent, '{"info": {}, "trajectory_format": "mini-swe-agent-1"}');
    const now = wholeSessionEvents(absent, "mini-swe-agent");
    expect(now === undefined ? undefined : { stats: now.stats, events: [...now.events] }).toEqual(await streamed(absent, undefined, true).then(({ stats, events }) => ({ stats, events })));
    expect(wholeSessionEvents("-", "mini-swe-agent")).toBeUndefined();
  });
});

describe("a `loops` run loads only what it uses", () => {
  // The static imports reachable from the `loops` command and its worker thread, read from the
  // sources: the statistics packages (seedrandom, simple-statistics) are for bootstrap intervals
  // `loops` never prints, and loading them cost each start and each worker about 10-20 ms (issue 35,
  // ninth pass: wilson.ts and nearestRank.ts hold what `loops` reads, without them).
  const packagesReached = (roots: readonly string[]): Map<string, string> => {
    const seen = new Set<string>();
    const packages = new Map<string, string>();
    const walk = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      const source = readFileSync(file, "utf8");
      for (const m of source.matchAll(/^\s*(?:import|export)\s(?!type\b)[^;]*?\sfrom\s+"([^"]+)"|^\s*import\s+"([^"]+)"/gm)) {
        const spec = (m[1] ?? m[2]) as string;
        if (spec.startsWith(".")) walk(resolve(dirname(file), spec).replace(/\.js$/, ".ts"));
        else if (!spec.startsWith("node:") && !packages.has(spec)) packages.set(spec, file);
      }
    };
    for (const root of roots) walk(resolve(root));
    return packages;
  };

  it("reaches no statistics package from the command or its worker", () => {
    const reached = packagesReached(["src/cli/loopsOutput.ts", "src/commands/loopsWorker.ts"]);
    expect([...reached.keys()].filter((p) => p === "seedrandom" || p === "simple-statistics")).toEqual([]);
    // The walk itself finds packages where there are some: interval.ts imports both.
    expect([...packagesReached(["src/stats/interval.ts"]).keys()].sort()).toEqual(["seedrandom", "simple-statistics"]);
  });
});

describe("a folder walked for its files (filesUnder)", () => {
  const dir = tempDir();
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** The plain walk: every folder's real path asked of the system (what filesUnder did before it worked them out from the parent's). */
  const plainFilesUnder = (paths: readonly string[], accept: (path: string, name: string) => boolean): string[] => {
    const files: string[] = [];
    const walked = new Set<string>();
    const walk = (d: string): void => {
      const real = realpathSync.native(d);
      if (walked.has(real)) return;
      walked.add(real);
      for (const dirent of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
        if (dirent.name === "node_modules" || dirent.name.startsWith(".")) continue;
        const path = join(d, dirent.name);
        let isDirectory = dirent.isDirectory();
        if (!isDirectory && !dirent.isFile()) {
          try {
            isDirectory = statSync(path).isDirectory();
          } catch {
            isDirectory = false;
          }
        }
        if (isDirectory) walk(path);
        else if (accept(path, dirent.name)) files.push(path);
      }
    };
    for (const path of paths) walk(path);
    return files;
  };

  it("lists what the walk that asks every folder's real path lists, links to folders (loops, folders walked already, dangling) included", () => {
    let round = 0;
    // Entries made in order: a folder, a file, or a link to an earlier entry (or to nothing) by its place.
    const entry = fc.tuple(fc.constantFrom("dir", "file", "link", "dangling"), fc.nat(20), fc.nat(20), fc.constantFrom("a", "b", "c.json", ".hid", "node_modules"));
    check("filesUnder", fc.array(entry, { minLength: 1, maxLength: 14 }), (specs) => {
      const root = join(dir, `t${round++}`);
      mkdirSync(root);
      const dirs = [root];
      const made = [root];
      for (const [kind, parentAt, targetAt, name] of specs) {
        const path = join(dirs[parentAt % dirs.length] as string, `${name}${made.length}`);
        if (kind === "dir") {
          mkdirSync(path);
          dirs.push(path);
        } else if (kind === "file") writeFileSync(path, "{}");
        else symlinkSync(kind === "dangling" ? join(root, "missing") : (made[targetAt % made.length] as string), path);
        made.push(path);
      }
      const accept = (_: string, n: string) => !n.startsWith("b");
      // Named through a link too: the root's real path is asked, as before.
      const viaLink = `${root}-link`;
      symlinkSync(root, viaLink);
      expect(filesUnder([root], accept)).toEqual(plainFilesUnder([root], accept));
      expect(filesUnder([viaLink], accept)).toEqual(plainFilesUnder([viaLink], accept));
      expect(filesUnder([root, viaLink], accept)).toEqual(plainFilesUnder([root, viaLink], accept));
    }, 100);
  });
});
