// Small things a new user meets first: help with no arguments, -v, every error prefixed
// "loopsim:", and `replay .` reading only scenario files (not node_modules, package.json...).
import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { loopsim } from "./run.js";

describe("first contact", () => {
  it("no arguments prints the help on stdout and exits 0", () => {
    const res = loopsim([]);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^Usage: loopsim/);
    expect(res.stderr).toBe("");
  });

  it("-v and --version print the version", () => {
    expect(loopsim(["-v"]).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    expect(loopsim(["--version"]).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("parser errors start with loopsim: and exit 2", () => {
    const res = loopsim(["trace", "--bogus"]);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^loopsim: unknown option '--bogus'/);
  });

  it("replay of a folder reads scenario files only, and never node_modules", () => {
    const res = loopsim(["replay", join(import.meta.dirname, "..", "..", "scenarios"), join(import.meta.dirname, "..", "..", "test")]);
    expect(res.code, res.stdout).toBe(0);
    expect(res.stdout).not.toMatch(/INVALID|node_modules/);
  });
});
