"""The write password's guard: wrong attempts are rate-limited.

The operator protects the write pages (Record a game, Import) with ``PLAYTEST_WRITE_PASSWORD``
(``dashboards.ui.write_access``). Without a limit a script could try passwords as fast as the
server answers; with it, after :data:`FREE_ATTEMPTS` wrong passwords in a row every further
attempt must wait, twice as long after each failure (1 s, 2 s, 4 s ... up to
:data:`MAX_WAIT` s). The count is kept for the whole server process, not per browser session,
because a new session costs an attacker nothing; the right password resets it. An attempt made
during the wait is refused without being compared.
"""

from __future__ import annotations

import hmac
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

FREE_ATTEMPTS = 5
MAX_WAIT = 300.0


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

    def attempt(self, given: str, secret: str) -> tuple[bool, str | None]:
        """Check ``given`` against ``secret``: (True, None) when right, else (False, message)."""
        with self._lock:
            now = self.clock()
            if now < self.not_before:
                return False, (f"Too many wrong passwords: try again in "
                               f"{max(1, round(self.not_before - now))} s.")
            if hmac.compare_digest(given.encode("utf-8", "surrogatepass"), secret.encode("utf-8", "surrogatepass")):
                self.failures, self.not_before = 0, 0.0
                return True, None
            self.failures += 1
            over = self.failures - self.free
            if over > 0:
                wait = min(self.cap, self.base * 2.0 ** (over - 1))
                self.not_before = now + wait
                return False, (f"That password is not right. After {self.failures} wrong "
                               f"attempts, the next one is checked in {round(wait)} s.")
            return False, "That password is not right."


#: the one throttle of this server process (every session shares it)
THROTTLE = Throttle()


def attempt(given: str, secret: str) -> tuple[bool, str | None]:
    """Check a write password through the process-wide :data:`THROTTLE`."""
    return THROTTLE.attempt(given, secret)
