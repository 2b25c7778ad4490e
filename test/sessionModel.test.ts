// The model a trajectory names is found wherever its info.config sits: a large info.submission
// (the run's diff) comes first and pushed it past the 64 KiB head in 24 of the datasets' files,
// which then fell under a system with no model in the changing-args fit and under
// "(not recorded)" in the catalogue.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { sessionModel } from "../src/realLoops/sessionModel.js";
import { tempDir } from "./cli/run.js";

const trajectory = (submissionChars: number) => JSON.stringify({ info: { exit_status: "Submitted", submission: "+x\n".repeat(submissionChars / 3), config: { model: { model_name: "openai/gpt-5-mini" } } }, messages: [] });

describe("sessionModel", () => {
  it("reads the model from the head of a small trajectory", () => {
    const path = join(tempDir(), "a.traj.json");
    writeFileSync(path, trajectory(300));
    expect(sessionModel(path)).toBe("openai/gpt-5-mini");
  });

  it("reads the model of a trajectory whose submission pushes it past the head (plain and .gz)", () => {
    const dir = tempDir();
    const plain = join(dir, "b.traj.json");
    const gz = join(dir, "c.traj.json.gz");
    writeFileSync(plain, trajectory(150_000));
    writeFileSync(gz, gzipSync(trajectory(150_000)));
    expect(sessionModel(plain)).toBe("openai/gpt-5-mini");
    expect(sessionModel(gz)).toBe("openai/gpt-5-mini");
  });

  it("finds none in a file that records none, and none for an entry of a multi-run file", () => {
    const path = join(tempDir(), "d.traj.json");
    writeFileSync(path, JSON.stringify({ info: { submission: "+x\n".repeat(50_000) }, messages: [] }));
    expect(sessionModel(path)).toBeUndefined();
    expect(sessionModel(`${path}#3`)).toBeUndefined();
  });
});
