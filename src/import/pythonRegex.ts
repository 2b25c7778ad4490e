// A trajectory's own action regex, recorded in Python syntax (mini-swe-agent's
// `info.config.agent.action_regex`, applied with re.findall and re.DOTALL), as a JavaScript
// RegExp. Only the few constructs whose spelling differs are translated: named groups
// `(?P<n>...)` and back-references `(?P=n)`, `\A` and `\Z`, leading inline flags (i, m, s; a, L
// and u change nothing here) and the `{,n}` quantifier. Anything JavaScript would read
// differently or not at all (verbose mode, comments, conditionals, atomic groups, possessive
// quantifiers) makes the regex untranslatable: the caller then uses its default, because a regex
// read wrongly would find the wrong command, which is worse than the usual one.

const UNSUPPORTED_GROUP = /^\(\?(?:#|\(|>)/;
const POSSESSIVE = /^[*+?}]\+/;

/** The regex as a global, dotAll JavaScript RegExp, or undefined when it cannot be translated safely. */
export function fromPythonRegex(source: string): RegExp | undefined {
  let flags = "gs";
  let rest = source;
  const inline = /^\(\?([aiLmsux]+)\)/.exec(rest);
  if (inline !== null) {
    const letters = inline[1] as string;
    if (letters.includes("x")) return undefined;
    for (const letter of letters) if ((letter === "i" || letter === "m") && !flags.includes(letter)) flags += letter;
    rest = rest.slice(inline[0].length);
  }
  let out = "";
  let inClass = false;
  for (let i = 0; i < rest.length; i++) {
    const c = rest[i] as string;
    const tail = rest.slice(i);
    if (c === "\\") {
      const next = rest[i + 1];
      if (next === undefined) return undefined;
      if (!inClass && next === "A") out += "(?<![\\s\\S])";
      else if (!inClass && next === "Z") out += "(?![\\s\\S])";
      else out += c + next;
      i++;
      continue;
    }
    if (inClass) {
      if (c === "]") inClass = false;
      out += c;
      continue;
    }
    if (c === "[") {
      inClass = true;
      out += c;
      // A `]` right after `[` or `[^` is a literal in both dialects.
      if (rest[i + 1] === "^") {
        out += "^";
        i++;
      }
      if (rest[i + 1] === "]") {
        out += "\\]";
        i++;
      }
      continue;
    }
    if (UNSUPPORTED_GROUP.test(tail) || POSSESSIVE.test(tail)) return undefined;
    if (tail.startsWith("(?P<")) {
      out += "(?<";
      i += 3;
      continue;
    }
    const backRef = /^\(\?P=(\w+)\)/.exec(tail);
    if (backRef !== null) {
      out += `\\k<${backRef[1] as string}>`;
      i += backRef[0].length - 1;
      continue;
    }
    if (/^\(\?[aiLmsux-]+[:)]/.test(tail)) return undefined; // scoped or mid-pattern flags
    if (tail.startsWith("{,")) {
      out += "{0,";
      i++;
      continue;
    }
    out += c;
  }
  if (inClass) return undefined;
  try {
    return new RegExp(out, flags);
  } catch {
    return undefined;
  }
}

/** What re.findall gives for one match: the first group when the regex has groups, else the whole match. */
export function findallValue(match: RegExpMatchArray): string {
  return match.length > 1 ? (match[1] ?? "") : match[0];
}
