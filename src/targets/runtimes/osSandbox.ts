// The OS sandbox every driven CLI runs in, since its tools execute whatever calls a trace holds
// (anyone's trace): bubblewrap (Debian's `bubblewrap`) builds a throwaway root per process that
// shows only the system's programs and libraries read-only, node, the runtime's own files
// read-only, and the scratch folder (work, HOME, the model's socket) writable; /tmp is an empty
// tmpfs. It gets new user, pid, ipc, uts and network namespaces: the network has a loopback only,
// so nothing outside is reachable. The scripted model stays in loopsim and listens on a unix socket
// in the scratch folder; inside, a tiny node relay listens on 127.0.0.1:SANDBOX_MODEL_PORT and
// pipes each connection to that socket, so the CLI talks to "its model on loopback" and to nothing
// else. Each process's writable memory is bounded (ulimit -d: an address-space bound, ulimit -v,
// breaks the WebAssembly and Bun reservations of node and compiled CLIs; a runtime that reserves
// more declares its own bound, drivenRuntimes.ts, and what a run holds is bounded by the resident
// watchdog, residentWatchdog.ts) and the whole namespace dies with its parent
// (--die-with-parent; killing bwrap's process group ends every process inside: it is pid 1's
// parent, and the pid namespace goes with pid 1).
import { execFileSync } from "node:child_process";
import { existsSync, lstatSync, readlinkSync } from "node:fs";
import { dirname } from "node:path";

/** The port the relay listens on inside the sandbox's own network namespace (never on the host). */
export const SANDBOX_MODEL_PORT = 18_080;
/** Default bound of the memory each process of a sandboxed CLI may write (RLIMIT_DATA); a runtime may declare its own (drivenRuntimes.ts: Kilo's). */
export const DEFAULT_SANDBOX_MEMORY_BYTES = 4 * 1024 ** 3;

export interface SandboxLayout {
  /** Folders and files the sandbox sees read-only, at the same paths. */
  readonly readOnly: readonly string[];
  /** Folders the sandbox may write, at the same paths (the scratch folder). */
  readonly writable: readonly string[];
  /** The scripted model's unix socket, relayed to 127.0.0.1:SANDBOX_MODEL_PORT inside. */
  readonly modelSocket: string;
  readonly cwd: string;
  readonly memoryBytes?: number;
}

let availability: string | null | undefined;

/** Why no sandbox can be made here (undefined: bubblewrap works). Checked once per process. */
export function sandboxUnavailable(): string | undefined {
  if (availability === undefined) {
    try {
      execFileSync("bwrap", ["--unshare-all", "--die-with-parent", ...systemBinds(), "--", "/bin/sh", "-c", "exit 0"], { stdio: "pipe", timeout: 10_000 });
      availability = null;
    } catch (error) {
      const e = error as NodeJS.ErrnoException & { stderr?: Buffer };
      availability =
        e.code === "ENOENT"
          ? "bubblewrap (bwrap) is not installed; on Debian or Ubuntu: apt-get install -y bubblewrap"
          : `bubblewrap cannot create namespaces here (${String(e.stderr ?? e.message).trim().split("\n")[0]}); user namespaces may be disabled`;
    }
  }
  return availability ?? undefined;
}

/** The system's programs and libraries, read-only; merged-/usr symlinks kept as symlinks. */
function systemBinds(): string[] {
  const args = ["--ro-bind", "/usr", "/usr", "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"];
  for (const top of ["/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"]) {
    if (!existsSync(top)) continue;
    if (lstatSync(top).isSymbolicLink()) args.push("--symlink", readlinkSync(top), top);
    else args.push("--ro-bind", top, top);
  }
  // What programs read from /etc to start (users, hosts, certificates, time zone); nothing else.
  for (const file of ["/etc/passwd", "/etc/group", "/etc/hosts", "/etc/nsswitch.conf", "/etc/ssl", "/etc/ca-certificates", "/etc/localtime", "/etc/alternatives", "/etc/ld.so.cache"]) {
    args.push("--ro-bind-try", file, file);
  }
  return args;
}

/** node's own install, when it is not under /usr already. */
function nodeBinds(): string[] {
  const prefix = dirname(dirname(process.execPath));
  return prefix === "/usr" || prefix.startsWith("/usr/") ? [] : ["--ro-bind", prefix, prefix];
}

// Runs inside the sandbox: listens on loopback, pipes every connection to the model's socket,
// then runs the CLI and exits with its status. CommonJS on purpose: `node -e` needs no file.
const RELAY = `
const net = require("node:net"), cp = require("node:child_process");
const [socket, port, file, ...args] = process.argv.slice(1);
const relay = net.createServer((client) => {
  const model = net.connect(socket);
  client.pipe(model).pipe(client);
  client.on("error", () => model.destroy());
  model.on("error", () => client.destroy());
});
relay.listen(Number(port), "127.0.0.1", () => {
  const child = cp.spawn(file, args, { stdio: "inherit" });
  const stop = (signal) => child.kill(signal);
  for (const s of ["SIGTERM", "SIGINT", "SIGHUP"]) process.on(s, () => stop(s));
  child.on("error", (error) => { process.stderr.write("loopsim sandbox: " + error.message + "\\n"); process.exit(127); });
  child.on("exit", (code, signal) => process.exit(code === null ? 128 + (require("node:os").constants.signals[signal] || 9) : code));
});
`;

/** The command that runs `file args` in the sandbox: give it to execa as is. */
export function sandboxedCommand(file: string, args: readonly string[], layout: SandboxLayout): { file: string; args: string[] } {
  const memoryKb = Math.floor((layout.memoryBytes ?? DEFAULT_SANDBOX_MEMORY_BYTES) / 1024);
  const bwrap = [
    "--unshare-all",
    "--die-with-parent",
    "--new-session",
    ...systemBinds(),
    ...nodeBinds(),
    ...layout.readOnly.flatMap((path) => ["--ro-bind", path, path]),
    ...layout.writable.flatMap((path) => ["--bind", path, path]),
    // The root itself is a throwaway tmpfs, and bwrap makes the parents of every mount point in
    // it: without this, a call could write beside the scratch folder (say, into a path that looks
    // like the repo when the cache lives in it). Nothing would leak out, but the calls would see a
    // writable "repo"; read-only, only the scratch folder and /tmp accept writes.
    "--remount-ro",
    "/",
    "--chdir",
    layout.cwd,
    "--",
    "/bin/sh",
    "-c",
    `ulimit -d ${memoryKb} && exec "$@"`,
    "loopsim-sandbox",
    process.execPath,
    "-e",
    RELAY,
    layout.modelSocket,
    String(SANDBOX_MODEL_PORT),
    file,
    ...args,
  ];
  return { file: "bwrap", args: bwrap };
}
