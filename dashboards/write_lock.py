"""The write password's guard: wrong attempts are rate-limited.

The operator protects the write pages (Record a game, Import) with ``PLAYTEST_WRITE_PASSWORD``
(``dashboards.ui.write_access``). Without a limit a script could try passwords as fast as the
server answers; with it, after :data:`FREE_ATTEMPTS` wrong passwords in a row every further
attempt must wait, twice as long after each failure (1 s, 2 s, 4 s ... up to
:data:`MAX_WAIT` s). An attempt made during the wait is refused without being compared; the
right password resets the count.

The count is kept per client address (``st.context.ip_address``), not per browser session,
because a new session costs an attacker nothing. It is not one count for the whole server:
then one wrong try each time the wait ends held everybody at 300 s forever, the facilitator
included (issue 19). At most :data:`MAX_CLIENTS` addresses are remembered (the least recently
seen is forgotten first); clients whose address is unknown share one count. The server
counts every client's wrong attempts as well (:data:`SERVER_FREE_ATTEMPTS` in a row, then
waits up to :data:`SERVER_MAX_WAIT` s), so that a client changing its address for every try
does not get a fresh count each time (issue 31).
"""

from __future__ import annotations

import hmac
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

FREE_ATTEMPTS = 5
MAX_WAIT = 300.0
MAX_CLIENTS = 4096
#: wrong attempts in a row from all clients together before the server's own wait starts, and
#: that wait's cap: high enough that one guessing client never holds the others back (its own
#: count stops it first), short enough that the facilitator waits a minute at most
SERVER_FREE_ATTEMPTS = 50
SERVER_MAX_WAIT = 60.0


@dataclass
class Throttle:
    """Consecutive wrong attempts and when the next attempt may be checked."""

    free: int = FREE_ATTEMPTS
    base: float = 1.0
    cap: float = MAX_WAIT
    clock: Callable[[], float] = time.monotonic
    failures: int = 0
    not_before: float = 0.0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def wait_left(self) -> float:
        """Seconds before the next attempt is checked (0 when it may be tried now)."""
        with self._lock:
            return max(0.0, self.not_before - self.clock())

    def refusal(self) -> str | None:
        """Why an attempt now is refused without being compared (None: it may be tried)."""
        with self._lock:
            now = self.clock()
            if now < self.not_before:
                return (f"Too many wrong passwords: try again in "
                        f"{max(1, round(self.not_before - now))} s.")
            return None

    def record(self, right: bool) -> str | None:
        """Count an attempt compared: the right password resets the count; a wrong one past
        the free attempts starts a wait (its message, else None)."""
        with self._lock:
            if right:
                self.failures, self.not_before = 0, 0.0
                return None
            self.failures += 1
            over = self.failures - self.free
            if over > 0:
                wait = min(self.cap, self.base * 2.0 ** (over - 1))
                self.not_before = self.clock() + wait
                return (f"That password is not right. After {self.failures} wrong "
                        f"attempts, the next one is checked in {round(wait)} s.")
            return None

    def attempt(self, given: str, secret: str) -> tuple[bool, str | None]:
        """Check ``given`` against ``secret``: (True, None) when right, else (False, message)."""
        return _attempt((self,), given, secret)


def _right(given: str, secret: str) -> bool:
    return hmac.compare_digest(given.encode("utf-8", "surrogatepass"),
                               secret.encode("utf-8", "surrogatepass"))


def _attempt(counts: tuple[Throttle, ...], given: str, secret: str) -> tuple[bool, str | None]:
    # refused unread while any count waits; else compared once and counted by every count
    for t in counts:
        why = t.refusal()
        if why:
            return False, why
    right = _right(given, secret)
    said = [m for m in (t.record(right) for t in counts) if m]
    if right:
        return True, None
    return False, said[-1] if said else "That password is not right."


@dataclass
class Throttles:
    """One :class:`Throttle` per client address, at most ``clients`` of them remembered."""

    clients: int = MAX_CLIENTS
    make: Callable[[], Throttle] = Throttle
    #: every client's wrong attempts together: a client that changes its address for each
    #: try gets a fresh count of its own, but not of the server's
    server: Throttle = field(default_factory=lambda: Throttle(free=SERVER_FREE_ATTEMPTS,
                                                              cap=SERVER_MAX_WAIT))
    _by_client: OrderedDict[str, Throttle] = field(default_factory=OrderedDict, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def of(self, client: str) -> Throttle:
        """The throttle of ``client`` (created on first use)."""
        with self._lock:
            t = self._by_client.get(client)
            if t is None:
                t = self._by_client[client] = self.make()
                while len(self._by_client) > self.clients:
                    self._by_client.popitem(last=False)
            else:
                self._by_client.move_to_end(client)
            return t

    def attempt(self, given: str, secret: str, client: str) -> tuple[bool, str | None]:
        """Check ``given`` against ``secret`` under ``client``'s own count and the server's."""
        return _attempt((self.server, self.of(client)), given, secret)


#: the throttles of this server process, one per client address (every session of a client
#: shares it)
THROTTLES = Throttles()


def client_address() -> str:
    """The address of the browser making this request, or ``"unknown"``."""
    try:
        import streamlit as st

        ip = st.context.ip_address
    except Exception:  # noqa: BLE001 - outside a request (tests, scripts)
        return "unknown"
    return ip if isinstance(ip, str) and ip else "unknown"


def attempt(given: str, secret: str, client: str | None = None) -> tuple[bool, str | None]:
    """Check a write password through the throttle of ``client`` (default: this request's)."""
    return THROTTLES.attempt(given, secret, client if client is not None else client_address())
