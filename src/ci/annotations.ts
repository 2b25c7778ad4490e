// GitHub Actions annotations: workflow commands, one line each, that the runner turns into marks
// on the run's summary and, with a file and line, on the pull request's diff:
//   ::error file=F,line=L,title=T::MESSAGE
// The runner reads them from a step's stdout and stderr alike; loopsim writes them to stderr, so
// stdout stays the report (`--json` output still parses). Escaping is the runner's own: in the
// message %, CR and LF become %25, %0D and %0A; in a property also : and , (%3A, %2C).
import type { JUnitCase } from "./junit.js";

/**
 * Control characters other than CR and LF (which the runner's own escapes carry) shown as
 * \u{...}: raw, they would reach the log and the terminal of whoever reads it (an ESC sequence
 * from a recorded session can rewrite a line), and the runner drops some of them.
 */
const CONTROL = /[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const shown = (text: string): string => text.replace(CONTROL, (c) => `\\u{${(c.codePointAt(0) as number).toString(16).padStart(4, "0")}}`);

export interface Annotation {
  readonly level: "error" | "warning" | "notice";
  readonly title: string;
  readonly message: string;
  readonly file?: string;
  readonly line?: number;
}

export function escapeData(text: string): string {
  return shown(text).replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

export function annotationLine(a: Annotation): string {
  const props = [...(a.file === undefined ? [] : [`file=${escapeProperty(a.file)}`]), ...(a.line === undefined ? [] : [`line=${a.line}`]), `title=${escapeProperty(a.title)}`];
  return `::${a.level} ${props.join(",")}::${escapeData(a.message)}`;
}

/**
 * GitHub Actions workflow-command lines (`::error file=...::message`), one per annotation.
 *
 * @param annotations - what to annotate, and where.
 */
export function renderAnnotations(annotations: readonly Annotation[]): string {
  return annotations.map((a) => annotationLine(a) + "\n").join("");
}

/** Each failing or erroring case as an error annotation (`where` gives its file and line). */
export function annotationsOf(cases: readonly JUnitCase[], where: (c: JUnitCase) => { file?: string; line?: number; path?: string; noLine?: string } = () => ({})): Annotation[] {
  const out: Annotation[] = [];
  for (const c of cases) {
    const problem = c.failure ?? c.error;
    if (problem === undefined) continue;
    // A JSON path (messages[10]) is no place GitHub can mark: the file and the line the path
    // starts on are marked, and the path is said; when there is no line, the message says why.
    const { path, noLine, ...place } = where(c);
    out.push({ level: "error", title: `${c.classname}: ${c.name}`, message: path === undefined ? problem.text : `at ${path}${noLine === undefined ? "" : ` (${noLine})`}: ${problem.text}`, ...(place.file === undefined ? {} : { file: place.file }), ...(place.line === undefined ? {} : { line: place.line }) });
  }
  return out;
}
