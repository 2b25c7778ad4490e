#!/usr/bin/env python3
"""Print one recorded session compactly, call by call, for the issue-35 recall reading.

Calls are numbered from 0 by the COMMON.md convention:
- mini-swe-agent-1: an assistant message is a call when the next message is the environment's
  answer to it (a user message with <returncode> or a timeout notice), whatever way the action was
  written (a fenced bash block, indented or not, or a Python-style exec_bash_cmd(...) call);
  format-error replies and harness notes (reflections) are shown, unnumbered, as context;
- mini-swe-agent-1.1 and tau-bench: every tool_calls entry answered by a tool message with its id.
Hints after a call ("same action as #k", "same output as #k") only help the reader; they judge nothing.
Usage: read.py ROOT REF [--width N]
"""
import gzip, json, re, sys

W = 300
LAST_COMMAND = re.compile(r"\s*the last (?:action|command)\b", re.I)
TIMEOUT = re.compile(r"timed out and has been killed|command timed out|timed out after \d+|<command>.*</command> timed out", re.I | re.S)
BASH_FENCE = re.compile(r"```(?:bash|sh)[ \t]*\n(.*?)\n[ \t]*```", re.S)
FENCE = re.compile(r"```[a-zA-Z]*[ \t]*\n(.*?)\n[ \t]*```", re.S)


def text(c):
    if isinstance(c, str):
        return c
    if isinstance(c, list):
        return "\n".join(b.get("text", "") if isinstance(b, dict) else str(b) for b in c)
    return "" if c is None else str(c)


def flat(s, n):
    s = re.sub(r"\s+", " ", s).strip()
    return s if len(s) <= n else s[: n - 1] + "…"


def ends(s, n):
    s = re.sub(r"\s+", " ", s).strip()
    if len(s) <= 2 * n:
        return s
    return s[:n] + " ⟪…⟫ " + s[-n:]


def outcome(reply):
    m = re.search(r"<returncode>\s*(-?\d+)\s*</returncode>", reply)
    rc = m.group(1) if m else ("TIMEOUT" if TIMEOUT.search(reply) else "?")
    body = reply
    o = re.search(r"<output>\n?(.*?)</output>", reply, re.S)
    if o:
        body = o.group(1)
    elif "<output_head>" in reply:
        body = "[LONG] " + re.sub(r"</?output_(head|tail)>|<elided_chars>.*?</elided_chars>", " ", reply[reply.index("<output_head>"):], flags=re.S)
    return rc, body


def mini1(msgs):
    rows = []
    for i, m in enumerate(msgs):
        if m.get("role") != "assistant":
            continue
        t = text(m.get("content"))
        nxt = msgs[i + 1] if i + 1 < len(msgs) else None
        reply = text(nxt.get("content")) if nxt else ""
        # The timeout notice is the harness's template, read from its start ("The last command
        # <command>...</command> timed out ..."), as the importer reads it: a long command pushes the
        # words "timed out" far into the reply.
        answered = nxt is not None and nxt.get("role") == "user" and ("<returncode>" in reply or (LAST_COMMAND.match(reply) is not None and TIMEOUT.search(reply) is not None))
        bash = list(BASH_FENCE.finditer(t))
        f = bash[-1] if bash else FENCE.search(t)
        if f:
            action = f.group(1)
            thought = t[: f.start()]
        else:
            lines = t.split("\n")
            code = [l for l in lines if not l.lstrip().startswith("#") and not l.startswith("THOUGHT")]
            action = "\n".join(code)
            thought = "\n".join(l for l in lines if l not in code)
        if answered:
            rc, body = outcome(reply)
            rows.append(("call", action, rc, body, thought))
        else:
            rows.append(("note", "assistant turn NOT RUN; reply: " + flat(reply, 160) + " | thought: " + flat(t, 200)))
        # harness notes injected after the reply (reflections, acknowledgements)
        j = i + 2
        while j < len(msgs) and msgs[j].get("role") == "user" and answered:
            rows.append(("note", "harness note: " + flat(text(msgs[j].get("content")), 160)))
            j += 1
    return rows


