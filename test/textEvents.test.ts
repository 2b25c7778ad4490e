// Model text as trace events (issue 29): the reference gives a trace with message and thought
// events interleaved exactly the verdicts it gives without them; the boundary checks them; the
// importers emit them deterministically; each content rule fires at its source's thresholds.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { join } from "node:path";
import { configFrom } from "../models/configResolution.js";
import type { ToolEvent } from "../models/events.js";
import { traceArbitrary } from "../src/arbitraries/traceArbitrary.js";
import { checkEvent } from "../src/io/eventSchema.js";
import { openSession } from "../src/import/session.js";
import { REFERENCE_TARGET } from "../src/targets/reference.js";
import { runTarget } from "../src/targets/target.js";
import { GEMINI_CLI_TARGET } from "../src/targets/peers/geminiCli.js";
import { CONTENT_IDLE, CONTENT_LOOP_THRESHOLD, contentStep, type ContentState } from "../src/targets/peers/geminiContent.js";
import { QWEN_THOUGHT_REPEATS, thoughtSignature, thoughtStep } from "../src/targets/peers/qwenThoughts.js";
import { CHANT } from "../src/agreement/probeSet.js";

const SEED = Number(process.env.LOOPSIM_SEED ?? 20261203);
const text = fc.record({ type: fc.constantFrom("message" as const, "thought" as const), runId: fc.constantFrom("r1", "r2", undefined), text: fc.string({ maxLength: 40 }), chunk: fc.boolean() });

describe("the reference passes model text over", () => {
  it("a trace with text events interleaved gives the same outputs as without them (indices mapped back)", () => {
    fc.assert(
      fc.property(traceArbitrary(), fc.array(fc.tuple(fc.nat(), text), { maxLength: 30 }), fc.boolean(), (events, inserts, enabled) => {
        const config = configFrom({ enabled });
        const withText: ToolEvent[] = [...events];
        const origin: number[] = events.map((_, i) => i);
        for (const [at, t] of [...inserts].sort((a, b) => b[0] - a[0])) {
          const place = at % (withText.length + 1);
          withText.splice(place, 0, t.runId === undefined ? { type: t.type, text: t.text, chunk: t.chunk } : { type: t.type, runId: t.runId, text: t.text, chunk: t.chunk });
          origin.splice(place, 0, -1);
        }
        const plain = runTarget(REFERENCE_TARGET, config, events);
        const mixed = runTarget(REFERENCE_TARGET, config, withText).map((o) => ({ ...o, index: origin[o.index] as number }));
        expect(mixed).toEqual(plain);
      }),
      { seed: SEED, numRuns: 80 },
    );
  });
});

describe("the trace boundary", () => {
  it("takes message and thought events with text, chunk and step, and names what is wrong", () => {
    expect(checkEvent({ type: "message", runId: "r1", text: "hi", chunk: true, step: "s1" }, "e").ok).toBe(true);
    expect(checkEvent({ type: "thought", text: "" }, "e").ok).toBe(true);
    expect(checkEvent({ type: "message" }, "e")).toEqual({ ok: false, problems: ['e.text: must be a string (the model\'s text; got nothing)'] });
    expect(checkEvent({ type: "thought", text: "x", chunk: "yes" }, "e")).toEqual({ ok: false, problems: ['e.chunk: must be true or false (got "yes")'] });
    expect(checkEvent({ type: "message", text: "x", tool: "read" }, "e")).toEqual({ ok: false, problems: ["e.tool: unknown key for a message event (allowed: type, runId, text, chunk, step, meta)"] });
  });
});

