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
import { CANDIDATE_RULES, drivenRuntimeRefOf, parseTargetRef, runtimeFamilyOf, shippedCodeOf, versionLabelOf, printTargetRef, runtimeNamesHelp, targetNamesHelp, targetRefOf, type TargetRef, type VersionSpec } from "../src/targets/targetRef.js";
import { findBuiltInTarget } from "../src/targets/registry.js";
import { drivenTarget } from "../src/targets/runtimes/drivenTarget.js";
import { DEFAULT_CONFIG } from "../models/config.js";

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
    expect(problem("candidate:nope:5")).toMatch(/no candidate rule "nope" \(known: failure-signature, no-effect, recheck, no-new-fact\)/);
    expect(problem(42 as unknown as string)).toMatch(/must be a string \(got number\)/);
  });

  it("lists every driven runtime (cline and crush too) from the one table", () => {
    for (const runtime of DRIVEN_RUNTIME_NAMES) {
      expect(targetNamesHelp()).toContain(`${runtime}@VERSION`);
      expect(runtimeNamesHelp()).toContain(`${runtime}@VERSION`);
    }
    expect(DRIVEN_RUNTIME_NAMES).toEqual(expect.arrayContaining(["cline", "crush"]));
  });

  it("says what shipped code a name runs, and what follows its @, from the parsed reference", () => {
    expect(shippedCodeOf(targetRefOf("openclaw@file:./b"))).toEqual({ runtime: "openclaw", version: "file:./b" });
    expect(shippedCodeOf(targetRefOf("qwen-code:heuristics@0.24.4"))).toEqual({ runtime: "qwen-code", mode: "heuristics", version: "0.24.4" });
    expect(shippedCodeOf(targetRefOf("gemini-cli@latest"))).toEqual({ runtime: "gemini-cli", version: "latest" });
    for (const model of ["goose:5", "qwen-code", "reference", "zoo:send-ids-kept", "candidate:no-effect:3", "./a.mjs"]) expect(shippedCodeOf(targetRefOf(model)), model).toBeUndefined();
    expect(["openclaw@2026.9.6", "openclaw@./b", "cline@3.0.65", "goose:5", "not a name"].map((n) => versionLabelOf(n))).toEqual(["2026.9.6", "./b", "3.0.65", "goose:5", "not a name"]);
    expect(drivenRuntimeRefOf("qwen-code:heuristics@latest")).toEqual({ kind: "drivenRuntime", runtime: "qwen-code:heuristics", version: { kind: "latest" } });
    expect(() => drivenRuntimeRefOf("gemini-cli@0.61.0", "argv")).toThrow(/^argv: gemini-cli@0\.61\.0: not a driven runtime/);
    expect(runtimeFamilyOf("opencode@bad")).toBe("opencode");
    expect(runtimeFamilyOf("goose:5")).toBeUndefined();
  });

  it("refuses a driven runtime to a closed-loop agent, naming its model from the parsed reference", () => {
    const ref = drivenRuntimeRefOf("qwen-code:heuristics@0.24.4");
    const target = drivenTarget(printTargetRef(ref), ref.runtime, "s", []);
    expect(() => target.start(DEFAULT_CONFIG)).toThrow(/^qwen-code:heuristics@0\.24\.4 is a runtime's own CLI.*use its model \(qwen-code:heuristics\) here$/);
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

/**
 * The forms a name's form was tested by before it had one parser: the old predicates, prefix
 * tests of the families, splits and searches at "@" (a name's family and version), a split at
 * ":" (goose:N, a runtime's :mode), slices of a prefix's length, and regexes anchored on a
 * family's name.
 */
const NAME_FORM_TESTS = [
  /\bisReleaseName\b/, /\bisLocalBuildName\b/, /\bisLocalBuildSpec\b/, /\bisGeminiName\b/, /\bisRuntimeName\b/, /\bisModulePath\b/, /\bisDrivenRuntimeName\b/, /\bisCandidateName\b/, /\bparameterisedPeer\b/,
  /startsWith\(["'`](openclaw|gemini-cli|candidate|zoo|goose|opencode|kilo|cline|crush|qwen-code|file:)/,
  /split\(["'`]@["'`]\)/, /(last)?[iI]ndexOf\(["'`]@["'`]\)/, /includes\(["'`]@["'`]\)/,
  /split\(["'`]:["'`]\)/,
  /slice\(9\)/, /"(openclaw@|gemini-cli@|candidate:|zoo:|file:)"\.length/,
  /\/\^(openclaw|gemini-cli|candidate|zoo|goose)[@:]/,
  /\$\{\w+\}@`\)/,
];
/** Files that split at "@" for another reason than a target name, each with why. */
const NOT_TARGET_NAMES: Readonly<Record<string, string>> = {
  [join("src", "grounded", "injection.ts")]: "--inject SHAPES@LENGTHS: a length range after the shapes, not a target name",
};

describe("one place tests a name's form", () => {
  it("no file in src/ but targetRef.ts splits a name at @ or :, tests its prefix or slices it", () => {
    const offenders = sources(join(ROOT, "src"))
      .filter((file) => !file.endsWith(join("targets", "targetRef.ts")) && NOT_TARGET_NAMES[relative(ROOT, file)] === undefined)
      .flatMap((file) => {
        const text = readFileSync(file, "utf8");
        return NAME_FORM_TESTS.filter((re) => re.test(text)).map((re) => `${relative(ROOT, file)}: ${re.source}`);
      });
    expect(offenders).toEqual([]);
  });

  it("the patterns catch the forms that stood in kindOf, closedLoopRefusal, realCodeOf and productOf", () => {
    const stood = ['const at = name.lastIndexOf("@");', '${name.split("@")[0]}', "order(c, `x@${reported}`)", 'runtimeOf(name).split(":")[0]', 'const at = name.indexOf("@");', 'name.startsWith("candidate:")', 'name.startsWith(`${r}@`)'];
    const caught = stood.filter((line) => NAME_FORM_TESTS.some((re) => re.test(line)));
    // realCodeOf's fake name `x@VERSION` is no test of a form itself: the split it fed (versionOf) is.
    expect(stood.filter((line) => !caught.includes(line))).toEqual(["order(c, `x@${reported}`)"]);
  });
});
