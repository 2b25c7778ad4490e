// The library beyond the vitest helper: conform, laws and a trace, typed.
import { conform, laws, loadTarget, resolveConfig, runTrace, type ToolEvent } from "loopsim";
import { expect, it } from "vitest";

it("runs a trace and knows its laws", async () => {
  const guard = await loadTarget("./src/guard.mjs");
  const read: ToolEvent = { type: "call", runId: "r1", tool: "read", params: { path: "a" } };
  const outputs = runTrace(guard, [read, read], resolveConfig({ enabled: true }));
  expect(outputs.map((o) => o.kind)).toEqual(["call", "call"]);
  expect(laws.length).toBeGreaterThan(5);
  expect(typeof conform).toBe("function");
});
