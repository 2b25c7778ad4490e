// `conform` as test cases: one per contract rule per target (the matrix's cells), so a CI report
// lists "D2 detector order and thresholds" failing on the target, with the failing check, its
// minimal counterexample and the command that replays it.
import type { TargetConformance } from "../conform/matrix.js";
import { SPEC_RULES } from "../conform/rules.js";
import type { JUnitCase, JUnitSuite } from "./junit.js";

/**
 * A conformance column as a JUnit suite: one test case per rule, failures with their replay line.
 *
 * @param column - one target's conformance, as `conform` returns it.
 */
export function conformanceCases(column: TargetConformance): JUnitSuite {
  const cases = SPEC_RULES.map((rule): JUnitCase => {
    const cell = column.cells[rule.id];
    const name = `${rule.id} ${rule.title}`;
    const classname = `conform.${column.target}`;
    if (cell === undefined || cell.status === "untested") return { name, classname, skipped: `untested: ${cell?.reason ?? "no check covers this rule"}` };
    if (cell.status === "n/a") return { name, classname, skipped: `n/a: ${cell.reason ?? ""}` };
    if (cell.status === "pass") return { name, classname };
    const ce = cell.counterexample;
    const text = [
      `${column.target} breaks ${rule.id} (${rule.title}).`,
      `failing checks: ${(cell.failing ?? []).join(", ")}`,
      `${cell.reason ?? ""}`,
      ...(ce === undefined
        ? []
        : [
            `counterexample: ${ce.events} events${ce.file === "" ? "" : ` in ${ce.file}`}`,
            ...(ce.reference === undefined ? [] : [`  reference: ${ce.reference}`]),
            ...(ce.target === undefined ? [] : [`  ${column.target}: ${ce.target}`]),
            `replay: ${ce.replay}`,
          ]),
    ].join("\n");
    return { name, classname, failure: { message: `${rule.id} fails: ${(cell.failing ?? [])[0] ?? ""}`, type: "conformance", text } };
  });
  return { name: `loopsim conform ${column.target}`, cases };
}

/** A failing rule's counterexample file, for an annotation that marks it. */
export function counterexampleFileOf(text: string): string | undefined {
  // The whole rest of the line: a folder with a space in its name stays part of the path.
  return /^counterexample: \d+ events in (.+\.json)$/m.exec(text)?.[1];
}
