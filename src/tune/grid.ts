// The grid a sweep varies: `field=v1,v2;field=v1,...`, crossed. Combinations that break the
// ordering warning < critical < global are listed as skipped, with the reason.
import { isPlainObject } from "../../models/outcomeHash.js";
import { UserError } from "../io/errors.js";

export const GRID_FIELDS = [
  "enabled",
  "historySize",
  "warningThreshold",
  "criticalThreshold",
  "unknownToolThreshold",
  "globalCircuitBreakerThreshold",
  "windowSize",
  "genericRepeat",
  "knownPollNoProgress",
  "pingPong",
] as const;
export type GridField = (typeof GRID_FIELDS)[number];
export type GridValue = number | boolean | "unset";
export type GridAxis = { readonly field: GridField; readonly values: readonly GridValue[] };

export const DEFAULT_GRID = "warningThreshold=5,8,10,15;criticalThreshold=10,16,20,30;globalCircuitBreakerThreshold=30,40;windowSize=2,3,5";

const BOOLEAN_FIELDS: readonly GridField[] = ["enabled", "genericRepeat", "knownPollNoProgress", "pingPong"];

export function parseGrid(spec: string): GridAxis[] {
  const axes: GridAxis[] = [];
  const problems: string[] = [];
  for (const part of spec.split(";").map((p) => p.trim()).filter((p) => p !== "")) {
    const eq = part.indexOf("=");
    if (eq <= 0) {
      problems.push(`"${part}": expected field=value,value`);
      continue;
    }
    const name = part.slice(0, eq).trim().replace(/^(detectors|postCompactionGuard)\./, "");
    if (!(GRID_FIELDS as readonly string[]).includes(name)) {
      problems.push(`"${name}": unknown field (known: ${GRID_FIELDS.join(", ")})`);
      continue;
    }
    const field = name as GridField;
    if (axes.some((a) => a.field === field)) problems.push(`"${field}": given twice`);
    const values: GridValue[] = [];
    for (const raw of part.slice(eq + 1).split(",").map((v) => v.trim())) {
      if (BOOLEAN_FIELDS.includes(field)) {
        if (raw === "true" || raw === "false") values.push(raw === "true");
        else if (field === "enabled" && raw === "unset") values.push("unset");
        else problems.push(`${field}=${raw}: must be true or false${field === "enabled" ? " or unset" : ""}`);
      } else if (/^[1-9][0-9]*$/.test(raw)) values.push(Number(raw));
      else problems.push(`${field}=${raw}: must be a positive integer`);
    }
    if (values.length === 0) problems.push(`${field}: no values`);
    axes.push({ field, values: [...new Set(values)] });
  }
  if (problems.length > 0) throw new UserError(`--grid: ${problems.join("; ")}`);
  if (axes.length === 0) throw new UserError("--grid: empty (example: warningThreshold=5,8,10;criticalThreshold=16,20)");
  return axes;
}

export type Block = Record<string, unknown>;

/** The baseline block with one grid point laid over it. */
export function applyPoint(baseline: Block, point: ReadonlyMap<GridField, GridValue>): Block {
  const block: Block = { ...baseline };
  const detectors = isPlainObject(baseline.detectors) ? { ...baseline.detectors } : {};
  const guard = isPlainObject(baseline.postCompactionGuard) ? { ...baseline.postCompactionGuard } : {};
  for (const [field, value] of point) {
    if (field === "windowSize") guard.windowSize = value;
    else if (field === "genericRepeat" || field === "knownPollNoProgress" || field === "pingPong") detectors[field] = value;
    else if (field === "enabled" && value === "unset") delete block.enabled;
    else block[field] = value;
  }
  // Thresholds matter only with detection on: grid points enable it unless the grid says otherwise.
  if (!point.has("enabled")) block.enabled = true;
  if (Object.keys(detectors).length > 0) block.detectors = detectors;
  if (Object.keys(guard).length > 0) block.postCompactionGuard = guard;
  // enabled first in every snippet: it is the switch a reader looks for.
  const { enabled, ...rest } = block;
  return enabled === undefined ? rest : { enabled, ...rest };
}

export interface ExpandedGrid {
  readonly points: { readonly label: string; readonly block: Block }[];
  readonly skipped: { readonly label: string; readonly reason: string }[];
}

export function pointLabel(point: ReadonlyMap<GridField, GridValue>): string {
  return [...point].map(([f, v]) => `${f}=${String(v)}`).join(" ");
}

export function expandGrid(axes: readonly GridAxis[], baseline: Block, defaults: { warning: number; critical: number; global: number }): ExpandedGrid {
  const points: ExpandedGrid["points"][number][] = [];
  const skipped: ExpandedGrid["skipped"][number][] = [];
  const walk = (i: number, point: Map<GridField, GridValue>): void => {
    if (i === axes.length) {
      const block = applyPoint(baseline, point);
      const label = pointLabel(point);
      const num = (v: unknown, d: number) => (typeof v === "number" ? v : d);
      const w = num(block.warningThreshold, defaults.warning);
      const c = num(block.criticalThreshold, defaults.critical);
      const g = num(block.globalCircuitBreakerThreshold, defaults.global);
      if (!(w < c)) skipped.push({ label, reason: `warningThreshold ${w} must be below criticalThreshold ${c}` });
      else if (!(c < g)) skipped.push({ label, reason: `criticalThreshold ${c} must be below globalCircuitBreakerThreshold ${g}` });
      else points.push({ label, block });
      return;
    }
    const axis = axes[i] as GridAxis;
    for (const value of axis.values) {
      const next = new Map(point);
      next.set(axis.field, value);
      walk(i + 1, next);
    }
  };
  walk(0, new Map());
  return { points, skipped };
}
