// Which orderings of the compared guards survive the reaction model. For each headline measure
// (stuck agents stopped, progressing agents stopped wrongly, loop tokens before the stop) and
// each pair of guards, the order at the stated model (better, worse or tied) is compared with
// the order at every point of the reaction grid (src/grounded/reactionGrid.ts). An ordering holds
// when it is the same at every point; otherwise the report says where it flips. Orders are read
// from point values, without intervals: a pair within noise of each other at the stated model can
// flip on noise, which is why the stated order's intervals are quoted beside each flip.
import type { GridCost, PointNumbers, ReactionGridSummary } from "../grounded/reactionGrid.js";

export const ORDER_MEASURES = [
  { key: "stuckStopped", title: "stuck stopped", at: 0, higherIsBetter: true },
  { key: "progressingStoppedWrongly", title: "progressing stopped wrongly", at: 5, higherIsBetter: false },
  { key: "loopTokensBeforeStop", title: "loop tokens before stop (median)", at: 6, higherIsBetter: false },
] as const;
export type OrderMeasure = (typeof ORDER_MEASURES)[number]["key"];

/** 1: the first guard is better, -1: the second, 0: tied. */
export type Order = 1 | 0 | -1;

export interface OrderingFlip {
  readonly a: string;
  readonly b: string;
  /** The order at the stated model, and each measure's values there. */
  readonly stated: Order;
  readonly values: readonly [number, number];
  /** The points whose order differs, with it. */
  readonly flips: readonly { readonly heed: number; readonly skip: number; readonly order: Order }[];
}

export interface MeasureSensitivity {
  readonly measure: OrderMeasure;
  readonly title: string;
  readonly pairs: number;
  /** Pairs whose order is the same at every point. */
  readonly holding: number;
  /** The best guards (ties together) at the stated model, and whether they are the best at every point. */
  readonly leaders: readonly string[];
  readonly leadersHold: boolean;
  readonly flipped: readonly OrderingFlip[];
}

export interface CompareReactionSensitivity {
  readonly grid: ReactionGridSummary;
  readonly measures: readonly MeasureSensitivity[];
  readonly cost: GridCost;
}

export interface GuardGrid {
  readonly name: string;
  readonly points: readonly PointNumbers[];
}

function orderOf(x: number, y: number, higherIsBetter: boolean): Order {
  if (x === y) return 0;
  return (x > y) === higherIsBetter ? 1 : -1;
}

function leadersAt(guards: readonly GuardGrid[], p: number, at: number, higherIsBetter: boolean): string[] {
  const values = guards.map((g) => (g.points[p] as PointNumbers)[at] as number);
  const best = higherIsBetter ? Math.max(...values) : Math.min(...values);
  return guards.filter((_, k) => values[k] === best).map((g) => g.name);
}

export function compareReactionSensitivity(guards: readonly GuardGrid[], grid: ReactionGridSummary, cost: GridCost): CompareReactionSensitivity {
  const measures = ORDER_MEASURES.map((m): MeasureSensitivity => {
    const flipped: OrderingFlip[] = [];
    let pairs = 0;
    for (let i = 0; i < guards.length; i++) {
      for (let j = i + 1; j < guards.length; j++) {
        pairs++;
        const a = guards[i] as GuardGrid;
        const b = guards[j] as GuardGrid;
        const value = (g: GuardGrid, p: number) => (g.points[p] as PointNumbers)[m.at] as number;
        const stated = orderOf(value(a, 0), value(b, 0), m.higherIsBetter);
        const flips = grid.points.flatMap((pt, p) => {
          const order = orderOf(value(a, p), value(b, p), m.higherIsBetter);
          return p === 0 || order === stated ? [] : [{ heed: pt.heed, skip: pt.skip, order }];
        });
        if (flips.length > 0) flipped.push({ a: a.name, b: b.name, stated, values: [value(a, 0), value(b, 0)], flips });
      }
    }
    const leaders = leadersAt(guards, 0, m.at, m.higherIsBetter);
    const leadersHold = grid.points.every((_, p) => leadersAt(guards, p, m.at, m.higherIsBetter).join("\u0000") === leaders.join("\u0000"));
    return { measure: m.key, title: m.title, pairs, holding: pairs - flipped.length, leaders, leadersHold, flipped };
  });
  return { grid, measures, cost };
}
