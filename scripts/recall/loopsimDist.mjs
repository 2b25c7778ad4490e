// The part of loopsim's build (dist/) the recall viewers read sessions through, so that a reader
// sees the calls exactly as the miner numbers them; and the one way those scripts stop on a bad
// argument (exit 2, the message named by the script). Shared by show-stretch.mjs and show-session.mjs.
import { existsSync } from "node:fs";

/** Stops the script with exit code 2 (a user error), the message prefixed with the script's name. */
export function failer(script) {
  return (message) => {
    process.stderr.write(`${script}: ${message}\n`);
    process.exit(2);
  };
}

/** The importers and the miner's call numbering from dist/, or a stop saying to build first. */
export async function loopsimDist(script) {
  const dist = (path) => new URL(`../../dist/src/${path}`, import.meta.url);
  if (!existsSync(dist("realLoops/mine.js"))) failer(script)("loopsim is not built yet: run `npm run build` in the checkout first");
  const { readSessionEvents } = await import(dist("sessions/recorded.js").href);
  const { minedCalls } = await import(dist("realLoops/mine.js").href);
  const { sessionRefs } = await import(dist("import/sessionRefs.js").href);
  return { readSessionEvents, minedCalls, sessionRefs };
}
