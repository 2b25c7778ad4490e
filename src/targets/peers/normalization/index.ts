// Every runtime's call normalisation, by runtime, for docs, notes and tests.
import type { CallNormalization } from "./callView.js";
import { GEMINI_NORMALIZATION } from "./geminiCli.js";
import { GOOSE_NORMALIZATION } from "./goose.js";
import { KILO_NORMALIZATION, OPENCODE_NORMALIZATION } from "./opencode.js";
import { QWEN_NORMALIZATION } from "./qwenCode.js";
import { ROO_NORMALIZATION } from "./rooCode.js";
import { CLINE_NORMALIZATION, CREWAI_NORMALIZATION, OPENHANDS_NORMALIZATION } from "./unverified.js";

export const NORMALIZATIONS: readonly CallNormalization[] = [GEMINI_NORMALIZATION, QWEN_NORMALIZATION, OPENCODE_NORMALIZATION, KILO_NORMALIZATION, ROO_NORMALIZATION, GOOSE_NORMALIZATION, OPENHANDS_NORMALIZATION, CLINE_NORMALIZATION, CREWAI_NORMALIZATION];
