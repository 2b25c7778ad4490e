// What CI systems read: --junit FILE and --annotations on conform, replay and scan. No XSD
// validator is installed (none ships with Node, and the suite runs offline), so the JUnit files
// are parsed here and checked against the rules of the common Jenkins/Ant schema (junit-10.xsd):
// testsuites > testsuite > testcase > failure | error | skipped | system-out, each element only
// where the schema allows it, required attributes present, no attribute the schema lacks,
// counts that are integers and add up, times that are decimals, and well-formed text (only the
// five XML entities, no raw < or &). The annotations must be GitHub's workflow commands.
import { describe, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { annotationLine, escapeData, escapeProperty } from "../src/ci/annotations.js";
import { renderJUnit, xmlText } from "../src/ci/junit.js";
import { loopsim, tempDir } from "./cli/run.js";

interface XmlNode {
  readonly name: string;
  readonly attrs: Record<string, string>;
  readonly children: XmlNode[];
  text: string;
}

const ENTITY = /&(?!(amp|lt|gt|quot|apos);)/;

function decode(text: string): string {
  return text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, "&");
}

/** A strict parser for the XML loopsim writes: a declaration, elements, attributes, text. */
function parseXml(xml: string): XmlNode {
  expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
  const body = xml.slice(xml.indexOf("\n") + 1);
  const stack: XmlNode[] = [];
  let root: XmlNode | undefined;
  const token = /<(\/?)([A-Za-z][\w-]*)((?:\s+[\w-]+="[^"<]*")*)\s*(\/?)>|([^<]+)/gy;
  let m: RegExpExecArray | null;
  let consumed = 0;
  while ((m = token.exec(body)) !== null) {
    consumed = token.lastIndex;
    const [, closing, name, attrText, selfClosing, text] = m;
    if (text !== undefined) {
      expect(ENTITY.test(text), `a raw & in ${JSON.stringify(text.slice(0, 80))}`).toBe(false);
      expect(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/.test(text), "a control character XML cannot hold").toBe(false);
      if (stack.length > 0) (stack.at(-1) as XmlNode).text += decode(text);
      else expect(text.trim()).toBe("");
      continue;
    }
    if (closing === "/") {
      const open = stack.pop();
      expect(open?.name).toBe(name);
      continue;
    }
    const attrs: Record<string, string> = {};
    for (const a of (attrText ?? "").matchAll(/([\w-]+)="([^"]*)"/g)) {
      expect(ENTITY.test(a[2] as string)).toBe(false);
      expect(attrs[a[1] as string], `attribute ${a[1]} twice`).toBeUndefined();
      attrs[a[1] as string] = decode(a[2] as string);
    }
    const node: XmlNode = { name: name as string, attrs, children: [], text: "" };
    if (stack.length > 0) (stack.at(-1) as XmlNode).children.push(node);
    else {
      expect(root, "one root element").toBeUndefined();
      root = node;
    }
    if (selfClosing !== "/") stack.push(node);
  }
  expect(consumed, "the whole document parses").toBe(body.length);
  expect(stack).toEqual([]);
  return root as XmlNode;
}

/** junit-10.xsd, as rules: per element, its attributes (required ones marked) and its children. */
const SCHEMA: Record<string, { required: string[]; optional: string[]; children: string[]; text?: boolean }> = {
  testsuites: { required: [], optional: ["name", "time", "tests", "failures", "disabled", "errors"], children: ["testsuite"] },
  testsuite: { required: ["name", "tests"], optional: ["failures", "errors", "time", "disabled", "skipped", "timestamp", "hostname", "id", "package", "file", "log", "url", "version"], children: ["properties", "testcase", "system-out", "system-err"] },
  testcase: { required: ["name"], optional: ["assertions", "time", "classname", "status"], children: ["skipped", "error", "failure", "system-out", "system-err"] },
  failure: { required: [], optional: ["message", "type"], children: [], text: true },
  error: { required: [], optional: ["message", "type"], children: [], text: true },
  skipped: { required: [], optional: ["message"], children: [], text: true },
  "system-out": { required: [], optional: [], children: [], text: true },
  "system-err": { required: [], optional: [], children: [], text: true },
};
const INTEGER = ["tests", "failures", "errors", "skipped", "disabled", "assertions", "id"];

