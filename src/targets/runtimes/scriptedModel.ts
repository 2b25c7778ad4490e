// The scripted model: an OpenAI-compatible chat-completions endpoint that loopsim serves to a
// runtime's own CLI, on a unix socket that the OS sandbox relays to the CLI's loopback. Each request that offers tools gets the next step of the
// script: one assistant message with that step's tool calls (several for parallel calls), in
// the streaming or plain form the client asked for. Requests without tools (titles, summaries)
// get a short text. Every request is kept, so the harness sees exactly what a real model would
// have seen: tool results, and any warning the runtime put into the conversation.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

export interface ScriptedCall {
  readonly id: string;
  /** The name and args exactly as a model would send them: nothing is normalised here. */
  readonly name: string;
  /** undefined: no arguments at all, sent as an empty arguments string. */
  readonly args: unknown;
}

/** A call's `arguments` string as sent: empty when the model gave none, else its JSON. */
export function argumentsText(args: unknown): string {
  return args === undefined ? "" : JSON.stringify(args);
}

export interface ScriptedStep {
  readonly calls: readonly ScriptedCall[];
  /** Runs when the step is served, before the runtime sees it (file changes between calls). */
  readonly beforeServe?: () => void;
}

export interface SeenRequest {
  /** Which step this request was answered with (undefined: a text answer). */
  readonly servedStep: number | undefined;
  readonly messages: readonly unknown[];
}

export interface ScriptedModel {
  readonly baseUrl: string;
  readonly requests: readonly SeenRequest[];
  /** Steps served so far. */
  served(): number;
  /** Replaces the script (a new prompt of the same conversation). */
  load(steps: readonly ScriptedStep[]): void;
  /** Called on every request, after it was answered (the harness's watchdog listens); returns
   * the call that stops listening (each prompt's watchdog listens only while its CLI runs). */
  onRequest(listener: () => void): () => void;
  close(): Promise<void>;
}

export const FINAL_TEXT = "Done.";
const MAX_BODY = 32 * 1024 * 1024;

/** Where the model listens: a unix socket (relayed to loopback inside the OS sandbox), and the
 * base URL the runtime is given for it. */
export interface ModelEndpoint {
  readonly socketPath: string;
  readonly baseUrl: string;
}

export async function startScriptedModel(endpoint: ModelEndpoint): Promise<ScriptedModel> {
  let steps: readonly ScriptedStep[] = [];
  let next = 0;
  let servedTotal = 0;
  const requests: SeenRequest[] = [];
  const listeners: (() => void)[] = [];
  const server: Server = createServer((req, res) => {
    readBody(req)
      .then((body) => {
        answer(body, res);
        for (const l of listeners) l();
      })
      .catch(() => {
        res.writeHead(400).end();
      });
  });
  const answer = (body: string, res: ServerResponse): void => {
    let parsed: { model?: string; stream?: boolean; tools?: unknown[]; messages?: unknown[] };
    try {
      parsed = JSON.parse(body) as typeof parsed;
    } catch {
      res.writeHead(400, { "content-type": "application/json" }).end('{"error":{"message":"not JSON"}}');
      return;
    }
    const offersTools = Array.isArray(parsed.tools) && parsed.tools.length > 0;
    const step = offersTools ? steps[next] : undefined;
    if (step !== undefined) {
      step.beforeServe?.();
      next++;
      servedTotal++;
    }
    requests.push({ servedStep: step === undefined ? undefined : next - 1, messages: Array.isArray(parsed.messages) ? parsed.messages : [] });
    const id = `chatcmpl-loopsim-${requests.length}`;
    const model = parsed.model ?? "scripted";
    const toolCalls = step?.calls.map((c, i) => ({ index: i, id: c.id, type: "function", function: { name: c.name, arguments: argumentsText(c.args) } }));
    const finish = toolCalls !== undefined && toolCalls.length > 0 ? "tool_calls" : "stop";
    const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };
    if (parsed.stream !== true) {
      const message = toolCalls !== undefined && toolCalls.length > 0 ? { role: "assistant", content: null, tool_calls: toolCalls.map(({ index: _i, ...c }) => c) } : { role: "assistant", content: FINAL_TEXT };
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ id, object: "chat.completion", created: 0, model, choices: [{ index: 0, message, finish_reason: finish }], usage }));
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    const chunk = (delta: unknown, finishReason: string | null, extra: object = {}) => res.write(`data: ${JSON.stringify({ id, object: "chat.completion.chunk", created: 0, model, choices: [{ index: 0, delta, finish_reason: finishReason }], ...extra })}\n\n`);
    if (toolCalls !== undefined && toolCalls.length > 0) {
      chunk({ role: "assistant", content: null }, null);
      for (const call of toolCalls) chunk({ tool_calls: [call] }, null);
    } else chunk({ role: "assistant", content: FINAL_TEXT }, null);
    chunk({}, finish, { usage });
    res.end("data: [DONE]\n\n");
  };
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(endpoint.socketPath, () => resolve());
  });
  return {
    baseUrl: endpoint.baseUrl,
    requests,
    served: () => servedTotal,
    load(newSteps) {
      steps = newSteps;
      next = 0;
    },
    onRequest(listener) {
      listeners.push(listener);
      return () => {
        const at = listeners.indexOf(listener);
        if (at >= 0) listeners.splice(at, 1);
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new Error("body too large"));
        req.destroy();
      } else chunks.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}
