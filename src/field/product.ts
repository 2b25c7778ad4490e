// What ran in a cell, and whose rule its verdict rests on. A model of a runtime is not the
// runtime; a CLI is not the VS Code extension a thread reports; and a verdict that rests on a
// threshold a later fix PR introduced says so, so nobody reads it as the product's own stop.
import type { FieldScenario } from "./fieldScenario.js";
import type { LoopEnd } from "./judge.js";
import { asTargetRef, printTargetRef, shippedCodeOf, versionLabelOf, type InProcessRuntime, type TargetRef } from "../targets/targetRef.js";

/** The product each driven runtime is: its CLI, from npm. */
const DRIVEN_PRODUCTS: Readonly<Record<string, string>> = {
  opencode: "opencode CLI",
  kilo: "Kilo CLI",
  cline: "Cline CLI",
  "qwen-code": "Qwen Code CLI",
  crush: "Crush CLI",
};

/** The product each runtime run in-process is. */
const IN_PROCESS_PRODUCTS: Readonly<Record<InProcessRuntime, string>> = { "gemini-cli": "Gemini CLI" };

export interface CellProduct {
  /** The product and version that ran (or the model), in words. */
  readonly ran: string;
  /** The thread's product this one stands in for, when they differ. */
  readonly standsInFor?: string;
  /** This cell runs the reported runtime's own code. */
  readonly ownCode: boolean;
}

export function productOf(target: string | TargetRef, scenario: Pick<FieldScenario, "runtime" | "reportedProduct">): CellProduct {
  const ref = asTargetRef(target);
  const name = printTargetRef(ref);
  const shipped = shippedCodeOf(ref);
  const ownCode = shipped !== undefined && shipped.runtime === scenario.runtime;
  let ran: string;
  switch (ref.kind) {
    case "reference":
      ran = "loopsim's reference guard (a model, not a shipped product)";
      break;
    case "peer":
      ran = `loopsim's model of ${name} (not its shipped code)`;
      break;
    case "release":
      ran = `OpenClaw ${versionLabelOf(ref)} from npm (its own detector, in-process; the caller around it emulated)`;
      break;
    case "build":
      ran = `an OpenClaw build from ${versionLabelOf(ref)} (its own detector, in-process; the caller around it emulated)`;
      break;
    case "oracle":
      ran = "loopsim's oracle (the reference read straight off SPEC.md, not a shipped product)";
      break;
    case "zoo":
      ran = `loopsim's bug-zoo variant ${name} (a deliberately broken reference, not a shipped product)`;
      break;
    case "candidate":
      ran = `loopsim's candidate rule ${name} (a rule no runtime ships)`;
      break;
    case "adapter":
      ran = `the guard behind the adapter ${name}`;
      break;
    case "inProcessRuntime":
      ran = `${IN_PROCESS_PRODUCTS[ref.runtime]} ${versionLabelOf(ref)} from npm (its own loop detection, in-process)`;
      break;
    case "drivenRuntime": {
      const runtime = shipped?.runtime ?? ref.runtime;
      const mode = shipped?.mode;
      ran = `${DRIVEN_PRODUCTS[runtime] ?? runtime} ${versionLabelOf(ref)} from npm, driven through its CLI${mode === undefined ? "" : ` (${mode})`}`;
      break;
    }
    default: {
      const unhandled: never = ref;
      throw new Error(`unhandled target reference ${JSON.stringify(unhandled)}`);
    }
  }
  const standsIn = ownCode && scenario.reportedProduct !== undefined ? scenario.reportedProduct : undefined;
  return { ran: standsIn === undefined ? ran : `${ran}, standing in for the ${standsIn} the thread reports`, ...(standsIn === undefined ? {} : { standsInFor: standsIn }), ownCode };
}

/** Whose rule a judged cell's verdict rests on: the target's own stop, or a fix PR's rule. */
export function restsOn(scenario: Pick<FieldScenario, "ruleFrom">, product: CellProduct, loop: LoopEnd): string {
  const stop = loop.firstStop === undefined ? "none" : `at call ${loop.firstStop}`;
  if (scenario.ruleFrom !== undefined) return `a rule taken from ${scenario.ruleFrom}, not the product's own behaviour (its own stop: ${stop})`;
  return product.ownCode ? `its own stop (${stop})` : `the scenario's predicate (the model's stop: ${stop})`;
}
