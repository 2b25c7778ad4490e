// The shape a stuck stretch takes for the open-loop replay of real sessions, whoever found it (the
// miner, or a person reading the session): its own file, so the miner's and the readings' sources
// of stretches both build it without importing the replay that consumes them.
import type { StretchKind } from "../realLoops/mine.js";

/** A stretch as the replay needs it: its kind, and each call's event positions. */
export interface KnownStretch {
  readonly kind: StretchKind;
  readonly firstEvent: number;
  readonly lastEvent: number;
  /** Per call of the stretch: the position of its call event, and its tokens (args and answer). */
  readonly calls: readonly { readonly at: number; readonly tokens: number }[];
}
