// Target names are parsed once (src/targets/targetRef.ts): each form to its kind, each malformed
// name to one message that says what to write, print and parse are inverse, and no other file in
// src/ tests a name's form again.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { targetKind, runtimeOf } from "../src/field/lineup.js";
import { loadOrder } from "../src/field/matrix.js";
import { DRIVEN_RUNTIME_NAMES } from "../src/targets/runtimes/drivenRuntimes.js";
import { ZOO_TARGETS } from "../src/targets/zoo/variants.js";
import { PEER_TARGETS, PEER_VARIANTS } from "../src/targets/peers/index.js";
import { CANDIDATE_RULES, parseTargetRef, printTargetRef, runtimeNamesHelp, targetNamesHelp, targetRefOf, type TargetRef, type VersionSpec } from "../src/targets/targetRef.js";
import { findBuiltInTarget } from "../src/targets/registry.js";

const ROOT = join(import.meta.dirname, "..");
const problem = (text: string): string => {
  const parsed = parseTargetRef(text);
  if (parsed.ok) throw new Error(`${text} parsed as ${JSON.stringify(parsed.ref)}`);
  return parsed.problem;
};

describe("parsing a target name", () => {
  it("gives each form its kind (a build is not a release; an adapter, a zoo variant and the oracle are not peer models)", () => {
    const kinds: Record<string, string> = {
      reference: "reference",
      oracle: "oracle",
      "zoo:send-ids-kept": "zoo variant",
      "gemini-cli": "peer model",
      "goose:5": "peer model",
      "qwen-code:heuristics": "peer model",
      "candidate:no-effect:5": "candidate rule",
      "openclaw@2026.9.6": "release",
      "openclaw@latest": "release",
      "openclaw@./build": "build",
      "openclaw@file:/abs/build": "build",
      "openclaw@openclaw-2026.9.6.tgz": "build",
      "gemini-cli@0.61.0": "runtime in-process",
      "crush@0.96.1": "runtime driven",
      "cline@latest": "runtime driven",
      "qwen-code:heuristics@0.24.4": "runtime driven",
      "./my-adapter.mjs": "adapter",
      "/abs/guard.js": "adapter",
    };
    for (const [name, kind] of Object.entries(kinds)) expect(targetKind(name), name).toBe(kind);
    expect(targetRefOf("openclaw@file:./b")).toEqual({ kind: "build", path: "./b", via: "file" });
    expect(targetRefOf("goose:5")).toEqual({ kind: "peer", peer: "goose", limit: 5 });
    expect(runtimeOf("openclaw@./build")).toBe("openclaw");
    expect(runtimeOf("crewai-react")).toBe("crewai");
    expect(runtimeOf("goose:5")).toBe("goose");
    expect(findBuiltInTarget("goose:5")?.name).toBe("goose:5");
  });

  it("says what to write for openclaw@file: with no path, a bare word, a ~ path, a bad version and an unknown name", () => {
    expect(problem("openclaw@file:")).toMatch(/^openclaw@file: names no path; write openclaw@file:\.\/my-build for a folder/);
    expect(problem("openclaw@mybuild")).toMatch(/not a release version \(YYYY.M.D\) and not a path; for a build in the folder mybuild write openclaw@\.\/mybuild; for a release write openclaw@VERSION/);
    expect(problem("openclaw@~/x")).toMatch(/"~" is not expanded .* write the path out: openclaw@\$HOME\/x/);
    expect(problem("openclaw@file:~/x")).toMatch(/openclaw@\$HOME\/x/);
    expect(problem("openclaw@")).toMatch(/openclaw@ needs a release or a path/);
    expect(problem("openclaw@2026.9")).toMatch(/not a release version .* for a build, write its path: openclaw@\.\/2026\.9/);
    expect(problem("gemini-cli@nope")).toMatch(/gemini-cli@nope: not a version \(expected e\.g\. gemini-cli@0\.61\.0, or gemini-cli@latest\)/);
    expect(problem("./guard.ts")).toMatch(/TypeScript .* build it .* asTarget/);
    expect(problem("referense")).toMatch(/^unknown target "referense" \(did you mean "reference"\? known: /);
    expect(problem("openclaw")).toMatch(/did you mean "openclaw@latest"\?/);
    expect(problem("opencod@1.0.0")).toMatch(/^unknown target "opencod@1\.0\.0" \(did you mean "opencode@1\.0\.0"\?/);
    expect(problem("zoo:nope")).toMatch(/^unknown target "zoo:nope"/);
    expect(problem("candidate:no-effect:51")).toMatch(/N must be a whole number from 2 to 50/);
    expect(problem("candidate:nope:5")).toMatch(/no candidate rule "nope" \(known: failure-signature, no-effect, recheck\)/);
    expect(problem(42 as unknown as string)).toMatch(/must be a string \(got number\)/);
  });

  it("lists every driven runtime (cline and crush too) from the one table", () => {
    for (const runtime of DRIVEN_RUNTIME_NAMES) {
      expect(targetNamesHelp()).toContain(`${runtime}@VERSION`);
      expect(runtimeNamesHelp()).toContain(`${runtime}@VERSION`);
    }
    expect(DRIVEN_RUNTIME_NAMES).toEqual(expect.arrayContaining(["cline", "crush"]));
  });

  it("loads releases oldest first, after the rest (a build is not a release)", () => {
    expect(loadOrder(["openclaw@2026.9.6", "reference", "openclaw@./b", "openclaw@2026.4.14"])).toEqual(["reference", "openclaw@./b", "openclaw@2026.4.14", "openclaw@2026.9.6"]);
  });
});

const version: fc.Arbitrary<VersionSpec> = fc.oneof(
  fc.constant<VersionSpec>({ kind: "latest" }),
  fc.tuple(fc.nat(3000), fc.nat(99), fc.nat(99), fc.option(fc.stringMatching(/^[a-z0-9]{1,6}(\.[0-9]{1,3})?$/), { nil: undefined })).map(([a, b, c, pre]): VersionSpec => ({ kind: "exact", version: `${a}.${b}.${c}${pre === undefined ? "" : `-${pre}`}` })),
);
const segment = fc.stringMatching(/^[A-Za-z0-9_][A-Za-z0-9_.-]{0,10}$/);
const buildPath = fc.oneof(segment.map((s) => `./${s}`), fc.array(segment, { minLength: 1, maxLength: 3 }).map((s) => `/${s.join("/")}`), segment.map((s) => `${s}.tgz`), segment.map((s) => `../${s}/dist`));
const refArbitrary: fc.Arbitrary<TargetRef> = fc.oneof(
  fc.constant<TargetRef>({ kind: "reference" }),
  fc.constant<TargetRef>({ kind: "oracle" }),
  fc.constantFrom(...ZOO_TARGETS.map((t): TargetRef => ({ kind: "zoo", variant: t.name.slice("zoo:".length) }))),
  fc.constantFrom(...[...PEER_TARGETS, ...PEER_VARIANTS].map((t): TargetRef => ({ kind: "peer", peer: t.name }))),
  fc.integer({ min: 1, max: 999_999 }).map((limit): TargetRef => ({ kind: "peer", peer: "goose", limit })),
  fc.tuple(fc.constantFrom(...CANDIDATE_RULES), fc.integer({ min: 2, max: 50 })).map(([rule, times]): TargetRef => ({ kind: "candidate", rule, times })),
  version.map((v): TargetRef => ({ kind: "release", version: v })),
  fc.tuple(buildPath, fc.constantFrom("path" as const, "file" as const)).map(([path, via]): TargetRef => ({ kind: "build", path, via })),
  version.map((v): TargetRef => ({ kind: "inProcessRuntime", runtime: "gemini-cli", version: v })),
  fc.tuple(fc.constantFrom(...DRIVEN_RUNTIME_NAMES), version).map(([runtime, v]): TargetRef => ({ kind: "drivenRuntime", runtime, version: v })),
  fc.tuple(fc.constantFrom("./", "../", "/opt/"), segment, fc.constantFrom(".mjs", ".js", ".cjs")).map(([dir, s, ext]): TargetRef => ({ kind: "adapter", path: `${dir}${s}${ext}` })),
);

describe("printing a target reference", () => {
  it("parse(print(x)) = x", () => {
    fc.assert(
      fc.property(refArbitrary, (ref) => {
        expect(targetRefOf(printTargetRef(ref))).toEqual(ref);
      }),
      { seed: 20261204, numRuns: 500 },
    );
  });
});

/** Every .ts file under a folder. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith(".ts") ? [path] : [];
  });
}

describe("one place tests a name's form", () => {
  it("no file in src/ but targetRef.ts uses the old predicates, startsWith(\"openclaw@\") or the slice(9) of its length", () => {
    const forbidden = [/\bisReleaseName\b/, /\bisLocalBuildName\b/, /\bisLocalBuildSpec\b/, /\bisGeminiName\b/, /\bisRuntimeName\b/, /\bisModulePath\b/, /\bisDrivenRuntimeName\b/, /startsWith\("openclaw@"\)/, /startsWith\("gemini-cli@"\)/, /slice\(9\)/, /"openclaw@"\.length/, /"gemini-cli@"\.length/, /\bparameterisedPeer\b/, /\^goose:/];
    const offenders = sources(join(ROOT, "src"))
      .filter((file) => !file.endsWith(join("targets", "targetRef.ts")))
      .flatMap((file) => {
        const text = readFileSync(file, "utf8");
        return forbidden.filter((re) => re.test(text)).map((re) => `${relative(ROOT, file)}: ${re.source}`);
      });
    expect(offenders).toEqual([]);
  });
});
