// Token cost of a call or result, derived deterministically from its size (about 4 characters
// a token, plus a fixed overhead per message), so wasted tokens are comparable across configs.
const OVERHEAD_TOKENS = 12;

export function tokensOf(value: unknown): number {
  const text = value === undefined ? "" : JSON.stringify(value) ?? "";
  return OVERHEAD_TOKENS + Math.ceil(text.length / 4);
}
