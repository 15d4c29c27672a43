"""A client's first request waits for its IOPub subscription.

A Jupyter server "nudges" each new websocket connection (kernel_info_request until a reply and an
IOPub message have arrived) so that the connection's IOPub subscription is live before its first
request runs: ZeroMQ drops what a PUB socket publishes before a subscriber's subscription has
reached it. But jupyter_server skips the nudge when it believes the kernel busy, and it believes
that from its own IOPub socket, which can see a cell's closing `idle` after the client does: a
client that connects right after a cell ended (a second tab, a reload) then sends its first cell
with no check, and under load its subscription can reach the relay after that cell's output was
published. The cell then shows no output, and the client waits for it forever.

The relay's IOPub socket is an XPUB that reports every subscription. Each subscription is
claimed by the first request of one new shell peer (a client's connection) that came at most
WINDOW seconds after it; a peer whose first request finds none unclaimed is held until one
arrives, or for HOLD seconds at most. kernel_info_request never waits (the server's own nudge
sends it from transient sockets that have no subscription of their own), and a peer that never
gets a subscription (a client without IOPub) is delayed once, by HOLD.
"""
import collections
import time

WINDOW = 10.0  # seconds: how old a subscription a new peer may claim
HOLD = 2.0  # seconds: the longest a peer's first request waits


class Subscriptions:
    def __init__(self, log, clock=time.monotonic):
        self.log = log
        self.clock = clock
        self.unclaimed = collections.deque()  # arrival times of subscriptions not yet claimed
        self.peers = collections.OrderedDict()  # routing id -> first seen, for peers not yet settled
        self.settled = collections.OrderedDict()  # routing ids whose requests pass (bounded)
        self.held = collections.OrderedDict()  # routing id -> [frames] waiting for a subscription

    def subscribed(self, frame):
        """An XPUB event: b"\\x01" + topic subscribes, b"\\x00" + topic unsubscribes."""
        if frame[:1] == b"\x01":
            self.unclaimed.append(self.clock())

    def _claim(self, since):
        while self.unclaimed and self.unclaimed[0] < since - WINDOW:
            self.unclaimed.popleft()
        if self.unclaimed:
            self.unclaimed.popleft()
            return True
        return False

    def _settle(self, peer):
        self.peers.pop(peer, None)
        self.settled[peer] = True
        while len(self.settled) > 1000:
            self.settled.popitem(last=False)

    def request(self, peer, msg_type, frames):
        """The frames to pass on now for a client's shell message ([] while it is held)."""
        if peer in self.settled:
            return [frames]
        now = self.clock()
        first_seen = self.peers.setdefault(peer, now)
        while len(self.peers) > 1000:  # the server's transient nudge sockets send one kernel_info each and go
            self.peers.popitem(last=False)
        if peer in self.held:
            self.held[peer].append(frames)
            return []
        if msg_type == "kernel_info_request":
            return [frames]
        if self._claim(first_seen):
            self._settle(peer)
            return [frames]
        self.log(f"subscriptions: a new client's {msg_type} waits for its IOPub subscription")
        self.held[peer] = [frames]
        return []

    def release(self):
        """Held frames whose peer now has a subscription, or has waited HOLD seconds: [frames]."""
        out = []
        for peer in list(self.held):
            waited = self.clock() - self.peers.get(peer, self.clock())
            if self._claim(self.peers.get(peer, self.clock())) or waited >= HOLD:
                if waited >= HOLD:
                    self.log(f"subscriptions: no IOPub subscription after {HOLD} s: the held request goes on")
                out += self.held.pop(peer)
                self._settle(peer)
        return out

    def holding(self):
        return bool(self.held)
