// The pinned probe set: short scripted conversations that tell loop guards apart. Each runs on a
// real runtime (its CLI through the scripted model, or its own code in-process) and on loopsim's
// model of it, and the two observations are compared. The probes cover repeats, parallel calls,
// alternations and cycles, changing results, errors, key order, interruptions, prompts, and the
// names and args each runtime normalises its own way: names that differ only in case, padding or
// OpenClaw's alias (`bash`/`exec`), and missing, null and empty args, one per response and in one.
// Edit with care: the committed agreement report names probes by id.
import type { DrivenScript, DrivenStep, DrivenText, ProbeAction } from "../targets/runtimes/drivenRuntime.js";

export interface Probe {
  readonly id: string;
  readonly what: string;
  readonly script: DrivenScript;
}

const FILES: Readonly<Record<string, string>> = {
  "a.txt": "alpha\n",
  "b.txt": "bravo\n",
  "c.txt": "charlie\n",
  "d.txt": "delta\n",
  "e.txt": "echo\n",
};

const read = (file: string): ProbeAction => ({ kind: "read", file });
const A = read("a.txt");
const B = read("b.txt");
const C = read("c.txt");
const MISSING = read("missing.txt");
const ranged = (keysReversed: boolean): ProbeAction => ({ kind: "read", file: "a.txt", offset: 1, limit: 5, keysReversed });
const shell = (command: string): ProbeAction => ({ kind: "shell", command });
const A_CAPITALIZED: ProbeAction = { kind: "read", file: "a.txt", name: "capitalized" };
const A_PADDED: ProbeAction = { kind: "read", file: "a.txt", name: "padded" };
const BASH: ProbeAction = { kind: "shell", command: "cat a.txt", tool: "bash" };
const EXEC: ProbeAction = { kind: "shell", command: "cat a.txt", tool: "exec" };
const argsAs = (args: "missing" | "null" | "empty"): ProbeAction => ({ kind: "read", file: "a.txt", args });
const NO_ARGS = [argsAs("missing"), argsAs("null"), argsAs("empty")];

/** A shape of steps, each a list of actions; ids are assigned from the probe's position. */
type Shape = readonly (readonly ProbeAction[])[];

const times = (n: number, action: ProbeAction): Shape => Array.from({ length: n }, () => [action]);
const cycle = (n: number, actions: readonly ProbeAction[]): Shape => Array.from({ length: n }, (_, i) => [actions[i % actions.length] as ProbeAction]);

/** A shape whose responses stream text before their calls (content-loop probes). */
type TextShape = readonly { readonly text: readonly DrivenText[]; readonly calls: readonly ProbeAction[] }[];

function textProbe(id: string, what: string, prompts: readonly TextShape[]): Probe {
  return {
    id,
    what,
    script: {
      files: FILES,
      prompts: prompts.map((shape, p) => shape.map(({ text, calls }, s): DrivenStep => ({ text, calls: calls.map((action, c) => ({ id: `call_p${p + 1}s${s + 1}c${c + 1}`, action })) }))),
    },
  };
}

/** A sentence of exactly 50 characters: one content window of Gemini's rule. */
export const CHANT = "I will check the configuration file once more now. ";
const chant = (n: number, text: string = CHANT.slice(0, 50)): DrivenText[] => Array.from({ length: n }, () => ({ type: "message", text }));
const thoughts = (n: number, text: string): DrivenText[] => Array.from({ length: n }, () => ({ type: "thought", text }));

function probe(id: string, what: string, prompts: readonly Shape[], writes: (prompt: number, step: number) => Record<string, string | null> | undefined = () => undefined): Probe {
  return {
    id,
    what,
    script: {
      files: FILES,
      prompts: prompts.map((shape, p) =>
        shape.map((actions, s): DrivenStep => {
          const w = writes(p, s);
          const calls = actions.map((action, c) => ({ id: `call_p${p + 1}s${s + 1}c${c + 1}`, action }));
          return w === undefined ? { calls } : { calls, writes: w };
        }),
      ),
    },
  };
}

const changingA = (_p: number, s: number) => ({ "a.txt": `alpha revision ${s}\n` });

