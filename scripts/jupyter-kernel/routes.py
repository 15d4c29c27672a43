"""Where each message the relay receives goes. Most go on unchanged to the other side of their
channel; a client's complete_request and inspect_request become a silent cell (editor.py), a
client's interrupt_request becomes SIGUSR1 (interrupt.py), and the silent cells' answers go back to
the client that asked. A message the relay cannot read, or a failure in this routing, is passed on
unchanged: the relay never stands between a client and Deno.
"""
from wire import parse


class Routes:
    def __init__(self, editor, interrupter, subscriptions, log):
        self.editor = editor
        self.interrupter = interrupter
        self.subscriptions = subscriptions
        self.log = log

    def subscription(self, frames):
        """An IOPub subscription event (XPUB): it may release a client's held requests."""
        for frame in frames:
            self.subscriptions.subscribed(frame)
        return self.released()

    def released(self):
        """What the subscriptions let through now: held shell requests of new clients."""
        out = []
        for frames in self.subscriptions.release():
            try:
                out += self._to_deno(parse(frames), frames)
            except Exception as error:  # as in route(): pass the message on
                self.log(f"relay: {type(error).__name__} {error} releasing a held request: passed on")
                out.append(("deno", "shell", frames))
        return out

    def route(self, channel, direction, frames):
        """[(side, channel, frames)] to send, side "client" or "deno"."""
        other = "deno" if direction == "client->deno" else "client"
        try:
            out = self._route(channel, direction, frames, other)
        except Exception as error:  # a routing bug must not cost the kernel: pass the message on
            self.log(f"relay: {type(error).__name__} {error} routing a {channel} message {direction}: passed on")
            return [(other, channel, frames)]
        return out + self.editor.settle()

    def _route(self, channel, direction, frames, other):
        if channel == "stdin" or (channel == "control" and direction == "deno->client"):
            return [(other, channel, frames)]
        msg = parse(frames)
        if msg is None:
            return [(other, channel, frames)]
        if channel == "shell" and direction == "client->deno":
            out = []
            for passed in self.subscriptions.request(msg.identities[0] if msg.identities else b"", msg.msg_type, frames):
                out += self._to_deno(parse(passed), passed)
            return out
        if channel == "shell":
            if self.editor.owns(msg):
                self.editor.deno_reply(msg)
                return []
            if msg.msg_type == "execute_reply":
                self.interrupter.deno_reply(msg)
            return [("client", "shell", frames)]
        if channel == "iopub":
            return [("client", "iopub", frames)] if self.editor.deno_iopub(msg) else []
        if msg.msg_type == "interrupt_request":  # control, from a client
            reply = self.interrupter.request(msg)
            if reply is not None:
                return reply
        return [(other, channel, frames)]

    def _to_deno(self, msg, frames):
        """A client's shell message on its way to Deno."""
        if msg.msg_type == "execute_request":
            self.interrupter.client_execute(msg)
        return [("deno", "shell", self.editor.client_request(msg))]
