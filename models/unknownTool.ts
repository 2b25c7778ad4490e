// SPEC H3: the name of an unavailable tool, read from an error's text.
const UNKNOWN_TOOL_PATTERNS: readonly RegExp[] = [
  /unknown tool[:\s]+["']?([a-z0-9_.-]+)/i,
  /tool\s+["']?([a-z0-9_.-]+)["']?\s+(?:not found|is not available)/i,
];

export function extractUnknownTool(errorText: string): string | undefined {
  let best: { index: number; name: string } | undefined;
  for (const pattern of UNKNOWN_TOOL_PATTERNS) {
    const match = pattern.exec(errorText);
    // Both patterns capture the name, so a match always has it.
    if (match !== null && (best === undefined || match.index < best.index)) {
      best = { index: match.index, name: (match[1] as string).toLowerCase() };
    }
  }
  return best?.name;
}
