// `npm run contract`: rewrites docs/CONTRACT-coverage.md from the tests (see coverage.ts).
import { join } from "node:path";
import { writeFileAtomic } from "../io/atomicWrite.js";
import { packageRoot } from "../io/packageRoot.js";
import { coverageMarkdown } from "./coverage.js";

const root = packageRoot();
writeFileAtomic(join(root, "docs", "CONTRACT-coverage.md"), coverageMarkdown(root));
process.stdout.write("wrote docs/CONTRACT-coverage.md\n");
