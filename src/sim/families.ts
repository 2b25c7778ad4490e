// The behaviour families. Their names are part of the CLI, scenario and report interface.
// Each is parameterised by draws from the world's random stream, so one seed gives one agent.
import type { AgentBehaviour, Family, FamilyLabel } from "./behaviour.js";
import { text } from "./behaviour.js";
import { productiveStep, scriptedAgent, type Step } from "./scriptedAgent.js";
import { CHANGING_ARGS_PARAMS, systemParams } from "./changingArgsParams.js";
import { changingArgsCalls, drawLength, drawSystem, STOCK_LOOPS } from "./changingArgsLoop.js";

const RUN = "run-1";

const productive: Family = {
  name: "productive",
  label: "progressing",
  summary: "varied calls that end when the task is done; an occasional re-read and test run whose results change",
  create(world) {
    // Calibrated against recorded work (loopsim calibrate): real runs end after a few to a few
    // dozen calls, and most calls are new (a re-read or a test re-run is the exception).
    let version = 0;
    let failing = world.int(3, 12);
    const length = world.int(4, 60);
    return scriptedAgent(RUN, world, {
      main(i) {
        if (i >= length) return undefined;
        if (i % 7 === 3) {
          return { tool: "read", params: { path: "src/main.ts" }, inLoop: false, respond: () => ({ result: text(`// version ${version}\nexport {}`) }) };
        }
        if (i % 7 === 5) {
          return {
            tool: "apply_patch",
            params: { patch: `*** Update File: src/main.ts\n+// edit ${i}` },
            inLoop: false,
            respond: () => {
              version++;
              return { result: text("Applied patch") };
            },
          };
        }
        if (i % 7 === 6) {
          return {
            tool: "exec",
            params: { command: "npm test" },
            inLoop: false,
            respond: () => {
              failing = Math.max(0, failing - world.int(0, 2));
              return { result: text("", { status: "completed", exitCode: failing === 0 ? 0 : 1, aggregated: `${failing} failing`, durationMs: world.int(800, 4000), pid: world.int(1000, 60000) }) };
            },
          };
        }
        return productiveStep(world, i);
      },
    }, 0);
  },
};

function pollStep(sessionId: string, inLoop: boolean, details: () => Record<string, unknown>): Step {
  return { tool: "process", params: { action: "poll", sessionId }, inLoop, respond: () => ({ result: text("", details()) }) };
}

function startStep(command: string, sessionId: string): Step {
  return {
    tool: "exec",
    params: { command, background: true },
    inLoop: false,
    respond: () => ({ result: text(`started ${sessionId}`, { status: "running", sessionId, tail: "" }) }),
  };
}

const pollerCompletes: Family = {
  name: "poller-completes",
  label: "progressing",
  summary: "polls a build that finishes after k polls; the output tail changes only sometimes",
  create(world) {
    const session = `proc-${world.id(6)}`;
    const polls = world.int(5, 45);
    // Some builds print often, some stay quiet for long stretches: the hard case for polls.
    const changeChance = 0.05 + world.next() * 0.5;
    let lines = 0;
    return scriptedAgent(RUN, world, {
      main(i) {
        if (i === 0) return startStep("npm run build", session);
        if (i > polls) return undefined;
        return pollStep(session, false, () => {
          if (world.chance(changeChance)) lines++;
          const done = i === polls;
          return { status: done ? "completed" : "running", exitCode: done ? 0 : null, aggregated: `built ${lines} modules${done ? "\ndone" : ""}`, retryInMs: world.int(500, 5000) };
        });
      },
    });
  },
};

const pollerStuck: Family = {
  name: "poller-stuck",
  label: "stuck",
  summary: "polls a process that never changes",
  create(world) {
    const session = `proc-${world.id(6)}`;
    return scriptedAgent(RUN, world, {
      main(i) {
        if (i === 0) return startStep("npm run dev-server", session);
        return pollStep(session, true, () => ({ status: "running", exitCode: null, aggregated: "waiting for file lock on .cache/build.lock", retryInMs: world.int(500, 5000) }));
      },
    });
  },
};

