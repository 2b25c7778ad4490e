// The idle-recheck rule (src/realLoops/idleRecheck.ts, round 8) on tiny sessions: one answer to a
// look heard three times with only idle calls between (an attempt that never took effect, an empty
// answer, a "not found", a zoom), and beside each case the near neighbour it must not flag (a write
// that landed between, a new read between, zooms alone, two hearings, too many calls between, a
// failure heard again). Written for these tests; no dataset is copied.
import { describe, expect, it } from "vitest";
import type { ToolEvent } from "../models/events.js";
import { factCallOf } from "../src/import/facts.js";
import { elides, idleRecheckRuns } from "../src/realLoops/idleRecheck.js";
import { DEFAULT_MINE_PARAMETERS, kindOfRule, minedCalls, minimumLength, mineStretches, recheckSources } from "../src/realLoops/mine.js";
import { staleCalls } from "../src/realLoops/noNewFact.js";
import { session } from "./fixtures/noNewFactSessions.js";

/** Every stretch, as `RULE FIRST-LAST`: the new rule must leave the others' stretches as they were. */
const mined = (events: ToolEvent[]) => mineStretches(events).map((s) => `${s.rule} ${s.firstCall}-${s.lastCall}`);

/** The rule's own runs, straight (no other rule takes any call first). */
const runs = (events: ToolEvent[]) => {
  const calls = minedCalls(events);
  return idleRecheckRuns(calls, [], staleCalls(calls, recheckSources(calls).wrote), 3);
};

type Call = [string, string, number?];
const region = "   688\t        if field_name != 'pk':\n   689\t            field = self.model._meta.get_field(field_name)\n   690\t            is_unique = field.unique\n   691\t            if not is_unique:\n   692\t            raise ValueError(field_name)\n   693\t        if id_list is not None:";
const view: Call = ["nl -ba query.py | sed -n '688,693p'", region];
/** An awk edit whose own program awk could not parse: none of it ran. */
const awkFailed = (n: number): Call => [`awk 'NR==692{$0="${" ".repeat(n + 12)}raise ValueError(\\"x)"} {print}' query.py > /tmp/q.py && mv /tmp/q.py query.py`, 'awk: line 1: runaway string constant " raise ...', 2];
/** An edit that landed (sed -i said nothing, and nothing says it failed). */
const landed: Call = ["sed -i '692s/^/    /' query.py", ""];
const grepEmpty: Call = ["grep -n 'non_data' domains.py || true", ""];
const diffEmpty: Call = ["git --no-pager diff -- domains.py || true", ""];
const perlFailed: Call = ["perl -0777 -i -pe 's/(matches)/$1 non_data/' domains.py", "Bareword found where operator expected at -e line 1, near \"data\"\nsyntax error at -e line 1, near \"data\"\nExecution of -e aborted due to compilation errors.", 255];

/** A code viewer that hides method bodies: the numbers skip (61, then 64). */
const elided = "    60\t\n    61\tclass Choices(enum.Enum, metaclass=ChoicesMeta):\n    64\t\n    65\t\n    66\tclass IntegerChoices(int, Choices):\n    69\t\n    70\t\n    71\tclass TextChoices(str, Choices):\n    75\t        return name";
const head = ["import enum", "", "from django.utils.functional import Promise", "", "__all__ = ['Choices', 'IntegerChoices', 'TextChoices']", "", "", "class ChoicesMeta(enum.EnumMeta):", "    def __new__(metacls, classname, bases, classdict):", "        labels = []", "        for key in classdict._member_names:", "            value = classdict[key]"];
const wholeView: Call = ["show enums.py 1-120", `${head.map((l, i) => `${String(i + 1).padStart(6)}\t${l}`).join("\n")}\n${elided}`];
const zoomElided: Call = ["show enums.py 60-90", elided];
const notFound: Call = ["print_definition enums enums.py", "enums.py enums: not found"];

