// A start builds only the group of the command given (src/cli/program.ts). This holds every
// command, and every subcommand under it, built that way to the same help as in the whole
// program, and every top-level command to a group: a command moved to another group, or a new one
// left out of the table, fails here instead of losing its options or its help.
import type { Command } from "commander";
import { describe, expect, it } from "vitest";
import { buildProgram, COMMAND_GROUPS } from "../../src/cli/program.js";

/** Each command's help under `command`, keyed by its path ("targets fetch"). */
function helps(command: Command, path: string[] = []): Map<string, string> {
  const out = new Map<string, string>();
  for (const sub of command.commands) {
    const at = [...path, sub.name()];
    out.set(at.join(" "), sub.helpInformation());
    for (const [k, v] of helps(sub, at)) out.set(k, v);
  }
  return out;
}

describe("a start builds only its command's group", () => {
  it("names a group for every top-level command of the whole program, and no other name", async () => {
    const whole = await buildProgram();
    expect(Object.keys(COMMAND_GROUPS).sort()).toEqual(whole.commands.map((c) => c.name()).sort());
  });

  it("gives each command, built alone, the help it has in the whole program, subcommands included", async () => {
    const whole = helps(await buildProgram());
    for (const name of Object.keys(COMMAND_GROUPS)) {
      const alone = helps(await buildProgram(name));
      const mine = [...whole].filter(([path]) => path === name || path.startsWith(`${name} `));
      expect(mine.length, name).toBeGreaterThan(0);
      for (const [path, help] of mine) expect(alone.get(path), path).toBe(help);
    }
  });

  it("builds the whole program for no command, an option, `help` or a typo, so the full help and 'did you mean' still read", async () => {
    const count = (await buildProgram()).commands.length;
    for (const first of [undefined, "--help", "help", "compre", "-v"]) expect((await buildProgram(first)).commands.length, String(first)).toBe(count);
    expect((await buildProgram("compare")).commands.length).toBeLessThan(count);
  });
});