const pingPongStuck: Family = {
  name: "ping-pong-stuck",
  label: "stuck",
  summary: "alternates two calls whose results never change",
  create(world) {
    const file = `deploy-${world.id(4)}.yaml`;
    const error = `Error: missing key "region" in ${file} (line ${world.int(2, 40)})`;
    return scriptedAgent(RUN, world, {
      main(i) {
        if (i % 2 === 0) return { tool: "read", params: { path: file }, inLoop: true, respond: () => ({ result: text("service: api\nreplicas: 2") }) };
        return { tool: "exec", params: { command: "./deploy.sh" }, inLoop: true, respond: () => ({ result: text("", { status: "failed", exitCode: 1, aggregated: error, durationMs: world.int(100, 900) }) }) };
      },
    });
  },
};

const pingPongProgress: Family = {
  name: "ping-pong-progress",
  label: "progressing",
  summary: "edit/test cycles with the same two calls whose results change until the tests pass",
  create(world) {
    const cycles = world.int(8, 30);
    const file = `src/parser-${world.id(4)}.ts`;
    let failing = cycles;
    return scriptedAgent(RUN, world, {
      main(i) {
        const cycle = Math.floor(i / 2);
        if (cycle >= cycles) return undefined;
        if (i % 2 === 0) return { tool: "read", params: { path: file }, inLoop: false, respond: () => ({ result: text(`// parser revision ${cycle}`) }) };
        return {
          tool: "exec",
          params: { command: "npm test" },
          inLoop: false,
          respond: () => {
            failing--;
            return { result: text("", { status: "completed", exitCode: failing === 0 ? 0 : 1, aggregated: `${failing} failing` }) };
          },
        };
      },
    });
  },
};

const unknownTool: Family = {
  name: "unknown-tool",
  label: "stuck",
  summary: "retries a tool that does not exist, with varying arguments",
  create(world) {
    return scriptedAgent(RUN, world, {
      main() {
        return { tool: "browserx", params: { url: `https://docs.example.test/page/${world.int(1, 99)}` }, inLoop: true, respond: () => ({ error: "Unknown tool: browserx" }) };
      },
    });
  },
};

const sendLoop: Family = {
  name: "send-loop",
  label: "stuck",
  summary: "sends the same message over and over; each send gets fresh ids",
  create(world) {
    const channel = `ops-${world.id(4)}`;
    let sent = 0;
    return scriptedAgent(RUN, world, {
      main() {
        return {
          tool: "message",
          params: { action: "send", channel, text: "Deployment finished." },
          inLoop: true,
          respond: () => {
            const id = `msg_${world.id(10)}`;
            sent++;
            return { result: text(`Sent ${id}`, { ok: true, channel: "ops", messageId: id, ts: 1_700_000_000 + sent, receipt: { deliveredAt: 1_700_000_000 + sent } }) };
          },
        };
      },
    });
  },
};

const execVolatile: Family = {
  name: "exec-volatile",
  label: "stuck",
  summary: "runs the same failing command; duration, pid, session id and cwd change every time",
  create(world) {
    const port = world.int(3000, 9999);
    return scriptedAgent(RUN, world, {
      main() {
        return {
          tool: "exec",
          params: { command: `curl -sf http://localhost:${port}/health` },
          inLoop: true,
          respond: () => ({
            result: text("curl: (7) Failed to connect to localhost port 8080", {
              status: "failed",
              exitCode: 7,
              aggregated: "curl: (7) Failed to connect to localhost port 8080",
              durationMs: world.int(3, 90),
              pid: world.int(1000, 65000),
              sessionId: `sess-${world.id(6)}`,
              cwd: world.pick(["/work/app", "/work/app/", "/tmp/run"]),
            }),
          }),
        };
      },
    });
  },
};

const flakyErrors: Family = {
  name: "flaky-errors",
  label: "progressing",
  summary: "a flaky API: errors (half of them with fresh request ids), then success",
  create(world) {
    const failures = world.int(2, 25);
    const url = `https://api.example.test/v1/items/${world.id(6)}`;
    // Half the APIs put a fresh request id in every error; the others repeat the same text.
    const freshIds = world.chance(0.5);
    let attempt = 0;
    return scriptedAgent(RUN, world, {
      main(i) {
        if (i > failures) return undefined;
        return {
          tool: "web_fetch",
          params: { url },
          inLoop: false,
          respond: () => {
            attempt++;
            if (attempt > failures) return { result: text('{"items": 12}') };
            return { error: freshIds ? `503 Service Unavailable (request id req_${world.id(12)})` : "503 Service Unavailable" };
          },
        };
      },
    });
  },
};

