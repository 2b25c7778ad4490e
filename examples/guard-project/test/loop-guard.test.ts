import { loadTarget } from "loopsim";
import { conformanceTests } from "loopsim/vitest";
conformanceTests(await loadTarget(process.env.LOOP_GUARD ?? "./src/guard.mjs"), { depth: Number(process.env.LOOPSIM_DEPTH ?? 1) });
