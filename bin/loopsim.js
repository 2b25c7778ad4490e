#!/usr/bin/env node
// The compiled CLI. A checkout builds it with `npm test`, `npm start` or `npm run build`; the
// package ships it built, so installing runs no script (npm would warn about one). From a fresh
// checkout that has not built yet, say how, instead of a module-not-found stack.
import { existsSync } from "node:fs";

const main = new URL("../dist/src/cli/main.js", import.meta.url);
if (!existsSync(main)) {
  process.stderr.write("loopsim: not built yet: run `npm run build` (or `npm test`) in the checkout first\n");
  process.exit(2);
}
await import(main.href);