describe("idle-recheck: what it flags", () => {
  it("the same view three times, a failed awk edit between the first two: from the first view to the last", () => {
    expect(mined(session([view, awkFailed(0), view, view]))).toEqual(["idle-recheck 0-3"]);
    expect(mineStretches(session([view, awkFailed(0), view, view]))[0]?.repeats).toBe("the same answer to a look, heard again with only attempts that never took effect and idle looks between");
    expect(kindOfRule("idle-recheck")).toBe("changing-args");
    expect(minimumLength("idle-recheck", DEFAULT_MINE_PARAMETERS)).toBe(3);
  });

  it("the same empty grep three times, with zooms, failed perl and awk edits and an empty diff between", () => {
    const zoom: Call = ["nl -ba domains.py | sed -n '1180,1183p'", "  1180\t\n  1181\t    def resolve_xref(self, env, fromdocname, builder,\n  1182\t                     type, target, node, contnode):\n  1183\t        modname = node.get('py:module')"];
    const wide: Call = ["nl -ba domains.py | sed -n '1170,1190p'", `  1170\t        newname = None\n${zoom[1]}\n  1184\t        clsname = node.get('py:class')`];
    expect(mined(session([wide, grepEmpty, zoom, perlFailed, diffEmpty, grepEmpty, awkFailed(1), grepEmpty]))).toEqual(["idle-recheck 1-7"]);
  });

  it("an elided view, two 'not found' answers, the same elided view, then a zoom that still elides", () => {
    expect(mined(session([wholeView, notFound, notFound, wholeView, zoomElided]))).toEqual(["idle-recheck 0-4"]);
  });
});

describe("idle-recheck: what it does not flag", () => {
  it("an edit that landed between: the view after it is a check after work", () => {
    expect(mined(session([view, landed, view, awkFailed(0), view]))).toEqual([]);
  });

  it("a read of something new between (work toward the next attempt)", () => {
    const other: Call = ["nl -ba query.py | sed -n '640,646p'", "   640\t    def first(self):\n   641\t        for obj in self[:1]:\n   642\t            return obj\n   643\t\n   644\t    def last(self):\n   645\t        pass\n   646\t"];
    expect(mined(session([view, awkFailed(0), other, view, awkFailed(1), view])).filter((s) => s.startsWith("idle-recheck"))).toEqual([]);
  });

  it("zooms alone into an elided view, however it elides: a closer look", () => {
    const lines = elided.split("\n");
    const zoomA: Call = ["show enums.py 60-66", lines.slice(0, 5).join("\n")];
    const zoomB: Call = ["show enums.py 66-75", lines.slice(4).join("\n")];
    expect(runs(session([wholeView, zoomA, zoomB]))).toEqual([]);
    expect(runs(session([wholeView, zoomA, wholeView]))).toEqual([[0, 2]]);
  });

  it("two hearings only", () => {
    expect(mined(session([view, awkFailed(0), view]))).toEqual([]);
  });

  it("more than 4 calls between two hearings", () => {
    expect(mined(session([view, awkFailed(0), grepEmpty, perlFailed, diffEmpty, awkFailed(1), view, view])).filter((s) => s.startsWith("idle-recheck"))).toEqual([]);
  });

  it("a failure heard again is no look's answer (the failure rules read those)", () => {
    const failing: Call = ["python -c 'import query'", 'Traceback (most recent call last):\n  File "<string>", line 1, in <module>\nNameError: name \'x\' is not defined', 1];
    expect(runs(session([failing, awkFailed(0), failing, awkFailed(1), failing]))).toEqual([]);
    expect(runs(session([view, awkFailed(0), view, awkFailed(1), view]))).toEqual([[0, 4]]);
  });
});

describe("idle-recheck: what elides", () => {
  const answered = (text: string) => factCallOf({ type: "call", runId: "r", callId: "c", tool: "bash", params: { command: "x" } }, { type: "outcome", runId: "r", callId: "c", tool: "bash", params: {}, result: { content: [{ type: "text", text }], details: { status: "completed", exitCode: 0 } } });
  it("a listing whose numbers skip elides; one that runs on, or a grep's scattered hits, does not", () => {
    expect(elides(answered(elided))).toBe(true);
    expect(elides(answered(region))).toBe(false);
    expect(elides(answered("12: def a():\n40: def b():\n7: def c():"))).toBe(false);
  });
});

