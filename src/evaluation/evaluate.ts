// Evaluating configs: every agent of the population simulated under each config. Pure and
// deterministic per config, so any split over workers or shards gives the same rows.
import type { RowGrid } from "../grounded/reactionGrid.js";
import { configFrom } from "../../models/configResolution.js";
import { simulate } from "../sim/simulate.js";
import type { Target } from "../targets/target.js";
import { simulationOf, type AgentSpec } from "./population.js";
import { computeMetrics, type ConfigMetrics } from "./metrics.js";
import type { SessionTotals } from "../sessions/openLoop.js";

export interface ConfigJob {
  readonly index: number;
  readonly label: string;
  readonly block: Record<string, unknown>;
  /** The target this job runs, by name, when it is not the sweep's one (loopsim compare). */
  readonly target?: string;
}

export interface ConfigRow extends ConfigJob {
  readonly metrics: ConfigMetrics;
  /** What the config would have done to the recorded sessions (tune --sessions). */
  readonly sessions?: SessionTotals;
  /** The same config on real sessions run as closed-loop agents, with injected loops (tune --sessions PATH --inject SPEC). */
  readonly grounded?: ConfigMetrics;
  /** Its grounded numbers at each reaction-grid point, until the report is finished (src/grounded/reactionGrid.ts). */
  readonly reactionGrid?: RowGrid;
}

export function evaluateConfig(job: ConfigJob, agents: readonly AgentSpec[], calls: number, target: Target, onAgent?: () => void): ConfigRow {
  const config = configFrom(job.block);
  const summaries = agents.map((agent) => {
    const result = simulate(simulationOf(agent, calls), config, target);
    onAgent?.();
    return result.summary;
  });
  return { ...job, metrics: computeMetrics(summaries, `config-${job.index}`) };
}
