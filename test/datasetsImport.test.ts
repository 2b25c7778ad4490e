// Reading datasets as they are published (issue 35): gzip read transparently, mini-swe-agent's own
// action regex, Python-call actions and the 1.1 tool-call format, OpenAI chat transcripts (one, or
// a tau-bench list of runs). Fixtures: test/fixtures/sessions/datasets (trimmed real sessions; see
// its README for upstreams and licence). The last block checks every tau-bench run and one
// session per run folder of ../shared/datasets against counts read straight from the files, and
// says SKIPPED without them (bench/datasetCalls.ts checks every file).
import { copyFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ToolEvent } from "../models/events.js";
import { answeredActions, sampled } from "../bench/datasetCounts.js";
import { adpFailure, splitAdpRef } from "../src/import/adp.js";
import { outcomeFailed, rejectedEditText } from "../src/import/failure.js";
import { detectFormat } from "../src/import/detect.js";
import { arrayElements, streamedElements } from "../src/import/jsonDocument.js";
import { actionOf, isObservation } from "../src/import/miniSweAgent.js";
import { pythonCalls, declaredSignatures } from "../src/import/pythonCall.js";
import { fromPythonRegex } from "../src/import/pythonRegex.js";
import { openSession } from "../src/import/session.js";
import { ignoredNote, sessionRefs } from "../src/import/sessionRefs.js";
import { labelOf, loadLabels, parseLabelMap, ReadTally, type LabelKey } from "../src/sessions/recorded.js";
import { loopsim, tempDir } from "./cli/run.js";

const FIXTURES = join(import.meta.dirname, "fixtures", "sessions");
const DS = join(FIXTURES, "datasets");
const INDENTED = join(DS, "gpt-5-cam/run_results/cam-mini-reasoning-low/sphinx-doc__sphinx-10466/sphinx-doc__sphinx-10466.traj.json.gz");
const PYCALL = join(DS, "gpt-5-cam/run_results/cam-output/django__django-11885/django__django-11885.traj.json.gz");
const V11 = join(DS, "deepseek/output/deepseek_chat_dev/marshmallow-code__marshmallow-1343/marshmallow-code__marshmallow-1343.traj.json.gz");
const TAU = join(DS, "tau/historical_trajectories/gpt-4o-airline.json.gz");

async function read(ref: string, span?: Parameters<typeof openSession>[2] extends infer O ? (O extends { span?: infer S } ? S : never) : never) {
  const opened = await openSession(ref, "auto", { text: false, span });
  const events: ToolEvent[] = [];
  for await (const e of opened.events) events.push(e.event);
  return { opened, events, calls: events.filter((e): e is Extract<ToolEvent, { type: "call" }> => e.type === "call") };
}

