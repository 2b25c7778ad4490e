// The library checks its arguments as the CLI checks its flags: each bad input is a UserError
// (exitCode 2) naming the function and the argument, never a TypeError from inside, and the
// options resolver is the one the CLI uses. Also: require("loopsim") works (a `default`
// condition), lawChecks' old signature still runs, and replay lines say `npx loopsim` where
// loopsim is not on PATH.
import { spawnSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, expectTypeOf, it } from "vitest";
import { type ConformOptions, conform, conformanceOf, lawChecks, loadTarget, readEvents, REFERENCE_TARGET, resolveConfig, runTrace, traceArbitrary } from "../src/api/index.js";
import { forThisMachine } from "../src/api/replayCommand.js";
import { UserError } from "../src/io/errors.js";
import { loopsim, tempDir } from "./cli/run.js";
import { MAX_DEPTH } from "../src/cli/options.js";
import { MAX_CONFORM_DEPTH, type ConformOptionsInput, type ResolvedConformOptions } from "../src/conform/conformOptions.js";
import type { ConformOptions as RunnerConformOptions } from "../src/conform/run.js";

const ROOT = join(import.meta.dirname, "..");

/** The error fn throws (or rejects with): a UserError with exit code 2 and this message. */
async function userError(fn: () => unknown, message: RegExp): Promise<void> {
  let caught: unknown;
  try {
    await fn();
  } catch (error) {
    caught = error;
  }
  expect(caught, `no error for ${message}`).toBeInstanceOf(UserError);
  expect((caught as UserError).exitCode).toBe(2);
  expect((caught as Error).message).toMatch(message);
}

