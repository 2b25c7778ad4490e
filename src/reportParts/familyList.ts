// The families a report has numbers for, in one order for its tables and its heatmap: the
// hand-written ones (all of them but the opt-in ones, or those present), then any other present by name: the fitted
// family and real sessions (progressing), and injected loop shapes (stuck).
import { FAMILIES } from "../sim/families.js";

export interface FamilyRow {
  readonly name: string;
  readonly label: string;
}

export function familyList(byFamilies: readonly Readonly<Record<string, unknown>>[], every: boolean): FamilyRow[] {
  const present = (name: string) => byFamilies.some((b) => b[name] !== undefined);
  const others = [...new Set(byFamilies.flatMap((b) => Object.keys(b)))].filter((name) => !FAMILIES.some((f) => f.name === name)).sort();
  return [...FAMILIES.filter((f) => (every && f.optIn !== true) || present(f.name)), ...others.map((name) => ({ name, label: name.startsWith("inject:") ? "stuck" : "progressing" }))];
}
