// Small grammar for messages: "1 call", "2 calls"; "a poll", "an interleaved".
export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}

export function article(word: string): string {
  return `${/^[aeiou]/i.test(word) ? "an" : "a"} ${word}`;
}

/**
 * A value as JSON for a message, cut to `max` characters: a user's deeply nested or huge value is
 * named by its start and its size, never echoed whole into one error line.
 */
export function jsonExcerpt(value: unknown, max = 80): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value); // nested past what JSON.stringify can walk
  }
  return text.length <= max ? text : `${text.slice(0, max)}... (${text.length.toLocaleString("en-US")} characters)`;
}