function validate(node: XmlNode, path = node.name): void {
  const rule = SCHEMA[node.name];
  expect(rule, `${path}: an element the schema does not have`).toBeDefined();
  for (const a of rule!.required) expect(node.attrs[a], `${path}: required attribute ${a}`).toBeDefined();
  for (const a of Object.keys(node.attrs)) expect([...rule!.required, ...rule!.optional], `${path}: attribute ${a}`).toContain(a);
  for (const a of INTEGER) if (node.attrs[a] !== undefined) expect(node.attrs[a], `${path}@${a}`).toMatch(/^\d+$/);
  if (node.attrs.time !== undefined) expect(node.attrs.time).toMatch(/^\d+(\.\d+)?$/);
  if (rule!.text !== true) expect(node.text.trim(), `${path}: text where the schema has none`).toBe("");
  for (const child of node.children) {
    expect(rule!.children, `${path}: ${child.name} inside ${node.name}`).toContain(child.name);
    validate(child, `${path}/${child.name}[${child.attrs.name ?? ""}]`);
  }
  if (node.name === "testcase") expect(node.children.filter((c) => c.name === "skipped").length).toBeLessThanOrEqual(1);
  if (node.name === "testsuite" || node.name === "testsuites") {
    const cases = node.name === "testsuite" ? node.children.filter((c) => c.name === "testcase") : node.children.flatMap((s) => s.children.filter((c) => c.name === "testcase"));
    const having = (kind: string) => cases.filter((c) => c.children.some((x) => x.name === kind)).length;
    expect(Number(node.attrs.tests)).toBe(cases.length);
    expect(Number(node.attrs.failures)).toBe(having("failure"));
    expect(Number(node.attrs.errors)).toBe(having("error"));
    if (node.attrs.skipped !== undefined) expect(Number(node.attrs.skipped)).toBe(having("skipped"));
  }
}

function junitOf(file: string): XmlNode {
  const root = parseXml(readFileSync(file, "utf8"));
  expect(root.name).toBe("testsuites");
  validate(root);
  return root;
}

const casesOf = (root: XmlNode) => root.children.flatMap((s) => s.children.filter((c) => c.name === "testcase"));
const failureOf = (c: XmlNode) => c.children.find((x) => x.name === "failure");
/** GitHub's form: ::error PROPS::MESSAGE, properties key=value joined by commas, escaped. */
const ANNOTATION = /^::error (?:file=[^,:\r\n]+,)?(?:line=\d+,)?title=[^,:\r\n]+::[^\r\n]*$/;

