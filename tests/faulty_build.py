"""``cardgen`` with a fault at one step of writing the kit, for tests/output/test_atomic_kit.py.

    python faulty_build.py STEP ACTION [--no-exchange] -- cardgen arguments…

ACTION is a signal name (SIGKILL, SIGTERM, SIGINT) the process sends itself when the
build reaches STEP (a name given to ``cardgen.output.commit.reached``), or
``sleep:N`` to pause N seconds there, or ``wait:PATH`` to pause until the file PATH
exists (at most a minute). ``--no-exchange`` makes the swap use its
two-rename fallback (systems without an atomic exchange).
"""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

import cardgen.output.commit as commit
import cardgen.output.swap as swap


def main() -> None:
    args = sys.argv[1:]
    split = args.index("--")
    step, action, *flags = args[:split]
    if "--no-exchange" in flags:
        swap.EXCHANGE = False

    def reached(name: str) -> None:
        if name != step:
            return
        if action.startswith("sleep:"):
            print(f"paused at {name}", file=sys.stderr, flush=True)
            time.sleep(float(action.removeprefix("sleep:")))
        elif action.startswith("wait:"):
            print(f"paused at {name}", file=sys.stderr, flush=True)
            release = Path(action.removeprefix("wait:"))
            deadline = time.monotonic() + 60
            while not release.exists() and time.monotonic() < deadline:
                time.sleep(0.05)
        else:
            os.kill(os.getpid(), getattr(signal, action))
            time.sleep(5)  # a handled signal runs its handler here

    commit.reached = reached
    from cardgen.cli import main as cardgen

    sys.argv = ["cardgen", *args[split + 1:]]
    cardgen()


if __name__ == "__main__":
    main()
