import type { Command } from "commander";

export function registerLaterCommands(_program: Command): void {}
