// Runtimes loaded in-process (OpenClaw releases, Gemini CLI) print on the console at import and
// when they log: nothing they print may reach loopsim's output. Mutes the console; the returned
// function restores it.
const NOTHING = (): undefined => undefined;

export function muteConsole(): () => void {
  const saved = { log: console.log, info: console.info, warn: console.warn, error: console.error, debug: console.debug };
  console.log = console.info = console.warn = console.error = console.debug = NOTHING;
  return () => Object.assign(console, saved);
}
