"""Drives the project's `deno` kernel (through its relay) over the Jupyter protocol with
jupyter_client, as JupyterLab and nbclient do: reads a list of steps as JSON on stdin, prints one
JSON line per step.

    python kernelProtocol.py REPO_DIR < steps.json

Steps:
  {"op": "execute", "code": ...}                 -> {"outputs": [text/plain or error or stream text], "error": ename?}
  {"op": "complete", "code": ..., "cursor"?: n}  -> the complete_reply's content
  {"op": "inspect", "code": ..., "cursor"?: n}   -> the inspect_reply's content
  {"op": "interrupt", "code": ..., "after": REGEX}
      runs the cell, waits until its output (a progress bar's text, a stream) matches REGEX, then
      interrupt_kernel() as JupyterLab's stop button does -> {"seconds": from the interrupt to the
      cell's error, "ename", "evalue", "last_output": the cell's last display text}
  {"op": "interrupt_idle"}                       -> interrupt_kernel() with no cell running; {"alive": bool}
  {"op": "late_subscriber", "code": ..., "delay": seconds}
      a new client as a Jupyter server that skipped its nudge makes one: its shell socket sends the
      cell at once, its IOPub socket subscribes `delay` s later -> {"outputs": what the IOPub socket got}
"""
import json
import re
import sys
import time

from jupyter_client.manager import KernelManager

TIMEOUT = 120


def text_of(msg):
    c = msg["content"]
    if msg["msg_type"] == "stream":
        return c["text"]
    if msg["msg_type"] == "error":
        return f"{c['ename']}: {c['evalue']}"
    return c.get("data", {}).get("text/plain")


def reply_to(kc, msg_id):
    while True:
        r = kc.get_shell_msg(timeout=TIMEOUT)
        if r["parent_header"].get("msg_id") == msg_id:
            return r["content"]


def execute(kc, code):
    msg_id = kc.execute(code)
    outputs, error = [], None
    while True:
        m = kc.get_iopub_msg(timeout=TIMEOUT)
        if m["parent_header"].get("msg_id") != msg_id:
            continue
        kind = m["msg_type"]
        if kind == "status" and m["content"]["execution_state"] == "idle":
            break
        if kind == "error":
            error = m["content"]["ename"]
        if kind in ("execute_result", "display_data", "stream", "error"):
            outputs.append(text_of(m))
    reply_to(kc, msg_id)
    return {"outputs": outputs, "error": error}


def interrupt(km, kc, code, after):
    msg_id = kc.execute(code)
    pattern = re.compile(after)
    asked, result, last = None, {}, None
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        m = kc.get_iopub_msg(timeout=TIMEOUT)
        if m["parent_header"].get("msg_id") != msg_id:
            continue
        kind = m["msg_type"]
        if kind in ("display_data", "update_display_data", "stream"):
            last = text_of(m) or last
            if asked is None and last and pattern.search(last):
                asked = time.monotonic()
                km.interrupt_kernel()
        elif kind == "error":
            result = {"seconds": None if asked is None else round(time.monotonic() - asked, 3), "ename": m["content"]["ename"], "evalue": m["content"]["evalue"]}
        elif kind == "status" and m["content"]["execution_state"] == "idle":
            break
    reply_to(kc, msg_id)
    # The bar's last update arrives on IOPub just before or after the error: wait for it briefly.
    end = time.monotonic() + 1
    while time.monotonic() < end:
        try:
            m = kc.get_iopub_msg(timeout=0.2)
        except Exception:
            continue
        if m["parent_header"].get("msg_id") == msg_id and m["msg_type"] in ("display_data", "update_display_data"):
            last = text_of(m) or last
    return {**result, "interrupted": asked is not None, "last_output": last}


def late_subscriber(km, code, delay):
    import zmq
    from jupyter_client.session import Session

    info = km.get_connection_info()
    session = Session(key=info["key"], signature_scheme=info["signature_scheme"])
    ctx = zmq.Context.instance()
    shell = ctx.socket(zmq.DEALER)
    shell.connect(f"tcp://{info['ip']}:{info['shell_port']}")
    sent = session.send(shell, "execute_request", {"code": code, "silent": False, "store_history": True, "user_expressions": {}, "allow_stdin": False})
    time.sleep(delay)
    sub = ctx.socket(zmq.SUB)
    sub.setsockopt(zmq.SUBSCRIBE, b"")
    sub.connect(f"tcp://{info['ip']}:{info['iopub_port']}")
    outputs, deadline = [], time.monotonic() + 10
    try:
        while time.monotonic() < deadline:
            if not sub.poll(100):
                continue
            _, frames = session.feed_identities(sub.recv_multipart())
            m = session.deserialize(frames)
            if m["parent_header"].get("msg_id") != sent["header"]["msg_id"]:
                continue
            if m["msg_type"] == "execute_result":
                outputs.append(text_of(m))
            if m["msg_type"] == "status" and m["content"]["execution_state"] == "idle":
                break
    finally:
        shell.close(linger=0)
        sub.close(linger=0)
    return {"outputs": outputs}


def main(repo):
    steps = json.load(sys.stdin)
    started = time.monotonic()
    km = KernelManager(kernel_name="deno")
    km.start_kernel(cwd=repo)
    kc = km.client()
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=TIMEOUT)
        print(json.dumps({"op": "ready", "took": round(time.monotonic() - started, 3)}), flush=True)
        for step in steps:
            op = step["op"]
            started = time.monotonic()
            if op == "execute":
                out = execute(kc, step["code"])
            elif op in ("complete", "inspect"):
                cursor = step.get("cursor", len(step["code"]))
                asked = time.monotonic()
                msg_id = kc.complete(step["code"], cursor) if op == "complete" else kc.inspect(step["code"], cursor)
                out = reply_to(kc, msg_id)
                out["seconds"] = round(time.monotonic() - asked, 3)
            elif op == "interrupt":
                out = interrupt(km, kc, step["code"], step["after"])
            elif op == "late_subscriber":
                out = late_subscriber(km, step["code"], step["delay"])
            elif op == "interrupt_idle":
                km.interrupt_kernel()
                time.sleep(0.5)
                out = {"alive": km.is_alive()}
            print(json.dumps({"op": op, "code": step.get("code"), "took": round(time.monotonic() - started, 3), **out}), flush=True)
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


main(sys.argv[1])