export const PROBES: readonly Probe[] = [
  probe("repeat-3", "the same read 3 times, one per response", [times(3, A)]),
  probe("repeat-4", "the same read 4 times, one per response", [times(4, A)]),
  probe("repeat-5", "the same read 5 times, one per response", [times(5, A)]),
  probe("repeat-6", "the same read 6 times, one per response", [times(6, A)]),
  probe("repeat-8", "the same read 8 times, one per response", [times(8, A)]),
  // Crush looks at the prompt's last 10 steps only once there are 10: these two reach it.
  probe("repeat-12", "the same read 12 times, one per response", [times(12, A)]),
  probe("others-4-then-repeat-7", "4 different reads, then the same read 7 times", [[[B], [C], [read("d.txt")], [read("e.txt")], ...times(7, A)]]),
  probe("repeat-7-then-other", "the same read 7 times, then another file", [[...times(7, A), [B]]]),
  probe("parallel-2", "2 identical reads in one response", [[[A, A]]]),
  probe("parallel-3", "3 identical reads in one response", [[[A, A, A]]]),
  probe("parallel-4", "4 identical reads in one response", [[[A, A, A, A]]]),
  probe("parallel-3-other-last", "2 identical reads and another file in one response", [[[A, A, B]]]),
  probe("parallel-3-other-middle", "identical reads with another file between them, one response", [[[A, B, A]]]),
  probe("parallel-2-then-1", "2 identical reads in one response, then the same read alone", [[[A, A], [A]]]),
  probe("parallel-2-twice", "2 identical reads in each of 2 responses", [[[A, A], [A, A]]]),
  probe("parallel-3-after-repeats", "the same read 2 times alone, then 3 times in one response", [[[A], [A], [A, A, A]]]),
  probe("alternate-6", "A/B alternation, 6 calls", [cycle(6, [A, B])]),
  probe("alternate-10", "A/B alternation, 10 calls", [cycle(10, [A, B])]),
  probe("alternate-12", "A/B alternation, 12 calls", [cycle(12, [A, B])]),
  probe("cycle-3x5", "a period-3 cycle repeated 5 times (15 calls)", [cycle(15, [A, B, C])]),
  probe("cycle-5x5", "a period-5 cycle repeated 5 times (25 calls)", [cycle(25, [A, B, C, read("d.txt"), read("e.txt")])]),
  probe("changing-6", "the same read 6 times while the file changes before each response", [times(6, A)], changingA),
  probe("changing-10", "the same read 10 times while the file changes before each response", [times(10, A)], changingA),
  probe("error-5", "the same failing read (no such file) 5 times", [times(5, MISSING)]),
  probe("error-6", "the same failing read (no such file) 6 times", [times(6, MISSING)]),
  probe("shell-6", "the same shell command 6 times", [times(6, shell("cat a.txt"))]),
  probe("shell-failing-6", "the same failing shell command 6 times", [times(6, shell("cat missing.txt"))]),
  probe("git-overview-9", "9 git overview commands in a row (status, diff, ls-files)", [cycle(9, [shell("git status"), shell("git diff"), shell("git ls-files")])]),
  probe("key-order-6", "the same ranged read 6 times, args alternating between two key orders", [cycle(6, [ranged(false), ranged(true)])]),
  probe("key-order-10", "the same ranged read 10 times, args alternating between two key orders", [cycle(10, [ranged(false), ranged(true)])]),
  probe("interrupted-4-4", "the same read 4 times, another file, the same read 4 times", [[...times(4, A), [B], ...times(4, A)]]),
  probe("interrupted-by-shell", "the same read 4 times, a shell command, the same read 4 times", [[...times(4, A), [shell("echo hi")], ...times(4, A)]]),
  probe("varied-12", "12 different calls: no loop", [[...[A, B, C, read("d.txt"), read("e.txt")].map((x) => [x]), ...[1, 2, 3, 4, 5, 6, 7].map((n) => [shell(`echo step ${n}`)])]]),
  probe("prompts-3-3", "the same read 3 times in each of 2 prompts", [times(3, A), times(3, A)]),
  probe("prompts-4-2", "the same read 4 times, then 2 more in the next prompt", [times(4, A), times(2, A)]),
  probe("prompts-2-parallel-3", "2 reads, then 3 identical reads in one response of the next prompt", [times(2, A), [[A, A, A]]]),
  probe("name-case-6", "the same read 6 times, the tool name alternating with its capitalized form (read_file, Read_File)", [cycle(6, [A, A_CAPITALIZED])]),
  probe("name-padded-6", "the same read 6 times, the tool name alternating with itself padded by spaces", [cycle(6, [A, A_PADDED])]),
  probe("name-alias-6", "the same command 6 times, the tool named bash and exec in turn (OpenClaw's alias)", [cycle(6, [BASH, EXEC])]),
  probe("name-case-parallel-3", "3 identical reads in one response, the middle one's tool name capitalized", [[[A, A_CAPITALIZED, A]]]),
  probe("name-padded-parallel-3", "3 identical reads in one response, the middle one's tool name padded by spaces", [[[A, A_PADDED, A]]]),
  probe("name-alias-parallel-3", "the same command 3 times in one response, as bash, exec, bash", [[[BASH, EXEC, BASH]]]),
  probe("args-missing-null-empty-6", "the read tool 6 times with no args, null args and {} in turn", [cycle(6, NO_ARGS)]),
  probe("duplicates-6-interleaved", "the same read 6 times, a different command between each two", [[A, shell("echo 1"), A, shell("echo 2"), A, shell("echo 3"), A, shell("echo 4"), A, shell("echo 5"), A].map((x) => [x])]),
  probe("same-tool-8", "8 reads in a row of 4 different files", [cycle(8, [A, B, C, read("d.txt")])]),
  probe("reads-8-of-10", "a command, 4 reads, a command, 4 reads: 8 reads among 10 calls", [[shell("echo 1"), A, B, C, read("d.txt"), shell("echo 2"), read("e.txt"), A, B, C].map((x) => [x])]),
  probe("args-missing-null-empty-parallel-3", "the read tool 3 times in one response, with no args, null args and {}", [[NO_ARGS]]),
  // Model text (content-loop rules). A chunk is one streamed piece of a message.
  textProbe("chant-9", "one response streams the same 50-character sentence 9 times, then a read", [[{ text: chant(9), calls: [A] }]]),
  textProbe("chant-10", "one response streams the same 50-character sentence 10 times, then a read", [[{ text: chant(10), calls: [A] }]]),
  textProbe("chant-10-then-1", "10 repeats of a sentence and a read, then a response with the sentence once more and a read", [[{ text: chant(10), calls: [A] }, { text: chant(1), calls: [B] }]]),
  textProbe("chant-6-read-6", "6 repeats of a sentence, a read, 6 more repeats, a read (a tool call between)", [[{ text: chant(6), calls: [A] }, { text: chant(6), calls: [B] }]]),
  textProbe("chant-in-code-block", "a code block whose 12 lines repeat one 50-character line, then a read", [[{ text: [{ type: "message", text: "```\n" }, ...chant(12, "x = compute_the_value(x) + 1  # same line, again  \n"), { type: "message", text: "```\n" }], calls: [A] }]]),
  textProbe("chant-list-items", "12 list items with one 50-character text, then a read", [[{ text: chant(12, "- check the configuration file once more, again.\n"), calls: [A] }]]),
  textProbe("chant-whole-message", "one whole message holding the sentence 12 times, then a read", [[{ text: chant(1, CHANT.slice(0, 50).repeat(12)), calls: [A] }]]),
  textProbe("thoughts-3", "3 identical thoughts in one response, then a read", [[{ text: thoughts(3, "I should read a.txt again to be sure."), calls: [A] }]]),
  textProbe("thoughts-12", "12 identical thoughts in one response, then a read", [[{ text: thoughts(12, "I should read a.txt again to be sure."), calls: [A] }]]),
  textProbe("thoughts-2-read-2", "2 identical thoughts, a read, 2 more, a read (a tool call between)", [[{ text: thoughts(2, "I should read a.txt again to be sure."), calls: [A] }, { text: thoughts(2, "I should read a.txt again to be sure."), calls: [B] }]]),
];
