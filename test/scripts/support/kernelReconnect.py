"""Drives a Deno kernel through a Jupyter server's websocket API as a browser tab would: per cycle
it connects (A), runs a cell, connects a second client (B) with A open, runs a cell there, closes
B, runs a cell on A again and closes A. Every connection makes the server nudge the kernel.

    python kernelReconnect.py SERVER_URL TOKEN CYCLES

Prints one JSON line per cycle ({"cycle", "outputs"} or {"cycle", "error"}) and stops at the first
failure. Runs under the JupyterLab environment's Python (tornado comes with jupyter_server).
"""
import asyncio
import datetime
import json
import sys
import time
import uuid

from tornado.httpclient import AsyncHTTPClient, HTTPRequest
from tornado.websocket import websocket_connect

STEP_TIMEOUT = 10  # seconds; a healthy kernel answers `2 * 3` in well under one


def execute_request(session, code):
    header = {"msg_id": uuid.uuid4().hex, "username": "test", "session": session, "msg_type": "execute_request",
              "version": "5.3", "date": datetime.datetime.now(datetime.timezone.utc).isoformat()}
    content = {"code": code, "silent": False, "store_history": True, "user_expressions": {}, "allow_stdin": False,
               "stop_on_error": True}
    return {"header": header, "parent_header": {}, "metadata": {}, "content": content, "channel": "shell", "buffers": []}


async def run_cell(ws, session, code):
    """The cell's text/plain result, once its execute_reply and idle status have both arrived."""
    request = execute_request(session, code)
    await ws.write_message(json.dumps(request))
    result, replied, idle = None, False, False
    deadline = time.monotonic() + STEP_TIMEOUT
    while not (replied and idle):
        raw = await asyncio.wait_for(ws.read_message(), max(0.01, deadline - time.monotonic()))
        if raw is None:
            raise RuntimeError("the server closed the websocket")
        msg = json.loads(raw)
        if msg["parent_header"].get("msg_id") != request["header"]["msg_id"]:
            continue
        kind = msg["header"]["msg_type"]
        if kind == "execute_result":
            result = msg["content"]["data"]["text/plain"]
        elif kind == "error":
            raise RuntimeError(f"cell {code!r} raised {msg['content']['ename']}: {msg['content']['evalue']}")
        replied = replied or kind == "execute_reply"
        idle = idle or (kind == "status" and msg["content"]["execution_state"] == "idle")
    return result


async def main(url, token, cycles):
    http = AsyncHTTPClient()
    auth = {"Authorization": f"token {token}"}
    created = await http.fetch(HTTPRequest(f"{url}/api/kernels", method="POST", headers=auth, body=json.dumps({"name": "deno"})))
    kernel = json.loads(created.body)["id"]
    channels = f"{url.replace('http', 'ws', 1)}/api/kernels/{kernel}/channels"
    connect = lambda: websocket_connect(HTTPRequest(channels, headers=auth))
    try:
        for cycle in range(cycles):
            step = "connect A"
            try:
                a, session = await asyncio.wait_for(connect(), STEP_TIMEOUT), uuid.uuid4().hex
                step = "run on A"
                outputs = [await run_cell(a, session, f"{cycle} * 2")]
                step = "connect B with A open"
                b = await asyncio.wait_for(connect(), STEP_TIMEOUT)
                step = "run on B"
                outputs.append(await run_cell(b, uuid.uuid4().hex, f"{cycle} * 3"))
                b.close()
                await asyncio.sleep(0.1)
                step = "run on A after B closed"
                outputs.append(await run_cell(a, session, f"{cycle} * 5"))
                a.close()
                await asyncio.sleep(0.1)
                print(json.dumps({"cycle": cycle, "outputs": outputs}), flush=True)
            except Exception as error:  # the report names the step, not a traceback
                print(json.dumps({"cycle": cycle, "error": f"{step}: {type(error).__name__} {error}"}), flush=True)
                return
    finally:
        await http.fetch(HTTPRequest(f"{url}/api/kernels/{kernel}", method="DELETE", headers=auth), raise_error=False)


asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3])))
