// One sentence naming the files a report's sessions could not include, so a reader of the report
// (not only of the terminal) knows what is missing from its numbers.
export function unreadableNote(unreadable: readonly { readonly file: string; readonly reason: string }[] | undefined): string {
  if (unreadable === undefined || unreadable.length === 0) return "";
  return ` ${unreadable.length} unreadable file${unreadable.length === 1 ? " was" : "s were"} skipped: ${unreadable.map((b) => `\`${b.file}\` (${b.reason})`).join("; ")}.`;
}