def toolcalls(msgs, show_dialogue):
    # tool_call_ids are reused within some transcripts (49 of the 200 tau-bench runs): a call is
    # answered by the first not-yet-used tool message with its id that comes after it.
    used = set()

    def answer_for(after, cid):
        for j in range(after + 1, len(msgs)):
            mm = msgs[j]
            if j not in used and mm.get("role") == "tool" and mm.get("tool_call_id") == cid:
                used.add(j)
                return text(mm.get("content"))
        return None

    rows = []
    for i, m in enumerate(msgs):
        role = m.get("role")
        if role == "assistant":
            t = text(m.get("content"))
            tcs = m.get("tool_calls") or []
            if not tcs and t.strip():
                rows.append(("note", "assistant says: " + flat(t, 220)))
            for k, tc in enumerate(tcs):
                fn = tc.get("function", {})
                reply = answer_for(i, tc.get("id"))
                if reply is None:
                    rows.append(("note", "tool call NOT ANSWERED: " + flat(fn.get("name", "") + " " + str(fn.get("arguments")), 200)))
                    continue
                args = fn.get("arguments")
                try:
                    a = json.loads(args) if isinstance(args, str) else args
                except Exception:
                    a = args
                action = a.get("command") if isinstance(a, dict) and set(a) == {"command"} else fn.get("name", "") + " " + json.dumps(a, sort_keys=True)
                rc, body = outcome(reply) if "<returncode>" in reply else (("ERR" if reply.lower().startswith("error") else "ok"), reply)
                rows.append(("call", action, rc, body, t if k == 0 else ""))
        elif role == "user" and show_dialogue:
            rows.append(("note", "customer: " + flat(text(m.get("content")), 220)))
    return rows


def load(root, ref):
    path, _, rid = ref.partition("#")
    # Datasets are published gzip-compressed; the corpus keeps some sessions as plain JSON.
    d = json.load(gzip.open(f"{root}/{path}") if path.endswith(".gz") else open(f"{root}/{path}"))
    if rid:
        task, trial = rid.split("/trial")
        run = next(r for r in d if str(r["task_id"]) == task and str(r["trial"]) == trial)
        return toolcalls(run["traj"], True), f"reward={run['reward']}"
    fmt = d.get("trajectory_format")
    info = d.get("info", {})
    head = f"format={fmt} exit={info.get('exit_status')}"
    return (toolcalls(d["messages"], False) if fmt == "mini-swe-agent-1.1" else mini1(d["messages"])), head


def main():
    root, ref = sys.argv[1], sys.argv[2]
    w = int(sys.argv[sys.argv.index("--width") + 1]) if "--width" in sys.argv else W
    rows, head = load(root, ref)
    ncalls = sum(1 for r in rows if r[0] == "call")
    print(f"## {ref} {head} calls={ncalls}")
    lo = int(sys.argv[sys.argv.index("--from") + 1]) if "--from" in sys.argv else 0
    hi = int(sys.argv[sys.argv.index("--to") + 1]) if "--to" in sys.argv else 10**9
    seen_a, seen_o = {}, {}
    n = 0
    for r in rows:
        if r[0] == "note":
            if lo <= n <= hi:
                print("   .. " + r[1])
            continue
        _, action, rc, body, thought = r
        ka = re.sub(r"\s+", " ", action).strip()
        ko = re.sub(r"\s+", " ", body).strip()
        hint = []
        if ka in seen_a:
            hint.append(f"SAME-ACTION-AS #{seen_a[ka]}")
        if ko in seen_o and len(ko) > 0:
            hint.append(f"same-output-as #{seen_o[ko]}")
        seen_a.setdefault(ka, n)
        seen_o.setdefault(ko, n)
        if not (lo <= n <= hi):
            n += 1
            continue
        th = flat(re.sub(r"^(THOUGHT:|# ?Thoughts?:)", "", thought.strip()), w // 2)
        print(f"#{n} [{rc}] {' '.join(hint)}")
        if th:
            print(f"   T: {th}")
        print(f"   A: {flat(action, w)}")
        print(f"   O: {ends(body, w // 2)}")
        n += 1


if __name__ == "__main__":
    main()
