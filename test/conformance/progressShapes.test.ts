// SPEC H2, rule by rule, as the exact value each outcome is digested from. Comparing with the
// digest of the expected shape pins every field a rule keeps (and so every field it drops), every
// default of null, and which rule applies; hashing.test.ts checks the rules' effects on loops.
import { describe, expect, it } from "vitest";
import { digestNamed } from "../../models/digest.js";
import { contentText, errorText, hashOutcome, isLoopVeto, isSendLike } from "../../models/outcomeHash.js";
import { stableSerialize } from "../../models/stableSerialize.js";

const digest = digestNamed("walk128");
const outcome = (tool: string, params: unknown, result: unknown): string | undefined => hashOutcome({ tool, params, result, hasError: false }, digest).resultHash;
/** The digest a rule should produce: that of exactly this shape. */
const shaped = (shape: unknown): string => digest.value(shape);
const content = (...texts: string[]) => texts.map((text) => ({ type: "text", text }));

describe("H2.1 an error is its text", () => {
  it("H2.1 the text of every kind of error", () => {
    expect(errorText("boom")).toBe("boom");
    expect(errorText(new Error("boom"))).toBe("boom");
    const nameless = new TypeError("");
    expect(errorText(nameless)).toBe("TypeError");
    expect(errorText(42)).toBe("42");
    expect(errorText(Number.NaN)).toBe("NaN");
    expect(errorText(true)).toBe("true");
    expect(errorText(false)).toBe("false");
    expect(errorText(7n)).toBe("7");
    expect(errorText({ code: 1 })).toBe(stableSerialize({ code: 1 }));
    expect(errorText(null)).toBe("null");
    expect(errorText(undefined)).toBe(stableSerialize(undefined));
  });
  it("H2.1 the hash is the text's digest, and a missing tool is named only when the text names one", () => {
    expect(hashOutcome({ tool: "t", params: {}, error: "boom", hasError: true }, digest)).toStrictEqual({ resultHash: `error:${digest.text("boom")}` });
    expect(hashOutcome({ tool: "t", params: {}, error: "Unknown tool: zap", hasError: true }, digest)).toEqual({ resultHash: `error:${digest.text("Unknown tool: zap")}`, unknownTool: "zap" });
    // hasError decides, not the presence of a result
    expect(hashOutcome({ tool: "t", params: {}, result: { content: content("ok") }, error: "boom", hasError: true }, digest).resultHash).toBe(`error:${digest.text("boom")}`);
  });
});

describe("H2.2 a result that is not a plain object", () => {
  it("H2.2 undefined records nothing; anything else is digested as it is", () => {
    expect(hashOutcome({ tool: "t", params: {}, result: undefined, hasError: false }, digest)).toStrictEqual({ resultHash: undefined });
    for (const value of ["text", 3, null, [1, 2], true]) expect(outcome("t", {}, value)).toBe(shaped(value));
  });
});

describe("H2.3 content text", () => {
  it("H2.3 entries with a string type and a string text, joined by newlines, trimmed", () => {
    expect(contentText([{ type: "text", text: " a" }, { type: "image" }, { type: 1, text: "x" }, { text: "y" }, "z", null, { type: "text", text: "b " }])).toBe("a\nb");
    expect(contentText("a")).toBe("");
    expect(contentText(undefined)).toBe("");
    expect(contentText([])).toBe("");
  });
});

describe("H2.4 the loop veto", () => {
  it("H2.4 only status blocked with deniedReason tool-loop is the veto", () => {
    expect(isLoopVeto({ status: "blocked", deniedReason: "tool-loop" })).toBe(true);
    expect(isLoopVeto({ status: "blocked", deniedReason: "plugin" })).toBe(false);
    expect(isLoopVeto({ status: "done", deniedReason: "tool-loop" })).toBe(false);
    expect(isLoopVeto({})).toBe(false);
    expect(outcome("read", {}, { details: { status: "blocked", deniedReason: "tool-loop" } })).toBeUndefined();
  });
});

