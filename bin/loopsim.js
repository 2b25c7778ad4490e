#!/usr/bin/env node
// The compiled CLI; `npm ci` builds it (the prepare script), `npm test` rebuilds it.
import "../dist/src/cli/main.js";
