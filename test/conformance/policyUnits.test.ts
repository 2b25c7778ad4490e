// W1's key memory and E2's display of "no run", pinned where mutation testing found them loose:
// a policy that never forgets, forgets on every emission, or lets the memory grow past 256 keys
// would otherwise pass.
import { describe, expect, it } from "vitest";
import { displayRunId, NO_RUN, normalizeRunId } from "../../models/normalize.js";
import { WARNING_KEY_CAPACITY, WarningPolicy } from "../../models/warningPolicy.js";
import type { Finding } from "../../models/verdict.js";

const warning = (key: string, count: number): Finding => ({ level: "warning", detector: "generic_repeat", count, warningKey: key, message: "WARNING: x" });

describe("W1 the warning policy's memory of keys", () => {
  it("remembers 256 keys, forgets the oldest first, and never holds more", () => {
    const policy = new WarningPolicy(10);
    for (let k = 0; k < WARNING_KEY_CAPACITY; k++) expect(policy.emit("r", warning(`k${k}`, 10))).toBe(true);
    expect(policy.size()).toBe(WARNING_KEY_CAPACITY);
    // Still remembered: the same bucket is suppressed.
    expect(policy.emit("r", warning("k0", 10))).toBe(false);
    expect(policy.emit("r", warning("k1", 10))).toBe(false);
    // A new key evicts the oldest inserted (k0), and only it.
    expect(policy.emit("r", warning("new", 10))).toBe(true);
    expect(policy.size()).toBe(WARNING_KEY_CAPACITY);
    expect(policy.emit("r", warning("k0", 10))).toBe(true); // forgotten, so emitted again
    expect(policy.size()).toBe(WARNING_KEY_CAPACITY);
    // k0's return evicted the next oldest, k1; k1's return evicts k2; k3 is still remembered.
    expect(policy.emit("r", warning("k1", 10))).toBe(true);
    expect(policy.emit("r", warning("k3", 10))).toBe(false);
    expect(policy.emit("r", warning("k2", 10))).toBe(true);
  });
  it("a key already remembered never evicts another", () => {
    const policy = new WarningPolicy(10);
    for (let k = 0; k < WARNING_KEY_CAPACITY; k++) policy.emit("r", warning(`k${k}`, 10));
    // k5 moves to a higher bucket: emitted, and nothing is forgotten.
    expect(policy.emit("r", warning("k5", 20))).toBe(true);
    expect(policy.size()).toBe(WARNING_KEY_CAPACITY);
    expect(policy.emit("r", warning("k0", 10))).toBe(false);
  });
  it("criticals are not remembered", () => {
    const policy = new WarningPolicy(10);
    expect(policy.emit("r", { ...warning("c", 25), level: "critical" })).toBe(true);
    expect(policy.size()).toBe(0);
  });
});

describe("E2 no run", () => {
  it("shows as null, and any real runId as itself", () => {
    expect(displayRunId(NO_RUN)).toBeNull();
    expect(displayRunId(normalizeRunId(undefined))).toBeNull();
    expect(displayRunId(normalizeRunId("  "))).toBeNull();
    expect(displayRunId(normalizeRunId(" r1 "))).toBe("r1");
  });
});

describe("G5 an idle guard", () => {
  it("ignores observations: no abort, still idle, even with a window of 1", async () => {
    const { GUARD_IDLE, guardStep } = await import("../../models/guard.js");
    for (const windowSize of [1, 3]) {
      const step = guardStep(GUARD_IDLE, { type: "observe", tool: "read", triple: "read\u0000a\u0000r", windowSize });
      expect(step.abort).toBeUndefined();
      expect(step.state).toBe(GUARD_IDLE);
    }
  });
});
