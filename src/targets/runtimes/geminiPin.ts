// Gemini CLI's package and the version the committed reports were made with, apart from the
// in-process loader (geminiCore.ts) so that listing runtimes does not load it.
export const GEMINI_PACKAGE_NAME = "@google/gemini-cli-core";
export const GEMINI_PINNED = "0.61.0";
