// Actions written as Python calls, as some mini-swe-agent harnesses ask for (the CaM runs:
// `return exec_bash_cmd('grep ...')`, `print_code_context('a.py', (1, 140))`, inside a decorated
// `def`). The statement-level calls are found and their argument lists parsed as Python literals
// (strings with every prefix and quote, numbers, tuples, lists, dicts, True/False/None, nested
// calls, keyword arguments); an argument that is no literal (a variable, an expression) is kept
// as its source text, {expr: "..."}, so two calls with the same text still compare equal. A
// variable the action binds once, before the call, to a plain string literal is that string
// (`cmd = 'grep -n x a.py'` then `exec_bash_cmd(cmd)` ran grep): kept as the name, every such
// command of a session read as the same call, `bash {"command": {"expr": "cmd"}}`, and the miner
// and every guard saw identical repeats where the agent sent a different command each time.
// This is a reader of literals, not a Python interpreter: nothing is evaluated.

export type PyValue = string | number | boolean | null | PyValue[] | { readonly [key: string]: PyValue };

export interface PythonCall {
  readonly name: string;
  readonly args: readonly PyValue[];
  readonly kwargs: Readonly<Record<string, PyValue>>;
}

const KEYWORDS: ReadonlySet<string> = new Set(["def", "class", "if", "elif", "else", "while", "for", "with", "try", "except", "finally", "import", "from", "raise", "assert", "del", "pass", "lambda", "not", "and", "or", "in", "is", "yield", "global", "nonlocal", "async"]);
const IDENT = /[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*/y;
const STRING_START = /([rRbBuUfF]{0,2})('''|"""|'|")/y;
const NUMBER = /-?(?:0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|(?:\d[\d_]*)?\.?\d[\d_]*(?:[eE][+-]?\d+)?)/y;

class Reader {
  constructor(
    readonly text: string,
    public at = 0,
  ) {}

  peek(): string {
    return this.text[this.at] ?? "";
  }

  /** Skips spaces, and inside brackets newlines, line continuations and comments too. */
  space(inBrackets: boolean): void {
    for (;;) {
      const c = this.peek();
      if (c === " " || c === "\t" || c === "\r" || c === "\f") this.at++;
      else if (c === "\\" && this.text[this.at + 1] === "\n") this.at += 2;
      else if (inBrackets && c === "\n") this.at++;
      else if (inBrackets && c === "#") {
        const end = this.text.indexOf("\n", this.at);
        this.at = end < 0 ? this.text.length : end;
      } else return;
    }
  }

  match(re: RegExp): RegExpExecArray | null {
    re.lastIndex = this.at;
    const m = re.exec(this.text);
    if (m !== null) this.at = re.lastIndex;
    return m;
  }
}

const BACKSLASH_CODE = 0x5c;
const NEWLINE_CODE = 0x0a;
const ESCAPES: Readonly<Record<string, string>> = { n: "\n", t: "\t", r: "\r", "0": "\0", a: "\x07", b: "\b", f: "\f", v: "\v", "\\": "\\", "'": "'", '"': '"', "\n": "" };

/** One string literal's value at the reader, or undefined when there is none (or it is unclosed). */
function stringLiteral(r: Reader): string | undefined {
  const start = r.at;
  const m = r.match(STRING_START);
  if (m === null) return undefined;
  const raw = /[rR]/.test(m[1] as string);
  const quote = m[2] as string;
  const closing = quote.charCodeAt(0);
  let value = "";
  for (;;) {
    if (r.at >= r.text.length) {
      r.at = start;
      return undefined;
    }
    if (r.text.startsWith(quote, r.at)) {
      r.at += quote.length;
      return value;
    }
    const c = r.text[r.at] as string;
    if (c === "\n" && quote.length === 1) {
      r.at = start;
      return undefined;
    }
    if (c === "\\") {
      const next = r.text[r.at + 1] ?? "";
      if (raw) {
        value += c + next;
        r.at += 2;
        continue;
      }
      const hex = next === "x" ? /^[0-9a-fA-F]{2}/.exec(r.text.slice(r.at + 2, r.at + 4)) : next === "u" ? /^[0-9a-fA-F]{4}/.exec(r.text.slice(r.at + 2, r.at + 6)) : null;
      if (hex !== null) {
        value += String.fromCharCode(parseInt(hex[0], 16));
        r.at += 2 + hex[0].length;
        continue;
      }
      const known = ESCAPES[next];
      value += known ?? c + next; // an unknown escape keeps its backslash, as Python does
      r.at += 2;
      continue;
    }
    // An ordinary character, and with it the ordinary ones after it (up to the next that may close
    // the string, escape or end a line): the same value as one character at a time, without a
    // string built up character by character (a heredoc of kilobytes in one argument).
    let end = r.at + 1;
    while (end < r.text.length) {
      const d = r.text.charCodeAt(end);
      if (d === closing || d === BACKSLASH_CODE || d === NEWLINE_CODE) break;
      end++;
    }
    value += r.text.slice(r.at, end);
    r.at = end;
  }
}

/** One literal or call at the reader; undefined (reader unmoved) when it is not one. */
function value(r: Reader, depth: number): PyValue | undefined {
  const start = r.at;
  r.space(depth > 0);
  const c = r.peek();
  if (/[rRbBuUfF'"]/.test(c)) {
    let text = stringLiteral(r);
    if (text !== undefined) {
      // Adjacent literals are one string ('a' 'b', also across lines inside brackets).
      for (;;) {
        const before = r.at;
        r.space(depth > 0);
        const more = stringLiteral(r);
        if (more === undefined) {
          r.at = before;
          break;
        }
        text += more;
      }
      return text;
    }
  }
  if (c === "(" || c === "[" || c === "{") {
    r.at++;
    const close = c === "(" ? ")" : c === "[" ? "]" : "}";
    const items: PyValue[] = [];
    const entries: [string, PyValue][] = [];
    let trailingComma = false;
    for (;;) {
      r.space(true);
      if (r.peek() === close) {
        r.at++;
        break;
      }
      const item = value(r, depth + 1);
      if (item === undefined) {
        r.at = start;
        return undefined;
      }
      r.space(true);
      if (c === "{" && r.peek() === ":") {
        r.at++;
        const v = value(r, depth + 1);
        if (v === undefined) {
          r.at = start;
          return undefined;
        }
        entries.push([typeof item === "string" ? item : JSON.stringify(item), v]);
        r.space(true);
      } else items.push(item);
      trailingComma = false;
      if (r.peek() === ",") {
        r.at++;
        trailingComma = true;
      } else if (r.peek() !== close) {
        r.at = start;
        return undefined;
      }
    }
    if (c === "{" && entries.length > 0) return Object.fromEntries(entries);
    if (c === "(" && items.length === 1 && !trailingComma) return items[0] as PyValue;
    return items;
  }
  const number = r.match(NUMBER);
  if (number !== null && number[0] !== "-" && number[0] !== "") {
    const n = Number(number[0].replace(/_/g, ""));
    if (Number.isFinite(n)) return n;
    r.at = start;
    return undefined;
  }
  const ident = r.match(IDENT);
  if (ident !== null) {
    const name = ident[0];
    if (name === "True") return true;
    if (name === "False") return false;
    if (name === "None") return null;
    const after = r.at;
    r.space(depth > 0);
    if (r.peek() === "(") {
      const call = argumentList(r, name, depth);
      if (call !== undefined) return { call: call.name, args: [...call.args], kwargs: { ...call.kwargs } };
    }
    r.at = after;
    return { expr: name };
  }
  r.at = start;
  return undefined;
}

/** The end of an argument that is no literal: the next comma or closing bracket at its level. */
function rawArgumentEnd(r: Reader): number {
  let depth = 0;
  let i = r.at;
  while (i < r.text.length) {
    const c = r.text[i] as string;
    if (c === "'" || c === '"') {
      const sub = new Reader(r.text, i);
      if (stringLiteral(sub) !== undefined) {
        i = sub.at;
        continue;
      }
    }
    if (c === "(" || c === "[" || c === "{") depth++;
    else if (c === ")" || c === "]" || c === "}") {
      if (depth === 0) return i;
      depth--;
    } else if (c === "," && depth === 0) return i;
    i++;
  }
  return i;
}

/** The argument list after `name` (the reader at its `(`), or undefined when it is not closed. */
function argumentList(r: Reader, name: string, depth: number): PythonCall | undefined {
  const start = r.at;
  r.at++; // (
  const args: PyValue[] = [];
  const kwargs: Record<string, PyValue> = {};
  for (;;) {
    r.space(true);
    if (r.at >= r.text.length) {
      r.at = start;
      return undefined;
    }
    if (r.peek() === ")") {
      r.at++;
      return { name, args, kwargs };
    }
    const keyword = /([A-Za-z_][A-Za-z0-9_]*)\s*=(?!=)/y;
    keyword.lastIndex = r.at;
    const kw = keyword.exec(r.text);
    if (kw !== null) r.at = keyword.lastIndex;
    const argStart = r.at;
    let v = value(r, depth + 1);
    r.space(true);
    if (v === undefined || (r.peek() !== "," && r.peek() !== ")")) {
      r.at = argStart;
      const end = rawArgumentEnd(r);
      v = { expr: r.text.slice(argStart, end).trim() };
      r.at = end;
    }
    if (kw !== null) kwargs[kw[1] as string] = v;
    else args.push(v);
    r.space(true);
    if (r.peek() === ",") r.at++;
    else if (r.peek() !== ")") {
      r.at = start;
      return undefined;
    }
  }
}

/**
 * The calls made at the start of a statement, in order: `f(...)`, `return f(...)`, `x = f(...)`,
 * `await f(...)`. `def` and `class` headers, decorators and comments are not calls; neither is a
 * call nested inside another call's arguments (it is part of that call's args). `print(f(...))`
 * is f's call: print only shows what the tool returned.
 */
export function pythonCalls(code: string): PythonCall[] {
  return callsIn(code, true);
}

/** pythonCalls stepping over every character between statements one at a time: the plain computation its skip stands for (test/loopsFastPaths.test.ts). */
export function pythonCallsStepwise(code: string): PythonCall[] {
  return callsIn(code, false);
}

/**
 * The characters the scan between statements acts on (a quote, a comment, a bracket, a backslash,
 * a newline, a semicolon, and a string prefix r b f u, but only right before a quote, where a
 * literal starts): at every other character the stepwise scan only steps on, so a run of them is
 * skipped in one search (the prose around a CaM action is most of its text). A prefix letter not
 * before a quote is stepped over by the stepwise scan too (it opens no literal and is no bracket,
 * comment or line end); counting those letters as stops, as this did, stopped the skip at about
 * every fifth character of English prose.
 */
const NEXT_ACTED_ON = /['"#()[\]{}\\\n;]|[rbfuRBFU](?=['"])/g;
const ACTED_ON_CODES = new Uint8Array(128);
for (const ch of `'"#()[]{}\\\n;`) ACTED_ON_CODES[ch.charCodeAt(0)] = 1;
for (const ch of "rbfuRBFU") ACTED_ON_CODES[ch.charCodeAt(0)] = 2;
/** Whether the scan acts on the character at `at` (NEXT_ACTED_ON would stop there). */
const isActedOn = (text: string, at: number): boolean => {
  const code = text.charCodeAt(at);
  const kind = code < 128 ? ACTED_ON_CODES[code] : 0;
  if (kind !== 2) return kind === 1;
  const next = text.charCodeAt(at + 1);
  return next === 39 /* ' */ || next === 34 /* " */;
};

function callsIn(code: string, skipPlain: boolean): PythonCall[] {
  const calls: { call: PythonCall; at: number }[] = [];
  const bindings: Binding[] = [];
  const r = new Reader(code.replace(/\r\n/g, "\n"));
  let depth = 0;
  let atStatement = true;
  while (r.at < r.text.length) {
    if (atStatement) {
      atStatement = false;
      r.space(false);
      const statement = r.at;
      if (r.peek() === "@" || r.peek() === "#") continue;
      const literal = literalAssignment(r);
      if (literal !== undefined) {
        bindings.push({ ...literal, at: statement });
        continue;
      }
      const target = r.match(/(?:return|await|yield)\s+/y) ?? r.match(ASSIGNED);
      // The names before the `=` (and before a type annotation's colon): each is bound here, to something no reader of literals knows.
      if (target !== null && !/^(?:return|await|yield)\s/.test(target[0])) for (const name of /^[^=:]*/.exec(target[0])?.[0].match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []) bindings.push({ name, at: statement });
      const ident = r.match(IDENT);
      if (ident !== null && !KEYWORDS.has(ident[0])) {
        r.space(false);
        if (r.peek() === "(") {
          const call = argumentList(r, ident[0], 0);
          if (call !== undefined) {
            const inner = call.name === "print" && call.args.length === 1 && Object.keys(call.kwargs).length === 0 ? nestedCall(call.args[0]) : undefined;
            calls.push({ call: inner ?? call, at: statement });
            continue;
          }
        }
      }
      r.at = Math.max(statement, r.at);
      if (ident !== null && KEYWORDS.has(ident[0])) continue;
    }
    if (skipPlain && !isActedOn(r.text, r.at)) {
      // This character is stepped over; so is every one up to the next acted on.
      NEXT_ACTED_ON.lastIndex = r.at + 1;
      const next = NEXT_ACTED_ON.exec(r.text);
      r.at = next === null ? r.text.length : next.index;
      continue;
    }
    const c = r.peek();
    if (c === "'" || c === '"' || ((c === "r" || c === "b" || c === "f" || c === "u" || c === "R" || c === "B" || c === "F" || c === "U") && /['"]/.test(r.text[r.at + 1] ?? ""))) {
      if (stringLiteral(r) !== undefined) continue;
    }
    if (c === "#") {
      const end = r.text.indexOf("\n", r.at);
      r.at = end < 0 ? r.text.length : end;
      continue;
    }
    if (c === "(" || c === "[" || c === "{") depth++;
    else if (c === ")" || c === "]" || c === "}") depth = Math.max(0, depth - 1);
    else if (c === "\\" && r.text[r.at + 1] === "\n") {
      r.at += 2;
      continue;
    } else if (c === "\\" && r.text[r.at + 1] === "n" && depth === 0) {
      // Some models write a whole body on one line with escaped newlines (`x = 1\n    f()`);
      // the harness ran it as lines, so an escaped newline between statements ends one.
      r.at += 2;
      atStatement = true;
      continue;
    } else if ((c === "\n" || c === ";") && depth === 0) atStatement = true;
    r.at++;
  }
  return calls.map(({ call, at }) => resolved(call, at, bindings, r.text));
}

/** The names an assignment statement binds (`a = `, `a, b = `, `a: str = `), matched at its start. */
const ASSIGNED = /[A-Za-z_][A-Za-z0-9_]*(?:\s*,\s*[A-Za-z_][A-Za-z0-9_]*)*\s*(?::\s*[^=\n]+)?=(?!=)\s*/y;

/** A string literal's prefix, where one starts (STRING_START, anchored to a slice). */
const LITERAL_PREFIX = /^([rRbBuUfF]{0,2})(?:'|")/;

/** A name bound at the start of a statement: to a plain string literal (`value`), or to anything else. */
interface Binding {
  readonly name: string;
  readonly at: number;
  readonly value?: string;
}

/**
 * `name = 'text'` as a whole statement (adjacent literals joined, also inside parentheses), at the
 * reader: the name and the string, the reader at the statement's end; else undefined, the reader
 * unmoved. An f-string or a bytes literal is no plain string (its value is not its text).
 */
function literalAssignment(r: Reader): { name: string; value: string } | undefined {
  const start = r.at;
  const target = r.match(/([A-Za-z_][A-Za-z0-9_]*)[ \t]*=(?!=)[ \t]*/y);
  if (target === null) return undefined;
  const bracketed = r.peek() === "(";
  if (bracketed) r.at++;
  let value: string | undefined;
  for (;;) {
    const before = r.at;
    r.space(bracketed);
    const prefix = LITERAL_PREFIX.exec(r.text.slice(r.at, r.at + 5));
    const part = prefix === null || /[fFbB]/.test(prefix[1] as string) ? undefined : stringLiteral(r);
    if (part === undefined) {
      r.at = before;
      break;
    }
    value = (value ?? "") + part;
  }
  r.space(bracketed);
  if (bracketed && r.peek() === ")") r.at++;
  else if (bracketed) value = undefined;
  r.space(false);
  const end = r.peek();
  if (value === undefined || !(end === "" || end === "\n" || end === ";" || end === "#")) {
    r.at = start;
    return undefined;
  }
  return { name: target[1] as string, value };
}

/**
 * The call with each argument that names a variable bound to a plain string replaced by that
 * string: only a name the action binds once, by a statement before the call, and that no `for`,
 * `with ... as`, `except ... as`, `import ... as` or augmented assignment binds too (a name bound
 * in a loop or twice holds what the run made of it, which a reader of literals cannot know).
 */
function resolved(call: PythonCall, at: number, bindings: readonly Binding[], text: string): PythonCall {
  if (bindings.length === 0) return call;
  const known = new Map<string, string | undefined>();
  const valueOf = (name: string): string | undefined => {
    if (known.has(name)) return known.get(name);
    const bound = bindings.filter((b) => b.name === name);
    const only = bound.length === 1 ? bound[0] : undefined;
    const otherwise = new RegExp(`\\b(?:for|as)\\s+(?:[A-Za-z_][A-Za-z0-9_]*\\s*,\\s*)*${name}\\b|\\b${name}\\s*(?:[-+*/%&|^@]|//|\\*\\*|<<|>>)=`);
    const value = only !== undefined && only.at < at && only.value !== undefined && !otherwise.test(text) ? only.value : undefined;
    known.set(name, value);
    return value;
  };
  const swap = (v: PyValue): PyValue => {
    if (v === null || typeof v !== "object") return v;
    if (Array.isArray(v)) return v.map(swap);
    const o = v as Record<string, PyValue>;
    const keys = Object.keys(o);
    if (keys.length === 1 && keys[0] === "expr" && typeof o.expr === "string" && /^[A-Za-z_][A-Za-z0-9_]*$/.test(o.expr)) return valueOf(o.expr) ?? v;
    return Object.fromEntries(keys.map((k) => [k, swap(o[k] as PyValue)]));
  };
  return { name: call.name, args: call.args.map(swap), kwargs: Object.fromEntries(Object.entries(call.kwargs).map(([k, v]) => [k, swap(v)])) };
}

function nestedCall(v: PyValue | undefined): PythonCall | undefined {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return undefined;
  const o = v as { call?: unknown; args?: unknown; kwargs?: unknown };
  if (typeof o.call !== "string" || !Array.isArray(o.args)) return undefined;
  return { name: o.call, args: o.args as PyValue[], kwargs: (o.kwargs ?? {}) as Record<string, PyValue> };
}

/**
 * The tools a harness declares in its system prompt, as numbered signatures
 * (`2. print_code_context(file_path: str, lines:Tuple): ...`): each tool's parameter names, in order.
 */
export function declaredSignatures(systemPrompt: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const m of systemPrompt.matchAll(/^\s*\d+\.\s*([A-Za-z_]\w*)\(([^()]*(?:\([^()]*\)[^()]*)*)\)\s*:/gm)) {
    const params = splitTopLevel(m[2] as string)
      .map((p) => (/^\s*\**([A-Za-z_]\w*)/.exec(p)?.[1] ?? ""))
      .filter((p) => p !== "");
    if (!out.has(m[1] as string)) out.set(m[1] as string, params);
  }
  return out;
}

function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "[" || c === "(") depth++;
    else if (c === "]" || c === ")") depth--;
    else if (c === "," && depth === 0) {
      parts.push(text.slice(from, i));
      from = i + 1;
    }
  }
  parts.push(text.slice(from));
  return parts;
}