describe("H2.5 exec results by status", () => {
  it("H2.5 running: the status and the tail only", () => {
    expect(outcome("exec", {}, { details: { status: "running", tail: "t", pid: 9 }, content: content("x") })).toBe(shaped({ status: "running", tail: "t" }));
    expect(outcome("exec", {}, { details: { status: "running" } })).toBe(shaped({ status: "running", tail: null }));
  });
  it("H2.5 completed and failed: status, a numeric exit code, timedOut, and the aggregated output or else the text", () => {
    expect(outcome("exec", {}, { details: { status: "completed", exitCode: 0, aggregated: "out", durationMs: 5 }, content: content("x") })).toBe(
      shaped({ status: "completed", exitCode: 0, timedOut: false, output: "out" }),
    );
    expect(outcome("exec", {}, { details: { status: "failed", exitCode: "1", timedOut: true, aggregated: "  " }, content: content(" x ") })).toBe(
      shaped({ status: "failed", exitCode: null, timedOut: true, output: "x" }),
    );
    expect(outcome("exec", {}, { details: { status: "failed", timedOut: "yes", aggregated: 5 } })).toBe(shaped({ status: "failed", exitCode: null, timedOut: false, output: "" }));
  });
  it("H2.5 approvals: status, reason, host, command and warning text", () => {
    for (const status of ["approval-pending", "approval-unavailable"]) {
      expect(outcome("exec", {}, { details: { status, reason: "r", host: "h", command: "c", warningText: "w", id: 1 } })).toBe(
        shaped({ status, reason: "r", host: "h", command: "c", warningText: "w" }),
      );
      expect(outcome("exec", {}, { details: { status } })).toBe(shaped({ status, reason: null, host: null, command: null, warningText: null }));
    }
  });
  it("H2.5 any other status, or none, falls through to the general rule", () => {
    expect(outcome("exec", {}, { details: { status: "queued", x: 1 }, content: content("t") })).toBe(shaped({ details: { status: "queued", x: 1 }, text: "t" }));
    expect(outcome("exec", {}, { details: { status: 3 } })).toBe(shaped({ details: { status: 3 }, text: "" }));
    expect(outcome("run", {}, { details: { status: "running", tail: "t" } })).toBe(shaped({ details: { status: "running", tail: "t" }, text: "" }));
  });
});

describe("H2.6 process poll and log", () => {
  it("H2.6 poll: status, exit code and signal, aggregated output and text", () => {
    expect(outcome("process", { action: "poll" }, { details: { status: "running", exitCode: 1, exitSignal: "TERM", aggregated: "a", pid: 3 }, content: content("t") })).toBe(
      shaped({ action: "poll", status: "running", exitCode: 1, exitSignal: "TERM", aggregated: "a", text: "t" }),
    );
    expect(outcome("process", { action: "poll" }, {})).toBe(shaped({ action: "poll", status: null, exitCode: null, exitSignal: null, aggregated: null, text: "" }));
  });
  it("H2.6 log: status, line and character totals, truncation, exit code and signal, and text", () => {
    expect(
      outcome("process", { action: "log" }, { details: { status: "s", totalLines: 1, totalChars: 2, truncated: true, exitCode: 0, exitSignal: null, offset: 5 }, content: content("t") }),
    ).toBe(shaped({ action: "log", status: "s", totalLines: 1, totalChars: 2, truncated: true, exitCode: 0, exitSignal: null, text: "t" }));
    expect(outcome("process", { action: "log" }, {})).toBe(
      shaped({ action: "log", status: null, totalLines: null, totalChars: null, truncated: null, exitCode: null, exitSignal: null, text: "" }),
    );
  });
  it("H2.6 only the process tool polls and logs", () => {
    for (const action of ["poll", "log"]) expect(outcome("run", { action }, { details: { status: "s" } })).toBe(shaped({ details: { status: "s" }, text: "" }));
  });
  it("H2.6 other process actions, and process with no params object, use the general rule", () => {
    for (const params of [{ action: "write" }, { action: "kill" }, {}, "poll", null]) {
      expect(outcome("process", params, { details: { status: "running", pid: 3 } })).toBe(shaped({ details: { status: "running", pid: 3 }, text: "" }));
    }
  });
});