/** Many short scheduled runs with new runIds, each repeating the same status poll. */
const heartbeat: Family = {
  name: "heartbeat",
  label: "progressing",
  summary: "many short runs with new runIds, each repeating the same status poll",
  create(world): AgentBehaviour {
    const pollsPerRun = world.int(3, 8);
    const job = `backup-${world.id(4)}`;
    let run = 1;
    let inRun = 0;
    return {
      next() {
        if (inRun === pollsPerRun) {
          run++;
          inRun = 0;
        }
        inRun++;
        return { runId: `heartbeat-${run}`, tool: "command_status", params: { id: job }, inLoop: false };
      },
      respond: () => ({ result: text(`${job}: idle, next run at 02:00`) }),
      changeApproach() {
        inRun = pollsPerRun; // this run ends; the schedule goes on
      },
      compacted() {},
      runAborted() {
        inRun = pollsPerRun;
      },
    };
  },
};

const HUGE_LOG = Array.from({ length: 320 }, (_, i) => `2026-11-30T02:${String(i % 60).padStart(2, "0")}:00Z worker[${i % 7}] retrying connection to db-primary: timeout`).join("\n");

function overflowFamily(name: string, label: FamilyLabel, summary: string, relapse: boolean): Family {
  return {
    name,
    label,
    summary,
    create(world) {
      const loopStep: Step = { tool: "read", params: { path: `logs/worker-${world.id(4)}.log` }, inLoop: true, respond: () => ({ result: text(HUGE_LOG) }) };
      // A recovering agent may re-read once or twice after the compaction before it changes
      // approach: the case a larger windowSize exists for.
      let rereads = relapse ? 0 : world.int(0, 2);
      const recover = (i: number): Step =>
        rereads-- > 0 ? loopStep : { tool: "exec", params: { command: `grep -c timeout logs/worker.log --max-count ${i}` }, inLoop: false, respond: () => ({ result: text(`${world.int(1, 300)}`) }) };
      return scriptedAgent(RUN, world, { main: () => loopStep, afterCompaction: relapse ? () => loopStep : recover }, relapse ? 2 : 4);
    },
  };
}


// Families where the guards of other runtimes differ (loopsim compare): identical args with new
// data, cycles longer than two, one repeated call among varied ones, and retries whose args
// differ only in a detail.

const pager: Family = {
  name: "pager",
  label: "progressing",
  summary: "pages through a long build log with identical args; every page is new data",
  create(world) {
    const session = `proc-${world.id(6)}`;
    const pages = world.int(6, 40);
    let line = 0;
    return scriptedAgent(RUN, world, {
      main(i) {
        if (i === 0) return startStep("npm run build -- --verbose", session);
        if (i > pages) return undefined;
        return {
          tool: "read_output",
          params: { sessionId: session, maxLines: 200 },
          inLoop: false,
          respond: () => {
            const from = line;
            line += world.int(150, 200);
            return { result: text(`lines ${from}-${line}: compiled ${world.int(1, 99)} modules in chunk ${i}`, { nextLine: line }) };
          },
        };
      },
    });
  },
};

const testFixCycle: Family = {
  name: "test-fix-cycle",
  label: "progressing",
  summary: "runs the same test command up to 17 times, a different fix between runs, failures falling",
  create(world) {
    const runs = world.int(5, 17);
    let failing = runs + world.int(0, 4);
    return scriptedAgent(RUN, world, {
      main(i) {
        const cycle = Math.floor(i / 2);
        if (cycle >= runs) return undefined;
        if (i % 2 === 0) {
          return {
            tool: "exec",
            params: { command: "pytest tests/test_parser.py -x" },
            inLoop: false,
            respond: () => ({ result: text("", { status: "completed", exitCode: failing === 0 ? 0 : 1, aggregated: `${failing} failed, ${40 - failing} passed` }) }),
          };
        }
        return {
          tool: "apply_patch",
          params: { patch: `*** Update File: src/parser.py\n+    # fix ${cycle}: ${world.id(8)}` },
          inLoop: false,
          respond: () => {
            failing = Math.max(0, failing - world.int(1, 2));
            return { result: text("Applied patch") };
          },
        };
      },
    });
  },
};

