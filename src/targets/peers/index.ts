// The peers, by the names `--target` and `loopsim compare` take.
import type { Target } from "../target.js";
import { CLINE_TARGET } from "./cline.js";
import { CREWAI_REACT_TARGET, CREWAI_TARGET } from "./crewai.js";
import { CRUSH_TARGET } from "./crush.js";
import { GEMINI_CLI_TARGET } from "./geminiCli.js";
import { gooseTarget } from "./goose.js";
import { KILO_TARGET } from "./kilo.js";
import { NONE_TARGET } from "./none.js";
import { OPENCODE_TARGET } from "./opencode.js";
import { OPENHANDS_TARGET } from "./openhands.js";
import { QWEN_CODE_TARGET, QWEN_HEURISTICS_TARGET } from "./qwenCode.js";
import { ROO_CODE_TARGET } from "./rooCode.js";

/** Goose ships with its inspector off; compare runs it at the limit most peers act at. */
export const GOOSE_COMPARED_LIMIT = 5;

export const PEER_TARGETS: readonly Target[] = [
  GEMINI_CLI_TARGET,
  QWEN_CODE_TARGET,
  OPENHANDS_TARGET,
  ROO_CODE_TARGET,
  CLINE_TARGET,
  KILO_TARGET,
  OPENCODE_TARGET,
  CRUSH_TARGET,
  CREWAI_TARGET,
  CREWAI_REACT_TARGET,
  gooseTarget(undefined),
  NONE_TARGET,
];

/** Peers set up otherwise than shipped (not in compare's default rows): `qwen-code:heuristics`. */
export const PEER_VARIANTS: readonly Target[] = [QWEN_HEURISTICS_TARGET];