describe("importers emit model text deterministically", () => {
  const FIXTURES = join(import.meta.dirname, "fixtures");
  const read = async (file: string) => {
    const opened = await openSession(file);
    const events: ToolEvent[] = [];
    for await (const e of opened.events) events.push(e.event);
    return { events, stats: opened.stats };
  };
  it("SWE-agent's thoughts, the rejected step's included; twice the same", async () => {
    const file = join(FIXTURES, "swe-agent", "discussion-loop.traj");
    const a = await read(file);
    expect(a.stats).toMatchObject({ messages: 0, thoughts: 63 });
    expect(a.events[0]).toEqual({ type: "thought", runId: "discussion-loop", text: "Let me open the file named in the issue." });
    expect(JSON.stringify((await read(file)).events)).toBe(JSON.stringify(a.events));
  });
  it("a reader that holds sessions leaves text out, and counts it all the same", async () => {
    const opened = await openSession(join(FIXTURES, "swe-agent", "discussion-loop.traj"), "auto", { text: false });
    let texts = 0;
    for await (const { event } of opened.events) if (event.type === "message" || event.type === "thought") texts++;
    expect(texts).toBe(0);
    expect(opened.stats.thoughts).toBe(63);
  });
});

describe("Gemini CLI's content-loop rule, at its source's thresholds (50-character windows, 10 sightings)", () => {
  const feed = (pieces: readonly string[]): { loops: number[]; state: ContentState } => {
    let state = CONTENT_IDLE;
    const loops: number[] = [];
    pieces.forEach((p, i) => {
      const r = contentStep(state, p);
      state = r.state;
      if (r.loop) loops.push(i + 1);
    });
    return { loops, state };
  };
  const sentence = CHANT.slice(0, 50);
  it("a 50-character sentence streamed 10 times is a loop at the 10th, not before", () => {
    expect(CONTENT_LOOP_THRESHOLD).toBe(10);
    expect(feed(Array(9).fill(sentence)).loops).toEqual([]);
    expect(feed(Array(10).fill(sentence)).loops).toEqual([10]);
  });
  it("one whole message with the sentence 10 times is a loop; 9 times is not", () => {
    expect(feed([sentence.repeat(10)]).loops).toEqual([1]);
    expect(feed([sentence.repeat(9)]).loops).toEqual([]);
  });
  it("text in a code block is not read; a list of distinct items sharing a prefix is not a loop", () => {
    expect(feed(["```\n", ...Array(12).fill(sentence), "```\n"]).loops).toEqual([]);
    expect(feed(Array.from({ length: 12 }, (_, i) => `${sentence}${String(i).padStart(40, "x")} `)).loops).toEqual([]);
  });
  it("the model target: cut at the 10th, stopped at the next piece; a tool call between resets the text", () => {
    const run = (events: ToolEvent[]) => runTarget(GEMINI_CLI_TARGET, configFrom({}), events).map((o) => `${o.index}:${o.kind}${o.kind === "text" ? `:${o.verdict}` : ""}`);
    const chant = (n: number, step: string): ToolEvent[] => Array.from({ length: n }, () => ({ type: "message", runId: "r", text: sentence, chunk: true, step }));
    expect(run([...chant(10, "s1"), ...chant(1, "s2")])).toEqual(["9:text:critical", "10:abort"]);
    expect(run([...chant(6, "s1"), { type: "call", runId: "r", tool: "read_file", params: { p: 1 }, step: "s1" }, ...chant(6, "s2")])).toEqual(["6:call"]);
    expect(runTarget(GEMINI_CLI_TARGET, configFrom({}), Array.from({ length: 20 }, (): ToolEvent => ({ type: "thought", runId: "r", text: sentence })))).toEqual([]);
  });
});

describe("Qwen Code's repeated-thoughts rule (THOUGHT_REPEAT_THRESHOLD = 3, since the last tool call)", () => {
  it("the 3rd identical thought in a row is a loop; a different one between is not", () => {
    expect(QWEN_THOUGHT_REPEATS).toBe(3);
    const same = "**Checking** I should read a.txt again.";
    let h = thoughtStep([], same);
    h = thoughtStep(h.history, same);
    expect(h.loop).toBe(false);
    expect(thoughtStep(h.history, same).loop).toBe(true);
    expect(thoughtStep(thoughtStep(h.history, "something else").history, same).loop).toBe(false);
  });
  it("reads a **subject** and the first 200 characters of the description, case and padding aside", () => {
    expect(thoughtSignature("  **Plan**  Read THE file ")).toBe("plan|read the file");
    expect(thoughtSignature(`x${"a".repeat(300)}`)).toBe(thoughtSignature(`x${"a".repeat(250)}`));
  });
});