const cycleOfThree: Family = {
  name: "cycle-3-stuck",
  label: "stuck",
  summary: "cycles through three calls (read config, deploy, read logs) whose results never change",
  create(world) {
    const file = `deploy-${world.id(4)}.yaml`;
    const error = `Error: region "${world.pick(["eu-west-9", "us-central-7"])}" not available`;
    return scriptedAgent(RUN, world, {
      main(i) {
        switch (i % 3) {
          case 0:
            return { tool: "read", params: { path: file }, inLoop: true, respond: () => ({ result: text("service: api\nregion: auto") }) };
          case 1:
            return { tool: "exec", params: { command: "./deploy.sh --apply" }, inLoop: true, respond: () => ({ result: text("", { status: "failed", exitCode: 1, aggregated: error }) }) };
          default:
            return { tool: "read", params: { path: "logs/deploy.log", tail: 20 }, inLoop: true, respond: () => ({ result: text(error) }) };
        }
      },
    });
  },
};

const repeatAmongVaried: Family = {
  name: "repeat-among-varied",
  label: "progressing",
  summary: "explores with varied reads and searches, checking the same unchanged status between them",
  create(world) {
    const steps = world.int(20, 60);
    return scriptedAgent(RUN, world, {
      main(i) {
        if (i >= steps) return undefined;
        if (i % 2 === 0) return { tool: "exec", params: { command: "git status --short" }, inLoop: false, respond: () => ({ result: text("", { status: "completed", exitCode: 0, aggregated: " M src/app.ts" }) }) };
        const n = world.int(1, 400);
        return i % 4 === 1
          ? { tool: "read", params: { path: `src/module${n}.ts` }, inLoop: false, respond: () => ({ result: text(`export const v${n} = ${world.int(0, 1e6)};`) }) }
          : { tool: "grep", params: { pattern: `use${n}`, path: "src" }, inLoop: false, respond: () => ({ result: text(`${world.int(0, 9)} matches`) }) };
      },
    });
  },
};

const nearDuplicate: Family = {
  name: "near-duplicate-stuck",
  label: "stuck",
  summary: "retries a failing fetch with args that differ only in a detail (a retry counter); the result never changes",
  create(world) {
    const url = `https://api.example.test/v1/items/${world.int(1, 9999)}`;
    return scriptedAgent(RUN, world, {
      main(i) {
        return { tool: "web_fetch", params: { url, attempt: i + 1, timeoutMs: 1000 * (1 + (i % 3)) }, inLoop: true, respond: () => ({ result: text("503 Service Unavailable", { status: 503 }) }) };
      },
    });
  },
};

// Families calibrated on recorded work (loopsim calibrate): long exploration with reads, and the
// edit/build cycle whose build prints the same output again and again while the edits progress.

const explorer: Family = {
  name: "explorer",
  label: "progressing",
  summary: "long exploration: reads, searches and listings of ever new files, a re-read now and then",
  create(world) {
    const length = world.int(6, 70);
    const read: string[] = [];
    return scriptedAgent(RUN, world, {
      main(i) {
        if (i >= length) return undefined;
        if (read.length > 3 && world.chance(0.08)) {
          const path = world.pick(read);
          return { tool: "read", params: { path }, inLoop: false, respond: () => ({ result: text(`// ${path}\nexport const again = true;`) }) };
        }
        const n = world.int(1, 900);
        switch (world.int(0, 2)) {
          case 0: {
            const path = `src/${world.pick(["core", "util", "api", "cli"])}/file${n}.ts`;
            read.push(path);
            return { tool: "read", params: { path }, inLoop: false, respond: () => ({ result: text(`export function f${n}() { return ${world.int(0, 1e6)}; }`) }) };
          }
          case 1:
            return { tool: "grep", params: { pattern: `symbol${n}`, path: "src" }, inLoop: false, respond: () => ({ result: text(`${world.int(0, 12)} matches for symbol${n}`) }) };
          default:
            return { tool: "exec", params: { command: `ls -la src/dir${n}` }, inLoop: false, respond: () => ({ result: text("", { status: "completed", exitCode: 0, aggregated: `total ${world.int(1, 40)}` }) }) };
        }
      },
    }, 0);
  },
};

