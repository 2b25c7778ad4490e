// SPEC H1-H3: call identity and the progress value of an outcome.
import { describe, expect, it } from "vitest";
import { argsHash as callIdentity } from "../../models/callHash.js";
import { DIGEST_NAMES, digestNamed } from "../../models/digest.js";
import { hashOutcome } from "../../models/outcomeHash.js";
import { extractUnknownTool } from "../../models/unknownTool.js";
import { loopVetoResult } from "../../models/verdict.js";

// Every rule holds with either digest; the hex length is the digest's own.
describe.each(DIGEST_NAMES.map((name) => ({ name, hexLength: name === "sha256" ? 64 : 32 })))("H1-H3 with the $name digest", ({ name, hexLength }) => {
const digest = digestNamed(name);
const argsHash = (tool: string, params: unknown): string => callIdentity(digest, tool, params);
const out = (tool: string, params: unknown, result: unknown) => hashOutcome({ tool, params, result, hasError: false }, digest);
const err = (tool: string, error: unknown) => hashOutcome({ tool, params: {}, error, hasError: true }, digest);

describe("H1 args hash", () => {
  it("H1 key order never matters, arrays keep order", () => {
    expect(argsHash("read", { a: 1, b: { c: 2, d: 3 } })).toBe(argsHash("read", { b: { d: 3, c: 2 }, a: 1 }));
    expect(argsHash("read", [1, 2])).not.toBe(argsHash("read", [2, 1]));
  });
  it("H1 non-object params hash, prefixed by the tool", () => {
    for (const p of ["x", 3, null, undefined, true]) expect(argsHash("t", p)).toMatch(new RegExp(`^t:[0-9a-f]{${hexLength}}$`));
    expect(argsHash("t", "1")).not.toBe(argsHash("t", 1));
  });
  it("H1 cyclic params hash without throwing; equal cyclic shapes hash equal", () => {
    const a: Record<string, unknown> = { x: 1 };
    a.self = a;
    const b: Record<string, unknown> = { x: 1 };
    b.self = b;
    const c: Record<string, unknown> = { x: 2 };
    c.self = c;
    expect(argsHash("t", a)).toBe(argsHash("t", b));
    expect(argsHash("t", a)).not.toBe(argsHash("t", c));
  });
  it("H1 the digest is fixed-size for huge params", () => {
    expect(argsHash("t", { big: "x".repeat(1_000_000) })).toHaveLength("t:".length + hexLength);
  });
});

describe("H2 outcome hash", () => {
  it("H2.1 errors hash by their text; Error message, or name when empty", () => {
    expect(err("t", "boom").resultHash).toMatch(/^error:/);
    expect(err("t", new Error("boom")).resultHash).toBe(err("t", "boom").resultHash);
    const nameless = new Error("");
    nameless.name = "TimeoutError";
    expect(err("t", nameless).resultHash).toBe(err("t", "TimeoutError").resultHash);
    expect(err("t", 42).resultHash).toBe(err("t", "42").resultHash);
  });
  it("H2.2 undefined result records nothing; non-objects hash", () => {
    expect(out("t", {}, undefined).resultHash).toBeUndefined();
    expect(out("t", {}, "text").resultHash).toBeDefined();
  });
  it("H2.3 text is the content entries' text joined and trimmed", () => {
    const a = out("read", {}, { content: [{ type: "text", text: " a" }, { type: "text", text: "b " }] });
    const b = out("read", {}, { content: [{ type: "text", text: "a" }, { type: "image" }, { type: "text", text: "b" }] });
    expect(a.resultHash).toBe(b.resultHash);
  });
  it("H2.4 a loop veto has no hash; other blocked results do", () => {
    expect(out("exec", {}, loopVetoResult("CRITICAL: x")).resultHash).toBeUndefined();
    expect(out("exec", {}, { details: { status: "blocked", deniedReason: "plugin" } }).resultHash).toBeDefined();
  });
  it("H2.5 exec ignores duration, pid, session id and cwd", () => {
    const r = (extra: Record<string, unknown>) => out("exec", {}, { content: [{ type: "text", text: "ok" }], details: { status: "completed", exitCode: 0, aggregated: "ok", ...extra } });
    expect(r({ durationMs: 5, pid: 1, sessionId: "a", cwd: "/x" }).resultHash).toBe(r({ durationMs: 9, pid: 2, sessionId: "b", cwd: "/y" }).resultHash);
    expect(r({ exitCode: 1 }).resultHash).not.toBe(r({}).resultHash);
    const running = (tail: string, pid: number) => out("exec", {}, { details: { status: "running", tail, pid } });
    expect(running("x", 1).resultHash).toBe(running("x", 2).resultHash);
    expect(running("x", 1).resultHash).not.toBe(running("y", 1).resultHash);
  });
  it("H2.6 process poll and log hash only their progress fields", () => {
    const poll = (extra: Record<string, unknown>) => out("process", { action: "poll" }, { details: { status: "running", aggregated: "a", ...extra } });
    expect(poll({ retryInMs: 100 }).resultHash).toBe(poll({ retryInMs: 900 }).resultHash);
    expect(poll({ exitCode: 0 }).resultHash).not.toBe(poll({}).resultHash);
    const log = (totalLines: number) => out("process", { action: "log" }, { details: { totalLines, backoff: totalLines } });
    expect(log(3).resultHash).not.toBe(log(4).resultHash);
  });
  it("H2.7 send-like calls drop fresh ids at any depth, text ignored", () => {
    const send = (id: string, text: string) =>
      out("message", { action: "send" }, { content: [{ type: "text", text }], details: { ok: true, messageId: id, nested: { ts: id, receipt: { x: id } }, message: { id, text: "hi", senderId: "me" } } });
    expect(send("m1", "sent m1").resultHash).toBe(send("m2", "sent m2").resultHash);
    expect(out("sessions_send", {}, { details: { runId: "a", ok: 1 } }).resultHash).toBe(out("sessions_send", {}, { details: { runId: "b", ok: 1 } }).resultHash);
    expect(out("message", { action: "read" }, { details: { messageId: "a" } }).resultHash).not.toBe(out("message", { action: "read" }, { details: { messageId: "b" } }).resultHash);
  });
  it("H2.8 anything else hashes details and text", () => {
    expect(out("read", {}, { details: { a: 1 } }).resultHash).not.toBe(out("read", {}, { details: { a: 2 } }).resultHash);
  });
});

describe("H3 unknown tool name", () => {
  it.each([
    ["Unknown tool: browserx", "browserx"],
    ["unknown tool 'Web.Search'", "web.search"],
    ['Tool "my_tool" not found', "my_tool"],
    ["tool foo-bar is not available", "foo-bar"],
    ["file not found", undefined],
    ["unknown tool:", undefined],
    ["tool   spaced   not found", "spaced"],
    ["tool\t'tabbed'\t\tis not available", "tabbed"],
    ["UNKNOWN TOOL:  \"Grep\" (did you mean grep?)", "grep"],
    // Both patterns match: the name that comes first in the text wins, whichever pattern found it.
    ["tool bar not found; unknown tool: foo", "bar"],
    ["unknown tool: foo; tool bar not found", "foo"],
    ["error: tool 'zap' is not available, unknown tool zip", "zap"],
  ])("H3 %s", (text, name) => {
    expect(extractUnknownTool(text)).toBe(name);
    if (name !== undefined) expect(err("x", text).unknownTool).toBe(name);
  });
});
});
