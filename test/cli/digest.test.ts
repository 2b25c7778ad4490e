// The digest is a speed choice, not a behaviour: LOOPSIM_DIGEST=sha256 (OpenClaw's) and the
// default walk128 must give byte-identical timelines and scenario replays, and JSON that differs
// only inside warning keys, which embed the digests (W1: the key names args and result hashes).
import { describe, expect, it } from "vitest";
import { loopsim, tempFile } from "./run.js";

const SHA = { LOOPSIM_DIGEST: "sha256" };
const CONFIG = tempFile("enabled.json", JSON.stringify({ tools: { loopDetection: { enabled: true } } }));

describe("digest choice", () => {
  const digestsMasked = (json: string): string => json.replace(/\b[0-9a-f]{64}\b|\b[0-9a-f]{32}\b/g, "<digest>");
  it("simulate prints the same timeline with either digest, and JSON equal but for the digests in warning keys", () => {
    for (const family of ["poller-stuck", "ping-pong-stuck", "send-loop", "productive"]) {
      const args = ["simulate", "--family", family, "--seed", "7", "--config", CONFIG];
      const walk = loopsim(args);
      expect(walk.code, walk.stderr).toBe(0);
      expect(loopsim(args, undefined, undefined, SHA).stdout).toBe(walk.stdout);
      const walkJson = loopsim([...args, "--json"]).stdout;
      const shaJson = loopsim([...args, "--json"], undefined, undefined, SHA).stdout;
      expect(digestsMasked(shaJson)).toBe(digestsMasked(walkJson));
      if (family === "poller-stuck") expect(shaJson).not.toBe(walkJson); // the keys do carry the digests
    }
  });
  it("every committed scenario replays with SHA-256 to the same verdicts; only the digests inside warning keys differ", () => {
    // Scenario fingerprints are recorded with the default digest, and a fingerprint covers the
    // warning keys, so under SHA-256 a scenario with a warning fails on its fingerprint alone.
    const result = loopsim(["replay", "scenarios", "--json"], undefined, undefined, SHA);
    const report = JSON.parse(result.stdout) as { invalid: number; scenarios: { file: string; status: string; diff?: string[] }[] };
    expect(report.invalid).toBe(0);
    for (const s of report.scenarios) {
      if (s.status === "pass") continue;
      expect(s.diff, s.file).toEqual([expect.stringContaining("same verdicts, different messages or keys")]);
    }
    expect(loopsim(["replay", "scenarios"]).code).toBe(0);
  });
  it("an unknown digest is refused with exit 2 and one line", () => {
    const result = loopsim(["trace", "--help"], undefined, undefined, { LOOPSIM_DIGEST: "md5" });
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toMatch(/^loopsim: LOOPSIM_DIGEST: unknown digest "md5"; choose one of walk128, sha256$/);
  });
});
