// The masking lives with the importers (src/import/mask.ts), where the candidate guard rules can
// reach it too; the miner's modules keep importing it from here.
export * from "../import/mask.js";