describe("H2.7 sends drop fresh platform ids", () => {
  const ACTIONS = ["send", "broadcast", "reply", "thread-reply", "sendWithEffect", "sendAttachment", "upload-file", "sticker", "poll"];
  const VOLATILE = [
    "messageId", "message_id", "messageIds", "platformMessageId", "platformMessageIds", "fileId", "file_id", "fileKey",
    "pollId", "poll_id", "receipt", "runId", "idempotencyKey", "ts", "timestamp", "sentAt", "deliveredAt", "createdAt",
  ];
  it("H2.7 which calls are sends", () => {
    for (const action of ACTIONS) expect(isSendLike("message", { action })).toBe(true);
    expect(isSendLike("sessions_send", {})).toBe(true);
    for (const action of ["read", "edit", "delete", "react", "Send"]) expect(isSendLike("message", { action })).toBe(false);
    expect(isSendLike("message", {})).toBe(false);
    expect(isSendLike("message", { action: 1 })).toBe(false);
    expect(isSendLike("exec", { action: "send" })).toBe(false);
  });
  it("H2.7 every volatile key is dropped at any depth, and nothing else", () => {
    for (const key of VOLATILE) {
      expect(outcome("message", { action: "send" }, { details: { ok: true, [key]: "v", nested: [{ [key]: 1, keep: 2 }] }, content: content("t") })).toBe(
        shaped({ ok: true, nested: [{ keep: 2 }] }),
      );
    }
    expect(outcome("sessions_send", {}, { details: { id: "x", channel: "c" } })).toBe(shaped({ id: "x", channel: "c" }));
  });
  it("H2.7 a message object's id is dropped: an id with text, direction, sender, account or conversation", () => {
    const marks: Record<string, unknown>[] = [{ text: "hi" }, { direction: "out" }, { senderId: "s" }, { accountId: "a" }, { conversation: {} }];
    for (const mark of marks) {
      expect(outcome("message", { action: "reply" }, { details: { message: { id: "m1", ...mark } } })).toBe(shaped({ message: mark }));
    }
    // Not a message object: an id alone, a numeric id, or marks of the wrong type.
    for (const kept of [{ id: "m1" }, { id: 5, text: "hi" }, { id: "m1", direction: 1, senderId: 2, accountId: 3, conversation: "c" }]) {
      expect(outcome("message", { action: "reply" }, { details: { message: kept } })).toBe(shaped({ message: kept }));
    }
  });
  it("H2.7 a cycle in a send's details is kept as a back-reference, not followed forever", () => {
    const details: Record<string, unknown> = { messageId: "x", list: [] as unknown[] };
    details.self = details;
    (details.list as unknown[]).push(details.list);
    const expected: Record<string, unknown> = { list: [] as unknown[] };
    expected.self = details; // the original object: the serializer writes a back-reference
    (expected.list as unknown[]).push(details.list);
    expect(outcome("message", { action: "send" }, { details })).toBe(shaped(expected));
  });
});

describe("H2.3 a result object with no prototype is a result object", () => {
  it("H2.3 its details and text are read as for any record", () => {
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { details: { a: 1 }, content: content("t") });
    expect(outcome("read", {}, bare)).toBe(shaped({ details: { a: 1 }, text: "t" }));
  });
});

describe("H2.8 everything else", () => {
  it("H2.8 the details and the text; details that are not an object count as empty", () => {
    expect(outcome("read", {}, { details: { a: 1 }, content: content("t"), other: 9 })).toBe(shaped({ details: { a: 1 }, text: "t" }));
    expect(outcome("read", {}, { details: [1], content: content("t") })).toBe(shaped({ details: {}, text: "t" }));
    expect(outcome("read", {}, {})).toBe(shaped({ details: {}, text: "" }));
  });
});