describe(".gz read transparently", () => {
  it("a gzip session reads as its plain content does, and detection sees through .gz", async () => {
    const dir = tempDir();
    const plain = join(dir, "django__django-11885.traj.json");
    writeFileSync(plain, gunzipSync(readFileSync(PYCALL)));
    const a = await read(PYCALL);
    const b = await read(plain);
    expect(a.events).toEqual(b.events);
    expect(detectFormat(PYCALL)).toBe("mini-swe-agent");
    // A JSONL session, gzipped: the same events (places aside).
    const jsonl = join(dir, "pi.jsonl.gz");
    writeFileSync(jsonl, gzipSync(readFileSync(join(FIXTURES, "pi-tree.jsonl"))));
    expect(detectFormat(jsonl)).toBe("openclaw");
    expect((await read(jsonl)).events).toEqual((await read(join(FIXTURES, "pi-tree.jsonl"))).events);
    // The text rules hold on the decompressed content: a BOM is skipped, invalid UTF-8 named by its line.
    const bom = join(dir, "bom.jsonl.gz");
    writeFileSync(bom, gzipSync(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), readFileSync(join(FIXTURES, "pi-tree.jsonl"))])));
    expect((await read(bom)).events).toEqual((await read(join(FIXTURES, "pi-tree.jsonl"))).events);
    const bad = join(dir, "bad.jsonl.gz");
    writeFileSync(bad, gzipSync(Buffer.concat([Buffer.from('{"type":"call","tool":"a"}\n{"type":"call","tool":"'), Buffer.from([0xff]), Buffer.from('"}\n')])));
    await expect(read(bad)).rejects.toThrow(/bad\.jsonl\.gz:2: not valid UTF-8/);
  });

  it("a document parsed whole gives the elements streaming gives (the stream reads files past the size limit)", async () => {
    for (const [file, key] of [[PYCALL, "messages"], [V11, "messages"], [join(FIXTURES, "swe-agent-example.traj"), "trajectory"]] as const) {
      const whole: unknown[] = [];
      for await (const e of arrayElements(file, key)) whole.push(e);
      const streamed: unknown[] = [];
      for await (const e of streamedElements(file, key)) streamed.push(e);
      expect(whole.length).toBeGreaterThan(0);
      expect(whole).toEqual(streamed);
    }
  });

  it("a corrupt gzip is a user error naming the file, and a folder walk reports it as unreadable", async () => {
    const dir = tempDir();
    const broken = join(dir, "broken.traj.json.gz");
    writeFileSync(broken, readFileSync(PYCALL).subarray(0, 300)); // cut short
    await expect(read(broken)).rejects.toThrow(/broken\.traj\.json\.gz: not a valid gzip file \(unexpected end of file\)/);
    const garbage = join(dir, "garbage.jsonl.gz");
    writeFileSync(garbage, "not gzip at all\n");
    const r = loopsim(["trace", garbage]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/garbage\.jsonl\.gz: not a valid gzip file \(incorrect header check\)/);
    copyFileSync(PYCALL, join(dir, "ok.traj.json.gz"));
    // Listing reads only a file's head: a gzip cut short is listed, and named when it is read;
    // one that is no gzip at all is reported unreadable at once.
    const listed = await sessionRefs([dir]);
    expect(listed.refs.map((x) => x.id)).toEqual(["broken.traj.json.gz", "ok.traj.json.gz"]);
    expect(listed.bad.map((x) => [x.file, x.reason])).toEqual([[garbage, expect.stringMatching(/^not a valid gzip file \(incorrect header check\)/)]]);
  });
});

