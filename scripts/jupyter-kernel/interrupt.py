"""The kernel's interrupt, which Deno's kernel does not implement (it logs "Interrupt request
currently not supported" and carries on). The kernelspec's interrupt mode is "message": the
Jupyter server (JupyterLab's stop button) and jupyter_client's interrupt_kernel send an
interrupt_request on the control channel. While a cell runs, the relay sends SIGUSR1 to the Deno
process instead, if that process catches SIGUSR1: the workbench's kernel helpers listen for it
(kernel-helpers/kernel/interrupts.ts) and abort every data call and download running, which end
with an InterruptedError; the kernel and its variables stay. The relay answers interrupt_reply
itself. A kernel that does not catch SIGUSR1 (the helpers not loaded, or another platform) gets
the interrupt_request as before: SIGUSR1's default action would end the process.
"""
import os
import signal

SIGNAL = signal.SIGUSR1


def catches(pid, signum=SIGNAL):
    """Whether process `pid` has a handler for `signum` (Linux: the SigCgt mask of /proc/PID/status)."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("SigCgt:"):
                    return bool((int(line.split()[1], 16) >> (signum - 1)) & 1)
    except (OSError, ValueError):
        pass
    return False


class Interrupter:
    """Turns interrupt_request into SIGUSR1 for a Deno that listens, and answers it."""

    def __init__(self, session, pid, log):
        self.session = session
        self.pid = pid
        self.log = log
        # Cells running or queued in Deno: the msg_ids of execute_requests forwarded, until their replies.
        self.running = set()

    def client_execute(self, msg):
        self.running.add(msg.msg_id)

    def deno_reply(self, msg):
        self.running.discard(msg.parent_id)

    def request(self, msg):
        """The interrupt_reply to send back (between a busy and an idle status), as
        [(side, channel, frames)], or None to pass the request on to Deno."""
        if not catches(self.pid):
            self.log("interrupt: Deno does not catch SIGUSR1 (the workbench's kernel helpers are not loaded): passed on")
            return None
        if self.running:
            os.kill(self.pid, SIGNAL)
            self.log(f"interrupt: SIGUSR1 sent to {self.pid}, {len(self.running)} cell(s) running or queued")
        else:
            self.log("interrupt: no cell running, nothing sent")
        frames, _ = self.session.build("interrupt_reply", {"status": "ok"}, msg.header, msg.identities)
        return [("client", "iopub", self.session.status("busy", msg.header)), ("client", "control", frames),
                ("client", "iopub", self.session.status("idle", msg.header))]