const editBuildCycle: Family = {
  name: "edit-build-cycle",
  label: "progressing",
  summary: "edits a different spot each time and re-runs the same build, which prints the same output until the last edit",
  create(world) {
    const cycles = world.int(6, 33);
    const output = `tsc: ${world.int(2, 9)} errors in src/types.ts`;
    return scriptedAgent(RUN, world, {
      main(i) {
        const cycle = Math.floor(i / 2);
        if (cycle >= cycles) return undefined;
        if (i % 2 === 0) {
          return { tool: "apply_patch", params: { patch: `*** Update File: src/part${cycle}.ts\n+// ${world.id(8)}` }, inLoop: false, respond: () => ({ result: text("Applied patch") }) };
        }
        const done = cycle === cycles - 1;
        return { tool: "exec", params: { command: "npm run build" }, inLoop: false, respond: () => ({ result: text("", { status: "completed", exitCode: done ? 0 : 2, aggregated: done ? "build ok" : output }) }) };
      },
    }, 0);
  },
};

/** Degenerate sentences a model repeats (each 50+ characters: one content window of Gemini's rule). */
const CHANTS: readonly string[] = [
  "I will now check the configuration file once more to be sure. ",
  "Let me verify that the build output matches the expected result. ",
  "I need to make sure the tests pass before I continue with the task. ",
];

// Model text that loops (issue 29): the agent streams one sentence again and again, response after
// response, and only now and then calls a tool (the same read). Opt-in: the preset populations
// leave it out, so reports on tool calls alone do not change; name it to run it.
const textLoop: Family = {
  name: "text-loop",
  label: "stuck",
  summary: "streams the same 50+ character sentence response after response, with a call (a read of a new page) only every few responses",
  optIn: true,
  create(world) {
    const sentence = CHANTS[world.int(0, CHANTS.length - 1)] as string;
    const gap = world.int(3, 6);
    const file = `notes-${world.id(4)}.md`;
    return scriptedAgent(RUN, world, {
      main(i) {
        const says = Array.from({ length: world.int(2, 5) }, () => sentence);
        // Each call reads another page: the calls alone show no loop, only the text does.
        const step: Step = { tool: "read", params: { path: `${file}#page-${i}` }, inLoop: true, says, respond: () => ({ result: text(`# notes, page ${i}`) }) };
        return i % gap === gap - 1 ? step : { ...step, callless: true };
      },
    });
  },
};

// Loops where the failure repeats while the args change (issue 35): the way real agents were seen
// to loop in public runs (a different command or edit each time, the same error each time). Its
// length, how much the args vary and how often the error recurs are fitted per system on the
// stretches `loopsim loops` mines (src/sim/changingArgsParams.json, `loopsim fit-changing-args`);
// each agent draws its system by the stretches each fit rests on. Opt-in, as text-loop: the
// preset populations leave it out, so reports made before it keep their numbers; name it to run it.
const changingArgsStuck: Family = {
  name: "changing-args-stuck",
  label: "stuck",
  summary: "retries a failing attempt with different args every time and meets the same failure (its line number varying), with length, arg change and recurrence fitted per system on real stretches",
  optIn: true,
  create(world) {
    const system = systemParams(drawSystem(CHANGING_ARGS_PARAMS.systems, world));
    const loop = world.pick(STOCK_LOOPS);
    const calls = changingArgsCalls(system, world, loop.words, loop.failure, drawLength(system, world));
    return scriptedAgent(RUN, world, {
      main(i) {
        const c = calls[i];
        if (c === undefined) return undefined;
        return { tool: "exec", params: { command: c.command }, inLoop: true, respond: () => ({ result: text(c.failure, { status: "failed", exitCode: 1, aggregated: c.failure }) }) };
      },
    });
  },
};

export const FAMILIES: readonly Family[] = [
  productive,
  pollerCompletes,
  pollerStuck,
  pingPongStuck,
  pingPongProgress,
  unknownTool,
  sendLoop,
  execVolatile,
  flakyErrors,
  heartbeat,
  overflowFamily("overflow-relapse", "stuck", "a loop grows the context past its window; after the compaction the agent repeats the same call and result", true),
  overflowFamily("overflow-recover", "recovering", "a loop grows the context past its window; after the compaction the agent re-reads at most twice, then changes approach", false),
  pager,
  testFixCycle,
  cycleOfThree,
  repeatAmongVaried,
  nearDuplicate,
  explorer,
  editBuildCycle,
  textLoop,
  changingArgsStuck,
];

export const FAMILY_NAMES: readonly string[] = FAMILIES.map((f) => f.name);

export function findFamily(name: string): Family | undefined {
  return FAMILIES.find((f) => f.name === name);
}