describe("mini-swe-agent: every action an observation answered is a call", () => {
  it("finds an indented fence with the trajectory's own action_regex", async () => {
    const { calls, opened } = await read(INDENTED);
    expect(calls.map((c) => c.tool)).toEqual(["bash", "bash"]);
    expect((calls[0]?.params as { command: string }).command).toMatch(/^cd \/testbed && \(grep -nR "self.locations" \. \|\| true\)/);
    expect((calls[0]?.params as { command: string }).command).not.toMatch(/```/);
    expect(opened.stats.formatErrors).toBe(1); // the submission is echoed back as the patch: no observation
    expect(isObservation("diff --git a/x.py b/x.py\n+    raise RuntimeError('command timed out')\n")).toBe(false);
    expect(isObservation("The last command <command>sleep 999</command> timed out and has been killed.\n<output>\n</output>")).toBe(true);
    expect(isObservation("<returncode>1</returncode>\n<output>\nboom\n</output>")).toBe(true);
  });

  it("translates the Python regex constructs it knows, and refuses the rest", () => {
    expect(fromPythonRegex("\\s*```bash\\s*\\n(.*?)\\n\\s*```")?.exec("x\n    ```bash\n    ls\n    ```")?.[1]).toBe("    ls");
    expect(fromPythonRegex("(?P<cmd>ls|pwd)(?P=cmd)")?.exec("lsls")?.groups?.cmd).toBe("ls");
    expect(fromPythonRegex("(?i)\\A```BASH")?.test("```bash")).toBe(true);
    expect(fromPythonRegex("(?x) a b")).toBeUndefined();
    expect(fromPythonRegex("a++")).toBeUndefined();
    expect(fromPythonRegex("(unclosed")).toBeUndefined();
  });

  it("reads Python-call actions: the function is the tool, exec_bash_cmd the shell tool a fence is", async () => {
    const { calls, opened } = await read(PYCALL);
    expect(calls.map((c) => c.tool)).toEqual(["print_definition", "bash", "print_code_context", "print_code_context"]);
    expect(calls[0]?.params).toEqual({ name_file_list: [["Collector", "./django/db/models/deletion.py"]] });
    expect(calls[2]?.params).toEqual({ file_path: "django/db/models/deletion.py", lines: [168, 210] });
    expect((calls[1]?.params as { command: string }).command).toMatch(/^nl -ba django\/db\/models\/deletion\.py/);
    // "Could not extract function name" and the final submit() were answered by no observation.
    expect(opened.stats.formatErrors).toBe(2);
  });

  it("names positional arguments by the declared signature, so positional and keyword calls are one call", () => {
    const signatures = declaredSignatures("Tools:\n1. print_code_context(file_path: str, lines:Tuple): show lines;\n2. exec_bash_cmd(cmd: str): run;");
    const regex = fromPythonRegex("```bash\\s*\\n(.*?)\\n```") as RegExp;
    const positional = actionOf("@x\ndef f():\n    return print_code_context('a.py', (1, 2))", regex, signatures);
    const keyword = actionOf("def f():\n    print_code_context(file_path=\"a.py\", lines=(1, 2,))", regex, signatures);
    expect(positional).toMatchObject({ tool: "print_code_context", params: { file_path: "a.py", lines: [1, 2] } });
    expect(keyword?.params).toEqual(positional?.params);
    expect(actionOf("def f():\n    exec_bash_cmd('''\n    ls -la\n    ''')", regex, signatures)).toMatchObject({ tool: "bash", params: { command: "ls -la" } });
    expect(actionOf("```bash\nls -la\n```", regex, signatures)).toMatchObject({ tool: "bash", params: { command: "ls -la" } });
    // Several calls: one call (one observation), the first tool, every call listed; plain Python around them is left out.
    const several = actionOf("def f():\n    p = Path('x')\n    save_code_to_file('t.py', \"print(1)\\n\")\n    return exec_bash_cmd(\"python t.py\")", regex, new Map([...signatures, ["save_code_to_file", ["file_path", "code"]]]));
    expect(several).toMatchObject({ tool: "save_code_to_file", params: { calls: [{ tool: "save_code_to_file", params: { file_path: "t.py", code: "print(1)\n" } }, { tool: "bash", params: { command: "python t.py" } }] } });
    expect(pythonCalls("f(x, 'a' 'b', n=-1.5, d={'k': [None, True]}, e=a + b)")).toEqual([{ name: "f", args: [{ expr: "x" }, "ab"], kwargs: { n: -1.5, d: { k: [null, true] }, e: { expr: "a + b" } } }]);
  });

  it("reads a name the action binds once, before the call, to a plain string as that string: the command that ran", () => {
    const command = (code: string) => pythonCalls(code).map((c) => c.args[0]);
    // The CaM agents' shape (nano-cam-output/django__django-12273): every command through one variable.
    expect(command("def f():\n    cmd = 'grep -n x a.py'\n    result = exec_bash_cmd(cmd)\n    print(result)")[0]).toBe("grep -n x a.py");
    expect(command("cmd = ('grep -n x '\n       'a.py')  # two lines\nreturn exec_bash_cmd(cmd)")).toEqual(["grep -n x a.py"]);
    expect(command("cmd = 'ls'; print(exec_bash_cmd(cmd))")).toEqual(["ls"]);
    expect(pythonCalls("p = 'a.py'\ncode = r'''x = 1\n'''\nsave_code_to_file(p, code)")[0]?.args).toEqual(["a.py", "x = 1\n"]);
    // What a reader of literals cannot know stays the name: an f-string or bytes, an expression,
    // a name bound twice, in a loop, after the call, augmented, or by `as`.
    for (const code of ["cmd = f'python3 {p}'\nexec_bash_cmd(cmd)", "cmd = b'ls'\nexec_bash_cmd(cmd)", "cmd = 'ls' + x\nexec_bash_cmd(cmd)", "cmd = 'a'\ncmd = 'b'\nexec_bash_cmd(cmd)", "for cmd in ['a']:\n    exec_bash_cmd(cmd)\ncmd = 'x'", "exec_bash_cmd(cmd)\ncmd = 'late'", "cmd = 'a'\ncmd += ' b'\nexec_bash_cmd(cmd)", "with open('f') as cmd:\n    pass\ncmd = 'a'\nexec_bash_cmd(cmd)"]) expect(command(code), code).toEqual([{ expr: "cmd" }]);
  });

  it("reads mini-swe-agent-1.1: tool_calls answered by tool messages; the exit message answers nothing", async () => {
    const { calls, events } = await read(V11);
    expect(calls.map((c) => [c.callId, c.tool, c.params])).toEqual([
      ["call_00_oKj1Vb9Rg8hq0FbhOszGNopH", "bash", { command: "pwd && ls -la" }],
      ["call_00_NQ0vOCVK2oaWcWgquw3vYMdI", "bash", { command: 'find src -type f -name "*.py" | head -20' }],
    ]);
    expect(events.filter((e) => e.type === "outcome").map((e) => (e as { result: { details: { exitCode: number } } }).result.details.exitCode)).toEqual([0, 0]);
  });
});

describe("OpenAI chat transcripts", () => {
  it("a tau-bench list is one session per run, named <task_id>/trial<k>; an 'Error:' answer is a failed call", async () => {
    const { refs } = await sessionRefs([join(DS, "tau")]);
    expect(refs.map((r) => r.id)).toEqual(["historical_trajectories/gpt-4o-airline.json.gz#0/trial0", "historical_trajectories/gpt-4o-airline.json.gz#1/trial0"]);
    const first = await read(refs[0]?.ref as string, refs[0]?.span);
    expect(first.calls.map((c) => c.tool)).toEqual(["get_user_details", "search_direct_flight", "search_onestop_flight", "calculate", "book_reservation"]);
    expect(first.calls.length).toBe(answeredActions(TAU).get("0/trial0"));
    expect(first.opened.stats.errors).toBe(1);
    expect(first.opened.format).toBe("openai-chat");
    // Read by its ref alone (no span), the same run.
    const again = await read(`${TAU}#0/trial0`);
    expect(again.events).toEqual(first.events);
    expect(splitAdpRef(`${TAU}#0/trial0`).id).toBe("0/trial0");
  });

  it("a single transcript is one session; a user message starts a run", async () => {
    const file = join(DS, "chat-transcript.json");
    expect(detectFormat(file)).toBe("openai-chat");
    const { calls, opened } = await read(file);
    expect(calls).toHaveLength(3);
    expect(opened.stats.runs).toBe(2);
    expect(new Set(calls.map((c) => c.runId))).toEqual(new Set(["run-2"]));
    // {messages: [...]} reads the same.
    const wrapped = join(tempDir(), "t.json");
    writeFileSync(wrapped, JSON.stringify({ messages: JSON.parse(readFileSync(file, "utf8")) }));
    expect(detectFormat(wrapped)).toBe("openai-chat");
    expect((await read(wrapped)).calls).toEqual(calls);
  });
});

const DATASETS = join(import.meta.dirname, "..", "..", "shared", "datasets");
const HAVE_DATASETS = existsSync(DATASETS);
if (!HAVE_DATASETS) console.log(`SKIPPED: the public-datasets import check needs ../shared/datasets, which is not here (${DATASETS})`);

describe.skipIf(!HAVE_DATASETS)("the public datasets as published", () => {
  it("every tau-bench run and one session per run folder: answered actions = imported calls; reports are no sessions", async () => {
    const { refs, bad, ignored } = await sessionRefs([DATASETS]);
    expect(bad).toEqual([]);
    expect(refs).toHaveLength(1761);
    expect(refs.filter((r) => r.id.startsWith("tau-bench-airline/"))).toHaveLength(200);
    expect(ignored.filter((f) => /deepseek__deepseek-chat\..*\.json\.gz$/.test(f))).toHaveLength(4);
    const expected = new Map<string, Map<string, number>>();
    for (const ref of sampled(refs)) {
      const { file, id } = splitAdpRef(ref.ref);
      if (!expected.has(file)) expected.set(file, answeredActions(file));
      const { opened } = await read(ref.ref, ref.span);
      expect(opened.stats.calls, ref.id).toBe(expected.get(file)?.get(id ?? ""));
    }
    // Every session has its label from its dataset's own labels file, by the shape that file has.
    const cases: [string, LabelKey, Record<string, number>][] = [
      ["mini-swe-agent-gpt-5-cam", "id", { resolved: 501, unknown: 65, unresolved: 432 }],
      ["mini-swe-agent-deepseek-tool-calls", "id", { resolved: 82, unknown: 15, unresolved: 86 }],
      ["tau-bench-airline", "instance", { resolved: 84, unresolved: 116 }],
      ["mini-swe-agent-gemini-3-pro", "instance", { resolved: 311, unresolved: 69 }],
    ];
    for (const [dataset, key, byLabel] of cases) {
      const labels = loadLabels(join(DATASETS, dataset, "labels.json"), key);
      const tally = new ReadTally(labels);
      for (const r of refs.filter((x) => x.id.startsWith(`${dataset}/`))) tally.session(r.id, labelOf(r.id, labels));
      expect(tally.read([]), dataset).toMatchObject({ byLabel, unmatchedLabels: [], ambiguousLabels: [] });
    }
  }, 30_000);
});

describe("labels as the datasets publish them", () => {
  const write = (value: unknown) => {
    const file = join(tempDir(), "labels.json");
    writeFileSync(file, JSON.stringify(value));
    return file;
  };

  it("nested run -> instance -> label matches by run folder and instance; the vocabulary maps onto outcomes", async () => {
    const labels = loadLabels(join(DS, "gpt-5-cam", "labels.json"));
    expect(labels.nested).toBe(true);
    expect(labels.unknownValues).toEqual([]);
    expect(Object.fromEntries(labels.byKey)).toEqual({
      "cam-mini-reasoning-low/sphinx-doc__sphinx-10466": "resolved",
      "cam-mini-reasoning-low/django__django-11790": "unresolved",
      "cam-output/django__django-11885": "unresolved",
      "cam-output/astropy__astropy-12907": "unknown",
    });
    const { refs } = await sessionRefs([join(DS, "gpt-5-cam")]);
    const tally = new ReadTally(labels);
    for (const r of refs) tally.session(r.id, labelOf(r.id, labels));
    expect(refs.map((r) => [r.id.split("/")[1], labelOf(r.id, labels)])).toEqual([
      ["cam-mini-reasoning-low", "resolved"],
      ["cam-output", "unresolved"],
    ]);
    expect(tally.read([]).unmatchedLabels).toEqual(["cam-mini-reasoning-low/django__django-11790", "cam-output/astropy__astropy-12907"]);
    // The same instance under a run folder the labels do not name is unlabelled.
    expect(labelOf("other-run/sphinx-doc__sphinx-10466/sphinx-doc__sphinx-10466.traj.json.gz", labels)).toBe("unlabelled");
  });

  it("tau-bench's success/failure, keyed <task_id>/trial<k>, match a list's runs by --label-key instance", async () => {
    const labels = loadLabels(join(DS, "tau", "labels.json"), "instance");
    const { refs } = await sessionRefs([join(DS, "tau")]);
    expect(refs.map((r) => labelOf(r.id, labels))).toEqual(["unresolved", "unresolved"]);
    const words = loadLabels(write({ a: "success", b: "failure", c: "no_eval", d: "unresolved_empty_patch", e: "maybe" }), "id", parseLabelMap("maybe=unknown"));
    expect(Object.fromEntries(words.byKey)).toEqual({ a: "resolved", b: "unresolved", c: "unknown", d: "unresolved", e: "unknown" });
  });

  it("a labels file's problems name the JSON path", () => {
    expect(() => loadLabels(write({ a: "resolved", run: { x: "resolved" } }))).toThrow(/\$\["run"\]: a map of labels where the other entries are labels/);
    expect(() => loadLabels(write(["resolved"]))).toThrow(/labels\.json: \$: must be a JSON object/);
    expect(loadLabels(write({ run: { x: 3 } })).unknownValues).toEqual([expect.stringMatching(/\$\["run"\]\["x"\]: 3 is not resolved or unresolved \(nor success, .*left unlabelled$/)]);
    expect(() => loadLabels(DS)).toThrow(/is a directory, not a labels file/);
  });
});

describe("SWE-agent's rejected edits", () => {
  it("an edit the linter rejected left the file unchanged: a call with a failed outcome (hand-written fixture in SWE-agent's reply wording)", async () => {
    const { opened, events } = await read(join(FIXTURES, "swe-agent-rejected-edit.traj"));
    const outcomes = events.filter((e) => e.type === "outcome");
    expect(outcomes.map((e) => outcomeFailed(e))).toEqual([false, true, true, false]);
    expect(opened.stats).toMatchObject({ calls: 4, errors: 2 });
    expect(rejectedEditText("No replacement was performed, old_str `x` did not appear verbatim in /a.py.")).toBe(true);
    expect(rejectedEditText("grep: the log says: Your proposed edit has introduced new syntax error(s)")).toBe(false);
    expect(adpFailure("Your proposed edit has introduced new syntax error(s). Please read ...")).toEqual({ status: "failed" });
  });
});

describe("files beside the sessions that are no sessions", () => {
  it("SWE-bench reports and labels files are passed over with a note that says what they are; named directly, what they are", async () => {
    const { refs, bad, ignored } = await sessionRefs([DS]);
    expect(bad).toEqual([]);
    expect(refs).toHaveLength(6);
    expect(ignoredNote(ignored)).toMatch(/^3 \.json files in the folders given are no session and were passed over \(1 SWE-bench evaluation report: .*deepseek__deepseek-chat\.deepseek_chat_dev\.json\.gz; 2 labels files: .*gpt-5-cam\/labels\.json, .*tau\/labels\.json\)/);
    const report = join(DS, "deepseek", "deepseek__deepseek-chat.deepseek_chat_dev.json.gz");
    const named = await sessionRefs([report]);
    expect(named.bad.map((b) => b.reason)).toEqual([expect.stringMatching(/^a SWE-bench evaluation report, not a session/)]);
  });
});

describe("the Python readers take any text", () => {
  it("never throw, whatever an assistant wrote (arbitrary strings, and Python-like fragments)", () => {
    const fragment = fc.constantFrom("f(", ")", "(", "'", '"', '"""', "'''", "\\", "\\n", "\n", "#", "@x\n", "def g():\n", "return ", "x = ", ",", "=", "[", "]", "{", "}", ":", "1.5", "-", "r'", "b\"", "exec_bash_cmd(", "print(", "(?P<", "(?", "[^", "{,", "*+");
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.array(fragment, { maxLength: 30 }).map((a) => a.join(""))), (text) => {
        pythonCalls(text);
        fromPythonRegex(text);
        actionOf(text, /```bash\s*\n([\s\S]*?)\n```/g, new Map());
      }),
      { numRuns: 400, seed: 35 },
    );
  });
});
