"""Tab completion and Shift+Tab help from the workbench's help in the kernel. Deno's kernel
completes `wb.` with internals and everything an object inherits, nothing on a frame or an
expression, and answers every inspect_request with found: false. The relay answers a client's
complete_request and inspect_request by running in Deno, as a silent cell (no output, no history,
no execution count), `await globalThis[Symbol.for("market-workbench.editor")]?.({...})`: the
kernel helpers (kernel-helpers/editor/service.ts) answer with the reply's content under EDITOR_MIME;
nothing comes back where the helpers are not loaded or leave the request to Deno, and the relay
then passes the client's request on to Deno unchanged. The silent cell's own messages on IOPub
(status, execute_input, execute_result, error) are not passed to the clients.
"""
import json

EDITOR_MIME = "application/vnd.market-workbench.editor+json"
REPLY_TYPE = {"complete_request": "complete_reply", "inspect_request": "inspect_reply"}
KIND = {"complete_request": "complete", "inspect_request": "inspect"}
OWN_IOPUB = {"status", "execute_input", "execute_result", "error"}


class Pending:
    """A client's request being answered through a silent cell."""

    def __init__(self, original):
        self.original = original
        self.answer = None
        self.replied = False
        self.idle = False


class EditorBridge:
    def __init__(self, session, log):
        self.session = session
        self.log = log
        self.pending = {}  # the silent cell's msg_id -> Pending

    def client_request(self, msg):
        """The frames to send Deno for a client's shell message: a silent cell for completion and help."""
        if msg.msg_type not in REPLY_TYPE:
            return msg.frames
        content = msg.content
        request = {"kind": KIND[msg.msg_type], "code": content.get("code", ""), "cursor": content.get("cursor_pos", 0)}
        code = 'await globalThis[Symbol.for("market-workbench.editor")]?.(%s)' % json.dumps(request)
        execute = {"code": code, "silent": True, "store_history": False, "user_expressions": {}, "allow_stdin": False, "stop_on_error": False}
        # No identities: Deno's answers come back to the relay alone, which never passes them on.
        frames, header = self.session.build("execute_request", execute)
        self.pending[header["msg_id"]] = Pending(msg)
        return frames

    def owns(self, msg):
        return msg is not None and msg.parent_id in self.pending

    def deno_iopub(self, msg):
        """Whether an IOPub message from Deno goes on to the clients (False for the silent cells' own)."""
        pending = self.pending.get(msg.parent_id)
        if pending is None:
            return True
        if msg.msg_type == "execute_result":
            pending.answer = msg.content.get("data", {}).get(EDITOR_MIME)
        elif msg.msg_type == "status" and msg.content.get("execution_state") == "idle":
            pending.idle = True
        return msg.msg_type not in OWN_IOPUB

    def deno_reply(self, msg):
        """A silent cell's execute_reply (never passed to the clients)."""
        self.pending[msg.parent_id].replied = True

    def settle(self):
        """For each silent cell finished (its reply and its idle status in): the answer to the client
        (between a busy and an idle status), or the client's request passed on to Deno; as
        [(side, channel, frames)]."""
        out = []
        for msg_id, p in list(self.pending.items()):
            if not (p.replied and p.idle):
                continue
            del self.pending[msg_id]
            original = p.original
            if isinstance(p.answer, dict) and "error" not in p.answer:
                frames, _ = self.session.build(REPLY_TYPE[original.msg_type], p.answer, original.header, original.identities)
                # Status busy, the reply, status idle, as every kernel does around a request: JupyterLab
                # completes a request's future only once the idle status for it has come too.
                out += [("client", "iopub", self.session.status("busy", original.header)), ("client", "shell", frames),
                        ("client", "iopub", self.session.status("idle", original.header))]
            else:
                if isinstance(p.answer, dict):
                    self.log(f"editor: the kernel helpers failed ({p.answer['error']}): {original.msg_type} passed on to Deno")
                out.append(("deno", "shell", original.frames))
        return out

