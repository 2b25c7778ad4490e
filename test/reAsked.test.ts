// The re-asked rule (src/realLoops/reAsked.ts, round 6) on tiny sessions: each case the rule flags
// and, beside it, the near neighbour it must not flag (the precision readings' false alarms: one
// re-query then a new one, a test re-run after an edit, narrower views, different searches finding
// nothing, a write between that may have changed the answer). Written for these tests; no dataset
// is copied.
import { describe, expect, it } from "vitest";
import type { ToolEvent } from "../models/events.js";
import { factCallOf } from "../src/import/facts.js";
import { DEFAULT_MINE_PARAMETERS, kindOfRule, minimumLength, mineStretches } from "../src/realLoops/mine.js";
import { asksAgain } from "../src/realLoops/reAsked.js";
import { session } from "./fixtures/noNewFactSessions.js";

/** Every stretch, as `RULE FIRST-LAST`: the new rule must leave the others' stretches as they were. */
const mined = (events: ToolEvent[]) => mineStretches(events).map((s) => `${s.rule} ${s.firstCall}-${s.lastCall}`);

type Call = [string, string, number?];
const test: Call = ["bin/test sympy/core/tests/test_basic.py", "= tests finished: 99 passed, 9 exceptions, in 2.71 seconds ="];
const script: Call = ["python3 check_eq_return.py", "a == b: False Type: <class 'bool'>"];
const grep: Call = ['grep -n "def __ne__" sympy/core/numbers.py', "", 1];
const view: Call = ["sed -n '340,350p' fields.py", "for index, (name, field) in enumerate(model_state.fields):\n    remote_field = field.remote_field\n    if remote_field:\n        to_fields = getattr(field, 'to_fields', None)"];
/** Different questions, each answered with something new: work that spaces the first askings from the re-asks. */
const reads = (n: number, from = 0): Call[] => Array.from({ length: n }, (_, i) => [`grep -n "name_${from + i}" lib/mod_${from + i}.py`, `${i + 1}: def name_${from + i}(): pass  # part ${"abcdefghijklmnopqrstuvwxyz"[(from + i) % 26] as string}`]);
const edit: Call = ["sed -i 's/return False/return NotImplemented/' sympy/core/numbers.py", ""];

/** One named tool's call, answered with JSON text (a tau-bench chat's tool message). */
const named = (i: number, tool: string, params: Record<string, unknown>, text: string): ToolEvent[] => [
  { type: "call", runId: "r", callId: `t${i}`, tool, params },
  { type: "outcome", runId: "r", callId: `t${i}`, tool, params, result: { content: [{ type: "text", text }], details: { status: "completed" } } },
];
const legs = [
  ["MSP", "EWR", "2024-05-25", "HAT141"],
  ["MSP", "EWR", "2024-05-21", "HAT141"],
  ["JFK", "ATL", "2024-05-24", "HAT057"],
  ["ORD", "PHL", "2024-05-10", "HAT271"],
] as const;
const search = (i: number, leg: number): ToolEvent[] => {
  const [origin, destination, date, flight] = legs[leg] as (typeof legs)[number];
  return named(i, "search_direct_flight", { date, destination, origin }, `[{"flight_number": "${flight}", "origin": "${origin}", "destination": "${destination}", "available_seats": {"business": ${leg + 4}}}]`);
};
/** A chat: the four searches, other look-ups, a write, then the four searches again as they were. */
const chat = (write: ToolEvent[]): ToolEvent[] => {
  const events = [0, 1, 2, 3].flatMap((leg) => search(leg, leg));
  for (let i = 4; i < 12; i++) events.push(...named(i, "get_reservation_details", { reservation_id: `RES${i}X` }, `{"reservation_id": "RES${i}X", "origin": "SFO", "cabin": "economy"}`));
  events.push(...write.map((e) => ({ ...e, callId: "w" })));
  for (let leg = 0; leg < 4; leg++) events.push(...search(13 + leg, leg));
  return events;
};
const cancel = named(12, "cancel_reservation", { reservation_id: "S61CZX" }, '{"reservation_id": "S61CZX", "status": "cancelled"}');

