"""Jupyter wire messages as the relay reads and writes them: the frames of a message split into
identities, signature, header, parent header, metadata, content and buffers; new messages signed
with the connection file's key (HMAC, as the Jupyter protocol says), so that Deno and the Jupyter
server accept the relay's own requests and replies. Frames the relay only passes on are never
rebuilt: their signatures stay the sender's.
"""
import datetime
import hashlib
import hmac
import json
import uuid

DELIMITER = b"<IDS|MSG>"


class Message:
    """One wire message, its JSON parts decoded on first use."""

    def __init__(self, frames):
        self.frames = frames
        i = frames.index(DELIMITER)
        self.identities = frames[:i]
        self._parts = frames[i + 2:i + 6]
        self._decoded = {}

    def _part(self, n):
        if n not in self._decoded:
            self._decoded[n] = json.loads(self._parts[n])
        return self._decoded[n]

    @property
    def header(self):
        return self._part(0)

    @property
    def parent(self):
        return self._part(1)

    @property
    def content(self):
        return self._part(3)

    @property
    def msg_type(self):
        return self.header.get("msg_type")

    @property
    def msg_id(self):
        return self.header.get("msg_id")

    @property
    def parent_id(self):
        return self.parent.get("msg_id")


def parse(frames):
    """The message of `frames`, or None when they are not a Jupyter message."""
    try:
        return Message(frames)
    except (ValueError, IndexError):
        return None


class Session:
    """Signs and builds the relay's own messages (key and scheme from the connection file)."""

    def __init__(self, key, scheme="hmac-sha256"):
        self.key = key.encode() if isinstance(key, str) else key
        self.digest = getattr(hashlib, scheme.split("-", 1)[1]) if "-" in scheme else hashlib.sha256
        self.session = "relay-" + uuid.uuid4().hex

    def sign(self, parts):
        if not self.key:
            return b""
        mac = hmac.new(self.key, digestmod=self.digest)
        for part in parts:
            mac.update(part)
        return mac.hexdigest().encode()

    def build(self, msg_type, content, parent_header=None, identities=(), metadata=None):
        """The frames of a new message: `parent_header` the header it answers, sent to `identities`."""
        header = {
            "msg_id": uuid.uuid4().hex,
            "username": "relay",
            "session": self.session,
            # Never empty: Deno ends its shell loop on a header whose date does not parse.
            "date": datetime.datetime.now(datetime.timezone.utc).isoformat(),
            "msg_type": msg_type,
            "version": "5.3",
        }
        parts = [json.dumps(p).encode() for p in (header, parent_header or {}, metadata or {}, content)]
        return [*identities, DELIMITER, self.sign(parts), *parts], header

    def status(self, state, parent_header):
        """An IOPub status message (`busy` or `idle`) about the request of `parent_header`."""
        frames, _ = self.build("status", {"execution_state": state}, parent_header, [b"kernel.relay.status"])
        return frames
