// What each peer row of `compare` says it rests on must match the committed agreement report:
// a model said to be checked against a runtime was checked against exactly that version, and agreed
// on every probe it could observe.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PEER_EVIDENCE } from "../src/targets/peers/evidence.js";
import { PEER_TARGETS } from "../src/targets/peers/index.js";

interface Report {
  readonly model: string;
  readonly against: string;
  readonly agree: number;
  readonly differ: number;
  readonly probes: readonly unknown[];
}

const committed = JSON.parse(readFileSync(join(import.meta.dirname, "..", "reports", "peers", "agreement.json"), "utf8")) as { reports: Report[] };

describe("peer evidence", () => {
  it("every peer but the baseline says what it rests on", () => {
    for (const t of PEER_TARGETS) if (t.name !== "none") expect(PEER_EVIDENCE[t.name] ?? PEER_EVIDENCE[t.name.split(":")[0] ?? ""], t.name).toBeDefined();
  });
  it("each model said to be checked was checked against that runtime version, with no difference", () => {
    for (const [model, evidence] of Object.entries(PEER_EVIDENCE)) {
      if (evidence.checkedAgainst === undefined) continue;
      const report = committed.reports.find((r) => r.model === model && r.against === evidence.checkedAgainst);
      expect(report, `${model} against ${evidence.checkedAgainst}`).toBeDefined();
      expect(report?.differ, model).toBe(0);
      expect(report?.probes.length).toBeGreaterThanOrEqual(30);
      expect(evidence.text).toContain(evidence.checkedAgainst);
    }
  });
});