describe("idle-recheck: the header's edges", () => {
  const answered = (text: string) => factCallOf({ type: "call", runId: "r", callId: "c", tool: "bash", params: { command: "x" } }, { type: "outcome", runId: "r", callId: "c", tool: "bash", params: {}, result: { content: [{ type: "text", text }], details: { status: "completed", exitCode: 0 } } });
  /** The rule's runs when other rules took some calls first. */
  const runsTaken = (events: ToolEvent[], taken: boolean[]) => {
    const calls = minedCalls(events);
    return idleRecheckRuns(calls, taken, staleCalls(calls, recheckSources(calls).wrote), 3);
  };

  it("elides only a listing: three or more numbered lines, rising, with a skip", () => {
    // Numbers that fall or repeat are no one listing (two files' listings, a grep's hits).
    expect(elides(answered("    10\ta\n    20\tb\n     5\tc"))).toBe(false);
    expect(elides(answered("    10\ta\n    10\tb\n    12\tc"))).toBe(false);
    // Two numbered lines are too few to call a listing; three are enough.
    expect(elides(answered("    10\ta\n    20\tb"))).toBe(false);
    expect(elides(answered("    10\ta\n    11\tb\n    20\tc"))).toBe(true);
    // A number after a file name is a grep's hit, not a listing's line number.
    expect(elides(answered("x.py   12 def a\ny.py   40 def b\nz.py   77 def c"))).toBe(false);
    // A listing's empty line, printed as its number alone, is a numbered line.
    expect(elides(answered("    60\tclass A:\n    62\n    63\tclass B:"))).toBe(true);
  });

  it("a failure heard again is not a look's answer, even one with no failure line (awk's exit 2): no-new-fact reads it", () => {
    expect(runs(session([awkFailed(0), awkFailed(1), awkFailed(2)]))).toEqual([]);
    expect(mined(session([awkFailed(0), awkFailed(1), awkFailed(2)]))).toEqual(["no-new-fact 0-2"]);
  });

  it("a long answer that mentions 'not found' read something: no idle call", () => {
    const long: Call = ["grep -rn 'not found' docs/", Array.from({ length: 6 }, (_, i) => `docs/errors.rst:${i + 10}: the page is not found when the slug ${i} is stale`).join("\n")];
    expect(runs(session([view, notFound, view, view]))).toEqual([[0, 3]]);
    expect(runs(session([view, long, view, view]))).toEqual([]);
  });

  it("a 'not found' is short at 200 characters, and read something at 201", () => {
    // The cutoff between a non-result and an answer with content (NOT_FOUND_MAX_CHARS): a code
    // viewer's one-line "not found" with a long path still names nothing found.
    const sized = (n: number): Call => ["print_definition enums enums.py", `${"p".repeat(n - " enums: not found".length)} enums: not found`];
    expect(sized(200)[1]).toHaveLength(200);
    expect(runs(session([view, sized(200), view, view]))).toEqual([[0, 3]]);
    expect(runs(session([view, sized(201), view, view]))).toEqual([]);
  });

  it("a look between that heard its own answer again is idle", () => {
    const other: Call = ["nl -ba query.py | sed -n '640,642p'", "   640\t    def first(self):\n   641\t        for obj in self[:1]:\n   642\t            return obj"];
    expect(runs(session([other, view, other, view, awkFailed(0), view]))).toEqual([[1, 5]]);
  });

  it("exactly 4 idle calls between two hearings still link them", () => {
    expect(runs(session([view, awkFailed(0), grepEmpty, perlFailed, awkFailed(1), view, view]))).toEqual([[0, 6]]);
  });

  it("calls another rule took are not this rule's: neither a hearing nor a call between", () => {
    const s = session([view, awkFailed(0), view, awkFailed(1), view]);
    expect(runsTaken(s, [])).toEqual([[0, 4]]);
    expect(runsTaken(s, [false, true, false, false, false])).toEqual([]);
    expect(runsTaken(s, [false, false, true, false, false])).toEqual([]);
    expect(runsTaken(s, [false, false, false, false, true])).toEqual([]);
    // The first hearing taken: the run is the three hearings after it.
    expect(runsTaken(session([view, awkFailed(0), view, perlFailed, view, grepEmpty, view]), [true])).toEqual([[2, 6]]);
  });

  it("a call the record holds no answer for did not show it did nothing: no idle call", () => {
    const s = session([view, ["grep -n 'raise' query.py", ""], view, awkFailed(1), view]);
    expect(runs(s)).toEqual([[0, 4]]);
    const unanswered = s.filter((e) => !(e.type === "outcome" && e.callId === "c1"));
    expect(runs(unanswered)).toEqual([]);
  });

  it("two answers heard three times, taking turns, are one stretch; apart, two", () => {
    // An empty grep and an empty diff, each heard three times: each one's hearings sit between the other's.
    expect(runs(session([grepEmpty, diffEmpty, diffEmpty, grepEmpty, diffEmpty, grepEmpty]))).toEqual([[0, 5]]);
    const other: Call = ["nl -ba query.py | sed -n '640,642p'", "   640\t    def first(self):\n   641\t        for obj in self[:1]:\n   642\t            return obj"];
    expect(runs(session([view, awkFailed(0), view, view, other, awkFailed(1), other, other]))).toEqual([[0, 3], [4, 7]]);
  });

  it("a run whose only hearings after its first are zooms is a closer look, even after an earlier run broke off", () => {
    const lines = elided.split("\n");
    const zoomA: Call = ["show enums.py 60-66", lines.slice(0, 5).join("\n")];
    const zoomB: Call = ["show enums.py 66-75", lines.slice(4).join("\n")];
    expect(runs(session([wholeView, awkFailed(0), perlFailed, grepEmpty, diffEmpty, notFound, wholeView, zoomA, zoomB]))).toEqual([]);
  });

  it("a zoom that shows every line it asked for is no hearing", () => {
    const zoomWhole: Call = ["show enums.py 1-4", head.slice(0, 4).map((l, i) => `${String(i + 1).padStart(6)}\t${l}`).join("\n")];
    expect(runs(session([wholeView, notFound, wholeView, zoomElided]))).toEqual([[0, 3]]);
    expect(runs(session([wholeView, notFound, wholeView, zoomWhole]))).toEqual([]);
  });

  it("hearings after a break are a run of their own, however far back the answer was first heard", () => {
    // Heard at 1, then at 7 after five calls (a break), then at 9 and 12: the run is 7 to 12.
    const other: Call = ["nl -ba query.py | sed -n '640,642p'", "   640\t    def first(self):\n   641\t        for obj in self[:1]:\n   642\t            return obj"];
    expect(runs(session([other, view, awkFailed(0), perlFailed, grepEmpty, diffEmpty, notFound, view, awkFailed(1), view, awkFailed(2), awkFailed(3), view]))).toEqual([[7, 12]]);
  });

  it("a zoom is heard again only as a zoom into the elided view it narrows, not into whatever came just before", () => {
    // An idle call just before the zoom: the zoom still narrows the elided view.
    expect(runs(session([wholeView, notFound, wholeView, awkFailed(0), zoomElided]))).toEqual([[0, 4]]);
    // A whole listing of lines 55-80 that holds the zoom's lines (no skip), heard again just before the zoom: the zoom narrows the elided view, not it.
    const shown = new Map(elided.split("\n").map((l) => [Number(l.trim().split("\t")[0]), l]));
    const contiguous: Call = ["show enums.py 55-80", Array.from({ length: 26 }, (_, i) => shown.get(i + 55) ?? `${String(i + 55).padStart(6)}\t        pass`).join("\n")];
    expect(runs(session([contiguous, wholeView, notFound, wholeView, contiguous, zoomElided]))).toEqual([[1, 5]]);
    // Another file's elided view heard again just before the zoom: the zoom narrows this file's view.
    const otherElided: Call = ["show models.py 1-40", "     1\timport enum\n     4\t\n     5\tclass Model:\n     9\t        pass"];
    expect(runs(session([otherElided, wholeView, notFound, wholeView, otherElided, zoomElided]))).toEqual([[1, 5]]);
  });

  it("a write that also shows an elided listing is no zoom: a check after work", () => {
    const writeAndShow: Call = ["sed -i 's/Promise/Lazy/' enums.py && show enums.py 60-90", elided];
    expect(runs(session([wholeView, notFound, wholeView, writeAndShow]))).toEqual([]);
  });

  it("a zoom's answer heard again starts its own run where the view's run ends: one stretch", () => {
    expect(runs(session([wholeView, awkFailed(0), wholeView, zoomElided, perlFailed, zoomElided, grepEmpty, zoomElided]))).toEqual([[0, 7]]);
  });
});