describe("re-asked: what it flags", () => {
  it("three questions asked again long after (past the other rules' windows), nothing written since, each answered as before", () => {
    const events = session([test, ...reads(2), script, ...reads(12, 2), grep, ['cat sympy/core/numbers.py | grep "def __ne__"', "", 1], test, script]);
    // #17 asks #16 again (the same search in the same file, empty again), #18 asks #0, #19 asks #3; #16 joins as the question #17 repeats.
    expect(mined(events)).toEqual(["re-asked 16-19"]);
    expect(mineStretches(events)[0]?.kind).toBe("changing-args");
  });

  it("a long test output elided where a clock moves it is the same answer by its last lines", () => {
    const long = (t: string): Call => ["bin/test sympy", `<output_head>\nstarted ${t}\ntest_basic ok\ntest_expr ok\n</output_head>\n<elided_chars>\n= tests finished: 99 passed, 9 exceptions =\nDO *NOT* COMMIT!`];
    const events = session([long("a"), script, view, ...reads(12), long("b"), script, view]);
    expect(mined(events)).toEqual(["re-asked 15-17"]);
  });

  it("a re-read with a lone backup copy between, and one other call between re-asks", () => {
    const events = session([view, test, ...reads(12), view, ["cp fields.py fields.py.backup", ""], test, ["ls", "fields.py fields.py.backup"], view]);
    expect(mined(events)).toEqual(["re-asked 14-18"]);
  });

  it("an edit between that never took effect (sed could not parse its expression) parts nothing", () => {
    const events = session([view, test, script, ...reads(12), view, ["sed -i 's/remote_field/rf' fields.py", "sed: -e expression #1, char 20: unterminated `s' command", 1], test, script]);
    expect(mined(events)).toEqual(["re-asked 15-18"]);
  });

  it("a chat's searches re-sent with the same args after a cancellation of a reservation they do not name", () => {
    expect(mined(chat(cancel))).toEqual(["re-asked 13-16"]);
  });
});

describe("re-asked: what it does not flag", () => {
  it("two re-asks only (one re-query of two legs after the customer changed the criteria)", () => {
    const events = [0, 1].flatMap((leg) => search(leg, leg));
    for (let i = 2; i < 12; i++) events.push(...named(i, "get_user_details", { user_id: `u${i}` }, `{"user_id": "u${i}", "membership": "gold"}`));
    events.push(...search(12, 0), ...search(13, 1));
    expect(mined(events)).toEqual([]);
  });

  it("the same test and script re-run after an edit that took effect (a new question, even when answered the same)", () => {
    expect(mined(session([test, script, grep, ...reads(12), edit, test, grep, script]))).toEqual([]);
  });

  it("a chat write that names what the search names (a booking on that flight and date) parts the searches from their first askings", () => {
    const book = named(12, "book_reservation", { origin: "MSP", destination: "EWR", flights: [{ flight_number: "HAT141", date: "2024-05-25" }] }, '{"reservation_id": "NEW123"}');
    expect(mined(chat(book))).toEqual([]);
  });

  it("narrower views of what was read, and different searches that each find nothing", () => {
    const zoom = (a: number, b: number): Call => [`sed -n '${a},${b}p' fields.py`, (view[1].split("\n").slice(a - 340, b - 339) as string[]).join("\n")];
    const nothing = (w: string): Call => [`grep -n "${w}" fields.py`, "", 1];
    expect(mined(session([view, nothing("to_field"), ...reads(12), zoom(340, 342), nothing("to_fields ="), zoom(341, 343), nothing("field_name")]))).toEqual([]);
  });

  it("re-asks two calls apart are not close together", () => {
    expect(mined(session([test, script, view, ...reads(12), test, ...reads(2, 20), script, ...reads(2, 30), view]))).toEqual([]);
  });

  it("a first asking more than 50 calls back is too far", () => {
    expect(mined(session([test, script, view, ...reads(50), test, script, view]))).toEqual([]);
  });

  it("a wait that paid off: the very next call is the last one again with a new answer", () => {
    const status = (s: string): Call => ["cat build.status", `build ${s} (stage three of the pipeline)`];
    const events = session([test, script, status("running"), ...reads(12), test, script, status("running"), status("finished")]);
    expect(mined(events)).toEqual([]);
  });

  it("a new file written asks nothing, even when it names a file read before", () => {
    const create: Call = ["cat > check_eq_return.py <<'EOF'\nprint(1)\nEOF", ""];
    expect(asksAgain(factCallOf({ type: "call", runId: "r", callId: "a", tool: "bash", params: { command: "ls" } }, undefined), factCallOf({ type: "call", runId: "r", callId: "b", tool: "bash", params: { command: "ls" } }, undefined))).toBe(false);
    expect(mined(session([create, test, script, ...reads(12), create, test, script]))).toEqual([]);
  });

  it("leaves a stretch an earlier rule finds as it was (the same call three times in a row is a repeat)", () => {
    expect(mined(session([view, ...reads(12), view, view, view]))).toEqual(["repeat 13-15"]);
  });
});

describe("re-asked: its place among the rules", () => {
  it("is a changing-args rule of 3 calls by default, and its knob is read", () => {
    expect(kindOfRule("re-asked")).toBe("changing-args");
    expect(minimumLength("re-asked", DEFAULT_MINE_PARAMETERS)).toBe(3);
    const events = session([test, script, view, grep, ...reads(12), test, script, view, grep]);
    expect(mined(events)).toEqual(["re-asked 16-19"]);
    expect(mineStretches(events, { ...DEFAULT_MINE_PARAMETERS, reAsked: 5 }).map((s) => s.rule)).toEqual([]);
    const { reAsked: _, ...older } = DEFAULT_MINE_PARAMETERS;
    expect(mineStretches(events, older).map((s) => s.rule)).toEqual(["re-asked"]);
  });
});