describe("JUnit XML and GitHub annotations", () => {
  it("escapes as the XML spec and the Actions runner require", () => {
    expect(escapeData("50% done\r\nnext")).toBe("50%25 done%0D%0Anext");
    expect(escapeProperty("a:b,c%\n")).toBe("a%3Ab%2Cc%25%0A");
    expect(annotationLine({ level: "error", file: "x,y.json", line: 3, title: "R1: runs", message: "one\ntwo" })).toBe("::error file=x%2Cy.json,line=3,title=R1%3A runs::one%0Atwo");
    expect(xmlText(`<a href="x">&'\u0000\u202e`)).toBe("&lt;a href=&quot;x&quot;&gt;&amp;&apos;\\u0000\u202e");
    const xml = renderJUnit([{ name: "s", cases: [{ name: "weird \u0001 <name>", classname: "c", failure: { message: "m&", type: "t", text: "]]> & \u0007" } }] }], "run");
    validate(parseXml(xml));
  });

  it("conform: one case per rule, the failing rule with its counterexample and replay line; annotations on stderr", () => {
    const dir = tempDir();
    const junit = join(dir, "conform.xml");
    const res = loopsim(["conform", "--target", "zoo:no-run-scoping", "--law", "fresh-run-starts-from-zero", "--junit", junit, "--annotations", "--json"]);
    expect(res.code, res.stderr).toBe(1);
    JSON.parse(res.stdout); // stdout is still the report alone
    const root = junitOf(junit);
    const cases = casesOf(root);
    expect(cases.length).toBe(38);
    const failing = cases.filter((c) => failureOf(c) !== undefined);
    expect(failing.map((c) => c.attrs.name.split(" ")[0])).toEqual(["R1", "K2"]);
    const text = failureOf(failing[0]!)!.text;
    expect(text).toContain("zoo:no-run-scoping breaks R1");
    expect(text).toMatch(/^replay: loopsim conform --target zoo:no-run-scoping --law fresh-run-starts-from-zero --seed 20261202 --path [\d:]+$/m);
    const annotations = res.stderr.split("\n").filter((l) => l.startsWith("::"));
    expect(annotations.length).toBe(2);
    for (const a of annotations) expect(a).toMatch(ANNOTATION);
    expect(annotations[0]).toMatch(/^::error title=conform\.zoo%3Ano-run-scoping%3A R1 one window%2C read per run::zoo:no-run-scoping breaks R1 .*%0Areplay: loopsim conform/);
  });

  it("replay: one case per scenario file; scan: one case per session, a blocked one failing with its place", () => {
    const dir = tempDir();
    const sessions = tempDir();
    const scenario = join(import.meta.dirname, "..", "scenarios", "upstream", "k2-heartbeat-runs.json");
    const replayed = loopsim(["replay", scenario, join(import.meta.dirname, "..", "scenarios", "spec", "enabled-false-silent.json"), "--target", "zoo:no-run-scoping", "--junit", join(dir, "replay.xml"), "--annotations"]);
    expect(replayed.code, replayed.stderr).toBe(1);
    const replayCases = casesOf(junitOf(join(dir, "replay.xml")));
    expect(replayCases.map((c) => failureOf(c) !== undefined)).toEqual([true, false]);
    expect(failureOf(replayCases[0]!)!.text).toContain(`replay: loopsim replay ${scenario} --target zoo:no-run-scoping`);
    expect(replayed.stderr.split("\n").filter((l) => l.startsWith("::"))).toEqual([expect.stringMatching(new RegExp(`^::error file=${scenario.replace(/[/.]/g, "\\$&")},title=`))]);

    const loop = join(sessions, "loop.jsonl");
    const quiet = join(sessions, "quiet.jsonl");
    const call = (i: number) => JSON.stringify({ type: "call", runId: "r", callId: `c${i}`, tool: "read", params: { path: "a" } });
    const outcome = (i: number) => JSON.stringify({ type: "outcome", runId: "r", callId: `c${i}`, tool: "read", params: { path: "a" }, result: "same" });
    writeFileSync(loop, Array.from({ length: 25 }, (_, i) => `${call(i)}\n${outcome(i)}\n`).join(""));
    writeFileSync(quiet, `${call(0)}\n${outcome(0)}\n`);
    const config = join(tempDir(), "on.json");
    writeFileSync(config, JSON.stringify({ tools: { loopDetection: { enabled: true } } }));
    const scanned = loopsim(["scan", sessions, "--config", config, "--junit", join(dir, "out", "scan.xml"), "--annotations"], undefined, dir);
    expect(scanned.code, scanned.stderr).toBe(0);
    const scanCases = casesOf(junitOf(join(dir, "out", "scan.xml")));
    expect(scanCases.map((c) => [c.attrs.name, failureOf(c) !== undefined])).toEqual([["loop.jsonl", true], ["quiet.jsonl", false]]);
    expect(failureOf(scanCases[0]!)!.text).toMatch(/^first block: \S+loop\.jsonl:\d+, event \d+: read/m);
    const marks = scanned.stderr.split("\n").filter((l) => l.startsWith("::"));
    expect(marks).toHaveLength(1);
    expect(marks[0]).toMatch(ANNOTATION);
    expect(marks[0]).toMatch(/^::error file=\S+loop\.jsonl,line=\d+,title=scan\.reference%3A loop\.jsonl::/);
  });
});
