"""Launches `deno jupyter --kernel` behind a libzmq relay, so that the Deno kernel survives a page
reload, a second browser tab and any other new client.

Why: Deno's kernel talks ZeroMQ through a pure-Rust implementation (the `zeromq` crate) whose
ROUTER sockets stop reading from peers that connect while a read is pending, until an older peer
sends something. Every websocket a Jupyter server opens adds new shell and control peers, and its
"nudge" (kernel_info_request on fresh shell and control sockets, waiting for the replies and for a
status message on IOPub) is then left unanswered: the tab shows the kernel as "Unknown" and no
cell runs. docs/jupyter-kernel-reload.md has the reproduction and the messages exchanged.

How: this launcher binds the ports of the connection file the Jupyter server wrote (with libzmq,
through pyzmq, which jupyter_client itself needs), starts Deno on other ports, and relays frames
unchanged over ONE long-lived connection per channel, so the Deno kernel only ever sees one peer
on shell, control and stdin and one subscriber on IOPub. Frames are forwarded byte for byte (the
signatures stay valid); the heartbeat goes straight to Deno, so a hung kernel still shows as dead.
The launcher exits with Deno's exit status, and passes SIGINT/SIGTERM on to it.

Two things Deno's kernel lacks are done here, for a kernel that loaded the workbench's kernel
helpers: the interrupt (interrupt.py: SIGUSR1 to Deno, which aborts the workbench's calls) and
completion and help (editor.py: answered by the helpers through a silent cell). Both pass the
request on to Deno unchanged where the helpers are not loaded. And a new client's first request
waits for its IOPub subscription (subscriptions.py), which a Jupyter server does not always check.

    python3 relay.py CONNECTION_FILE DENO [ARG ...]

runs `DENO ARG ... --conn INNER_CONNECTION_FILE` (the project's kernelspec passes
`deno jupyter --kernel`). Set DENO_KERNEL_RELAY_LOG to a file path to log one line per message
(time, channel, direction, msg_type, msg_id, parent msg_id) for debugging.
"""
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # the modules beside this one are imported from the repository: leave no __pycache__ there
from editor import EditorBridge  # noqa: E402
from interrupt import Interrupter  # noqa: E402
from routes import Routes  # noqa: E402
from subscriptions import Subscriptions  # noqa: E402
from wire import DELIMITER, Session  # noqa: E402

# How long closing waits to deliver what is still queued once Deno has exited: its last replies.
LINGER_MS = 200


def free_ports(ip, count):
    """Ports free on `ip` now, as jupyter_client picks them (bind to port 0, read, close)."""
    sockets = [socket.socket() for _ in range(count)]
    try:
        for s in sockets:
            s.bind((ip, 0))
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


def describe(frames):
    """msg_type, msg_id and parent msg_id of a Jupyter wire message, for the debug log."""
    try:
        i = frames.index(DELIMITER)
        header, parent = json.loads(frames[i + 2]), json.loads(frames[i + 3])
        return f"{header.get('msg_type')} {header.get('msg_id')} parent={parent.get('msg_id')}"
    except (ValueError, IndexError, json.JSONDecodeError):
        return f"non-Jupyter message of {len(frames)} frames"


def main(argv):
    if len(argv) < 3:
        sys.stderr.write("usage: relay.py CONNECTION_FILE DENO [ARG ...]\n")
        return 2
    conn_file, command = argv[1], argv[2:]
    with open(conn_file) as f:
        outer = json.load(f)
    if outer.get("transport", "tcp") != "tcp":
        sys.stderr.write(f"relay.py: transport {outer.get('transport')!r} is not supported; only tcp is\n")
        return 2
    ip = outer["ip"]
    url = lambda port: f"tcp://{ip}:{port}"
    inner = dict(outer)
    inner["shell_port"], inner["control_port"], inner["iopub_port"], inner["stdin_port"] = free_ports(ip, 4)

    log_path = os.environ.get("DENO_KERNEL_RELAY_LOG")
    log_file = open(log_path, "a", buffering=1) if log_path else None

    def log(channel, direction, frames):
        if log_file:
            log_file.write(f"{time.time():.3f} {channel} {direction} {describe(frames)}\n")

    def note(text):
        if log_file:
            log_file.write(f"{time.time():.3f} {text}\n")

    # Deno first: its start-up (seconds) then overlaps with importing pyzmq and binding here.
    fd, inner_file = tempfile.mkstemp(prefix="deno-kernel-", suffix=".json")
    with os.fdopen(fd, "w") as f:
        json.dump(inner, f)
    kernel = subprocess.Popen([*command, "--conn", inner_file])
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda signum, _frame: kernel.send_signal(signum))

    pairs, ctx = {}, None  # socket -> (channel, direction); sockets[(side, channel)]: the socket to that side
    sockets = {}
    try:
        import zmq  # after the kernel's start, see above

        ctx = zmq.Context()
        # One identity for the shell and stdin connections to Deno: Deno sends an input_request on stdin
        # to the identity its execute_request came from on shell, as every Jupyter kernel does.
        identity = b"relay-" + os.urandom(8).hex().encode()
        for channel, front_type, back_type in (("shell", zmq.ROUTER, zmq.DEALER),
                                               ("control", zmq.ROUTER, zmq.DEALER),
                                               ("stdin", zmq.ROUTER, zmq.DEALER),
                                               ("iopub", zmq.XPUB, zmq.SUB)):
            front = ctx.socket(front_type)
            front.linger = LINGER_MS
            if front_type == zmq.XPUB:
                front.setsockopt(zmq.XPUB_VERBOSE, 1)  # every client's subscription, not only the first (subscriptions.py)
            front.bind(url(outer[f"{channel}_port"]))
            back = ctx.socket(back_type)
            back.linger = LINGER_MS
            if back_type == zmq.SUB:
                back.setsockopt(zmq.SUBSCRIBE, b"")
            elif channel != "control":
                back.setsockopt(zmq.IDENTITY, identity)
            back.connect(url(inner[f"{channel}_port"]))
            pairs[front] = (channel, "client->deno")
            pairs[back] = (channel, "deno->client")
            sockets[("client", channel)], sockets[("deno", channel)] = front, back

        poller = zmq.Poller()
        for s in pairs:
            poller.register(s, zmq.POLLIN)
        session = Session(outer.get("key", ""), outer.get("signature_scheme", "hmac-sha256"))
        subscriptions = Subscriptions(note)
        routes = Routes(EditorBridge(session, note), Interrupter(session, kernel.pid, note), subscriptions, note)
        while kernel.poll() is None:
            for s, _ in poller.poll(50 if subscriptions.holding() else 200):
                channel, direction = pairs[s]
                frames = s.recv_multipart()
                if s.socket_type == zmq.XPUB:
                    out = routes.subscription(frames)
                else:
                    log(channel, direction, frames)
                    out = routes.route(channel, direction, frames)
                for side, out_channel, message in out:
                    sockets[(side, out_channel)].send_multipart(message)
            for side, out_channel, message in routes.released() if subscriptions.holding() else []:
                sockets[(side, out_channel)].send_multipart(message)
        return kernel.returncode
    finally:
        if kernel.poll() is None:  # the relay itself failed: do not leave Deno running unreachable
            kernel.kill()
        os.unlink(inner_file)
        for s in pairs:
            s.close()
        if ctx is not None:
            ctx.term()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