describe("the library at its door", () => {
  it("loadTarget refuses what is not a name, names nothing, or is a folder or a .ts file, saying what to write", async () => {
    await userError(() => loadTarget(42 as unknown as string), /^loadTarget: name: a target name must be a string \(got number\)/);
    await userError(() => (loadTarget as () => Promise<unknown>)(), /^loadTarget: name: a target name must be a string \(got undefined\)/);
    await userError(() => loadTarget("referense"), /did you mean "reference"/);
    await userError(() => loadTarget(tempDir()), /is a folder; give the adapter module itself/);
    await userError(() => loadTarget("./src/guard.ts"), /TypeScript module cannot be loaded by path .* asTarget/);
  });

  it("conform refuses a missing target, an unknown law, a NaN seed and a negative depth before running", async () => {
    await userError(() => conform(undefined as never), /^conform: target is not a loopsim target .*: export a target object/);
    await userError(() => conform({ name: "x" } as never), /^conform: target is not a loopsim target .*start\(config\) must be a function/);
    await userError(() => conform(REFERENCE_TARGET, { law: "bogus" }), /^conform: options\.law unknown law "bogus"/);
    await userError(() => conform(REFERENCE_TARGET, { seed: Number.NaN }), /^conform: options\.seed must be a whole number .*\(got NaN\)/);
    await userError(() => conform(REFERENCE_TARGET, { depth: -1 }), /^conform: options\.depth must be a number above 0 and at most 1000 \(got -1\)/);
    await userError(() => conform(REFERENCE_TARGET, { dpeth: 2 } as never), /^conform: options\.dpeth: unknown option "dpeth" \(did you mean "depth"\?/);
  });

  it("bounds depth as the CLI does", () => {
    expect(MAX_CONFORM_DEPTH).toBe(MAX_DEPTH);
  });

  it("has one list of conform's options: the runners' options derive from the caller's, and the library's are the caller's (tsc checks these)", () => {
    expectTypeOf<keyof ResolvedConformOptions>().toEqualTypeOf<keyof ConformOptionsInput>();
    expectTypeOf<ResolvedConformOptions["seed"]>().toEqualTypeOf<number>();
    expectTypeOf<ResolvedConformOptions["outDir"]>().toEqualTypeOf<string | undefined>();
    expectTypeOf<RunnerConformOptions>().toEqualTypeOf<ResolvedConformOptions>();
    expectTypeOf<keyof ConformOptions>().toEqualTypeOf<Exclude<keyof ConformOptionsInput, "differentialSeed">>();
    expectTypeOf<ConformOptions>().toMatchTypeOf<ConformOptionsInput>();
  });

  it("lawChecks takes one options object, refuses an unknown law, and keeps its old signature working", async () => {
    await userError(() => lawChecks(REFERENCE_TARGET, { only: "bogus" }), /^lawChecks: options\.only unknown law "bogus"/);
    await userError(() => lawChecks(REFERENCE_TARGET, { seed: 1.5 }), /^lawChecks: options\.seed must be a whole number/);
    const [now] = lawChecks(REFERENCE_TARGET, { only: "warnings-come-first", depth: 0.05 });
    const [old] = lawChecks(REFERENCE_TARGET, undefined, { seed: 20261202, depth: 0.05, only: "warnings-come-first" });
    expect(now?.status).toBe("pass");
    expect(old).toEqual(now);
    await userError(() => conformanceOf(REFERENCE_TARGET, "x" as never), /^conformanceOf: checks must be an array/);
  });

  it("runTrace names a malformed event by its index; resolveConfig refuses a wrong type but repairs a wrong value", async () => {
    await userError(() => runTrace(REFERENCE_TARGET, [{ type: "call" }] as never), /^runTrace: events\[0\]/);
    await userError(() => runTrace(REFERENCE_TARGET, "events" as never), /^runTrace: events must be an array/);
    await userError(() => resolveConfig("x"), /^resolveConfig: loopDetection must be an object \(got "x"\)/);
    await userError(() => resolveConfig({ warningThreshold: "ten" }), /^resolveConfig: loopDetection\.warningThreshold must be a number \(got "ten"\)/);
    await userError(() => resolveConfig({ detectors: { pingPong: 1 } }), /loopDetection\.detectors\.pingPong must be a boolean/);
    await userError(() => readEvents("x.jsonl", "weird-format" as never), /^readEvents: format unknown format "weird-format"/);
    await userError(() => traceArbitrary({ maxRepeat: 0 }), /^traceArbitrary: options\.maxRepeat must be a whole number from 2/);
    await userError(() => traceArbitrary({ runs: 999 }), /^traceArbitrary: options\.runs must be a whole number from 1 to 7 \(got 999\)/);
    // Repairing out-of-range values is the contract: a 0 threshold takes the default.
    expect(resolveConfig({ warningThreshold: 0 }).warningThreshold).toBe(10);
  });
});

describe("the package from CommonJS", () => {
  it('require("loopsim") gives the library on Node 20.19+', () => {
    const dir = tempDir();
    mkdirSync(join(dir, "node_modules"));
    symlinkSync(ROOT, join(dir, "node_modules", "loopsim"), "dir");
    writeFileSync(join(dir, "use.cjs"), 'const loopsim = require("loopsim");\nconsole.log(typeof loopsim.conform, typeof loopsim.loadTarget, loopsim.laws.length > 0);\n');
    const res = spawnSync(process.execPath, [join(dir, "use.cjs")], { cwd: dir, encoding: "utf8" });
    expect(res.status, res.stderr).toBe(0);
    expect(res.stdout.trim()).toBe("function function true");
  });
});

describe("replay lines", () => {
  it("say npx loopsim where loopsim is not on PATH (the prefix of an env setting too)", () => {
    expect(forThisMachine("loopsim conform --target ./g.mjs --law x", false)).toBe("npx loopsim conform --target ./g.mjs --law x");
    expect(forThisMachine("LOOPSIM_STRICT=1 loopsim conform --target g", false)).toBe("LOOPSIM_STRICT=1 npx loopsim conform --target g");
    expect(forThisMachine("loopsim conform --out d --force; loopsim replay f", false)).toBe("npx loopsim conform --out d --force; npx loopsim replay f");
    expect(forThisMachine("loopsim conform --target g", true)).toBe("loopsim conform --target g");
  });

  it("a .ts guard given to the CLI is refused with what to do (exit 2)", () => {
    const res = loopsim(["trace", "/dev/null", "--target", "./guard.ts"]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("build it first (npx tsc) and pass the built ./guard.js");
  });
});
