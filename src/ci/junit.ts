// JUnit XML, the report every CI system reads (Jenkins, GitLab, Azure, CircleCI, GitHub test
// reporters). The shape is the common Jenkins/Ant one (junit-10.xsd): <testsuites> holding one
// <testsuite> per target, one <testcase> per rule, scenario or session, with <failure>,
// <error> or <skipped>. Times are 0 and there is no timestamp: the same run writes the same bytes.

/** One test case: passed when it has no failure, error or skip. */
export interface JUnitCase {
  readonly name: string;
  readonly classname: string;
  /** A check that failed: a one-line message, a type, and the full text (counterexample, replay line). */
  readonly failure?: { readonly message: string; readonly type: string; readonly text: string };
  /** An input that could not be checked at all (an unreadable session, an invalid scenario). */
  readonly error?: { readonly message: string; readonly type: string; readonly text: string };
  /** Not judged, and why (n/a, untested, skipped). */
  readonly skipped?: string;
  /** Shown by reporters next to the case. */
  readonly output?: string;
}

export interface JUnitSuite {
  readonly name: string;
  readonly cases: readonly JUnitCase[];
}

/** Characters XML 1.0 cannot hold at all (C0 controls but tab, LF, CR; lone surrogates; U+FFFE/F). */
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text made safe for an attribute or element: markup escaped, impossible characters shown as \uXXXX. */
export function xmlText(text: string): string {
  return text
    .replace(NOT_XML, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

function attrs(pairs: Record<string, string | number>): string {
  return Object.entries(pairs)
    .map(([k, v]) => ` ${k}="${xmlText(String(v))}"`)
    .join("");
}

function caseXml(c: JUnitCase): string {
  const open = `    <testcase${attrs({ name: c.name, classname: c.classname, time: 0 })}`;
  const inner: string[] = [];
  if (c.skipped !== undefined) inner.push(`      <skipped${attrs({ message: c.skipped })}/>`);
  if (c.error !== undefined) inner.push(`      <error${attrs({ message: c.error.message, type: c.error.type })}>${xmlText(c.error.text)}</error>`);
  if (c.failure !== undefined) inner.push(`      <failure${attrs({ message: c.failure.message, type: c.failure.type })}>${xmlText(c.failure.text)}</failure>`);
  if (c.output !== undefined) inner.push(`      <system-out>${xmlText(c.output)}</system-out>`);
  return inner.length === 0 ? `${open}/>` : `${open}>\n${inner.join("\n")}\n    </testcase>`;
}

function counts(cases: readonly JUnitCase[]): { tests: number; failures: number; errors: number; skipped: number } {
  return {
    tests: cases.length,
    failures: cases.filter((c) => c.failure !== undefined).length,
    errors: cases.filter((c) => c.error !== undefined).length,
    skipped: cases.filter((c) => c.skipped !== undefined).length,
  };
}

/** The whole document: `name` names the run (say, "loopsim conform"). */
export function renderJUnit(suites: readonly JUnitSuite[], name: string): string {
  const all = counts(suites.flatMap((s) => s.cases));
  const lines = [`<?xml version="1.0" encoding="UTF-8"?>`, `<testsuites${attrs({ name, tests: all.tests, failures: all.failures, errors: all.errors, time: 0 })}>`];
  suites.forEach((s, id) => {
    const n = counts(s.cases);
    lines.push(`  <testsuite${attrs({ name: s.name, tests: n.tests, failures: n.failures, errors: n.errors, skipped: n.skipped, time: 0, id })}>`);
    for (const c of s.cases) lines.push(caseXml(c));
    lines.push("  </testsuite>");
  });
  lines.push("</testsuites>");
  return lines.join("\n") + "\n";
}
