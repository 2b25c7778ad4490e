// tune and compare as a library runs them (issue 36, item 2): the plan functions src/api exports
// make every check the command line makes, before anything runs, so a library caller meets the
// same refusals; and the plan says where a run writes (tune --json without --out: nowhere).
// In-process and without running a sweep, so it stays cheap.
import { describe, expect, it } from "vitest";
import { planCompare, planTune } from "../src/api/index.js";
import { computeMetrics } from "../src/evaluation/metrics.js";
import type { ConfigRow } from "../src/evaluation/evaluate.js";
import { recommend } from "../src/tune/recommend.js";

const tune = { population: "default", agents: 24, seed: 1, grid: "warningThreshold=5,8" };

describe("planTune and planCompare", () => {
  it("refuse out-of-range numbers a library caller hands over, as the CLI's parsers do", async () => {
    await expect(planTune({ ...tune, agents: 0, json: true })).rejects.toThrow(/--agents must be a whole number from 1 to 100000 \(got 0\)/);
    await expect(planTune({ ...tune, seed: -1, json: true })).rejects.toThrow(/--seed must be a whole number/);
    await expect(planCompare({ targets: "all", population: "default", agents: 24, seed: 1, workers: 1000 })).rejects.toThrow(/--workers must be a whole number from 1 to 256/);
    await expect(planTune({ ...tune, labels: "x.json", json: true })).rejects.toThrow(/--labels needs --sessions/);
    await expect(planCompare({ targets: "all", population: "default", agents: 24, seed: 1, labelKey: "instance" })).rejects.toThrow(/--label-key needs --labels/);
  });

  it("say where the report goes: --out, else reports/latest, and with --json alone nowhere", async () => {
    expect((await planTune({ ...tune, json: true })).out).toBeUndefined();
    expect((await planTune({ ...tune, json: true, out: "/tmp/somewhere-not-made" })).out).toBe("/tmp/somewhere-not-made");
    expect((await planTune({ ...tune, force: true })).out).toBe("reports/latest");
  });

  it("parse the grid and the reproduce line once, and name skipped points as notices rather than printing them", async () => {
    const plan = await planTune({ ...tune, grid: "warningThreshold=5,30", json: true });
    expect(plan.inputs.reproduce).toBe('loopsim tune --seed 1 --agents 24 --grid "warningThreshold=5,30"');
    expect(plan.inputs.configs.map((c) => c.label)).toEqual(["OpenClaw defaults", "warningThreshold=5"]);
    expect(plan.notices).toHaveLength(1);
    expect(plan.notices[0]).toMatch(/1 of 2 points skipped/);
  });
});

describe("the evidence line of a pick on real sessions", () => {
  const row = (index: number): ConfigRow => {
    const base = computeMetrics([]);
    return { index, label: `r${index}`, block: {}, metrics: { ...base, stuck: { ...base.stuck, agents: 4 } } };
  };
  it("names injected loops only when loops were injected", () => {
    const rows = [row(0), row(1)];
    const [mined] = recommend(rows, rows[0] as ConfigRow, [], "grounded", { injected: false, mined: true });
    expect(mined?.evidence).toMatch(/stuck stretches mined from the real sessions \(nothing injected\)/);
    expect(mined?.evidence).not.toMatch(/injected loop|the loops are injected/);
    const [none] = recommend(rows, rows[0] as ConfigRow, [], "grounded", { injected: false, mined: false });
    expect(none?.evidence).toMatch(/no loop was injected/);
    const [injected] = recommend(rows, rows[0] as ConfigRow, [], "grounded", { injected: true, mined: false });
    expect(injected?.evidence).toMatch(/real sessions with an injected loop/);
  });
});

describe("the options tune and compare share", () => {
  it("are declared once: both commands take every shared flag, with the same parsing", async () => {
    const { Command } = await import("commander");
    const { registerSimulationCommands } = await import("../src/cli/simulationCommands.js");
    const program = new Command();
    registerSimulationCommands(program);
    const flags = (name: string) => new Set(program.commands.find((c) => c.name() === name)?.options.map((o) => o.long) ?? []);
    const tuneFlags = flags("tune");
    const compareFlags = flags("compare");
    const shared = ["--population", "--agents", "--seed", "--sessions", "--labels", "--label-key", "--label-map", "--strict", "--out", "--workers", "--shard", "--by", "--force", "--json", "--inject", "--reaction", "--loops", "--outcome-labels", "--stretches", "--reaction-grid"];
    for (const flag of shared) {
      expect(tuneFlags.has(flag), `tune ${flag}`).toBe(true);
      expect(compareFlags.has(flag), `compare ${flag}`).toBe(true);
    }
    // tune's --out has no commander default: without it, --json alone writes nothing (planTune decides).
    expect(program.commands.find((c) => c.name() === "tune")?.options.find((o) => o.long === "--out")?.defaultValue).toBeUndefined();
  });
});
