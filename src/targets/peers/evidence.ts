// What each peer model rests on: checked against the runtime's real code (which version, and
// how it was run), or modelled from a description only (and why its code cannot be run here).
// The checked ones are pinned by reports/peers/agreement.json; test/peerEvidence.test.ts keeps
// this table and that report in step.
import { parseTargetRef } from "../targetRef.js";

export interface PeerEvidence {
  /** The real runtime the model was checked against, by the name `--against` takes. */
  readonly checkedAgainst?: string;
  readonly text: string;
}

export const PEER_EVIDENCE: Readonly<Record<string, PeerEvidence>> = {
  "gemini-cli": { checkedAgainst: "gemini-cli@0.61.0", text: "checked against gemini-cli@0.61.0: its own LoopDetectionService (@google/gemini-cli-core) in-process" },
  "qwen-code": { checkedAgainst: "qwen-code@0.24.4", text: "checked against qwen-code@0.24.4: its CLI driven through the scripted model" },
  opencode: { checkedAgainst: "opencode@1.18.33", text: "checked against opencode@1.18.33: its CLI driven through the scripted model" },
  kilo: { checkedAgainst: "kilo@7.7.9", text: "checked against kilo@7.7.9: its CLI driven through the scripted model" },
  cline: { checkedAgainst: "cline@3.0.65", text: "checked against cline@3.0.65: its CLI driven through the scripted model" },
  crush: { text: "modelled from its source (internal/agent/loop_detection.go); its npm package downloads the binary from GitHub at install, which cannot be reached here" },
  openhands: { text: "modelled from a description only: a Python package (openhands-sdk); PyPI cannot be reached here" },
  "roo-code": { text: "modelled from a description only: a VS Code extension, with no headless package" },
  goose: { text: "modelled from its source (tool_monitor.rs: REP-001 and REP-002), not run: a Rust crate, not reachable here" },
  "qwen-code:heuristics": { text: "its heuristic probes driven against qwen-code:heuristics@0.24.4 (the CLI with model.skipLoopDetection false); not yet in the committed reports/peers" },
  crewai: { text: "modelled from a description only: a Python package; PyPI cannot be reached here" },
  "crewai-react": { text: "modelled from a description only: a Python package; PyPI cannot be reached here" },
};

/** The evidence line for a target name (`goose:5` is Goose's); a row name that is no target is looked up as it is. */
export function evidenceFor(name: string): PeerEvidence | undefined {
  const parsed = parseTargetRef(name);
  return PEER_EVIDENCE[name] ?? (parsed.ok && parsed.ref.kind === "peer" ? PEER_EVIDENCE[parsed.ref.peer] : undefined);
}
