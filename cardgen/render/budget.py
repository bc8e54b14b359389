"""What one face's template may spend: time, steps and the size of what it builds.

A game folder is untrusted data, and a template is a small program: two nested loops,
a string doubled in a loop or a huge ``center`` width would otherwise run for minutes
or take all the memory. The sandbox's hooks charge every loop iteration, call and
value built to the ``Budget`` of the face being rendered; running out raises
``TemplateLimit``, which the renderer reports as one line naming the template, the
face and the limit. The shipped kits use a small fraction of each limit.
"""

from __future__ import annotations

import math
from time import thread_time
from typing import Any

MAX_STEPS = 1_000_000  # loop iterations, calls and filter uses in rendering one face
MAX_SECONDS = 5.0  # processor time rendering one face may take (a busy machine does not count)
MAX_VALUE = 1_000_000  # characters of one string, items of one list, mapping or set
MAX_BUILT = 20_000_000  # characters and items all the values built for one face add up to
MAX_OUTPUT = 2_000_000  # characters of the layout text one face renders to
MAX_POWER_BITS = 4096  # size of the result of one ``**`` or integer ``*``

CHECK_EVERY = 255  # a loop iteration is counted, and the clock read when (steps left & this) == 0: cheap


class TemplateLimit(Exception):
    """A budget ran out; the message names the limit (reported without an exception name)."""


class Budget:
    """The allowance of one face's rendering; the hooks charge it as the template runs."""

    __slots__ = ("steps_left", "deadline", "built")

    def __init__(self, seconds: float = MAX_SECONDS, steps: int = MAX_STEPS):
        self.steps_left = steps
        self.deadline = thread_time() + seconds
        self.built = 0

    @classmethod
    def idle(cls) -> Budget:
        """Outside any rendering (Jinja folds constants when it compiles): no time or
        step limit, only the limits on size."""
        return cls(seconds=math.inf, steps=1 << 62)

    def call_step(self) -> None:
        """One call or filter use: counted, and the clock read (a call may be slow)."""
        self.steps_left -= 1
        self.check()

    def check(self) -> None:
        if self.steps_left < 0:
            raise TemplateLimit(f"the template ran more than {MAX_STEPS:,} loop iterations and calls "
                                f"for one face (the limit per face)")
        if thread_time() > self.deadline:
            raise TemplateLimit(f"the template used more than {MAX_SECONDS:g} s of processor time for one face "
                                "(the limit per face)")

    def grow(self, size: int, what: str, added: int | None = None) -> None:
        """A value of ``size`` characters or items is about to be built by ``what``;
        ``added`` is what it costs when it grows an existing value (default: all of it)."""
        if size > MAX_VALUE:
            amount = f"more than {MAX_VALUE:,}" if size == MAX_VALUE + 1 else f"{size:,}"  # text_size stops there
            raise TemplateLimit(f"{what} would build a value of {amount} characters or items; "
                                f"a template value may hold at most {MAX_VALUE:,}")
        self.built += size if added is None else added
        if self.built > MAX_BUILT:
            raise TemplateLimit(f"the template built more than {MAX_BUILT:,} characters and items "
                                f"for one face (the limit per face)")


CONTAINERS = (list, tuple, dict, set, frozenset)


def text_size(value: Any, limit: int = MAX_VALUE) -> int:
    """About how many characters ``str(value)`` (or its JSON) takes, so that printing
    a list holding a million copies of a long string is refused before Python builds
    the text; counted only up to ``limit + 1`` (returned as soon as it is passed).
    Never more than the real size: strings count their length, containers their
    brackets and commas, anything else one character."""
    if not isinstance(value, CONTAINERS):  # the common case, kept quick
        return len(value) if isinstance(value, str) else 1
    total = 0
    stack = [value]
    while stack and total <= limit:
        item = stack.pop()
        if isinstance(item, str):
            total += len(item) + 2
        elif isinstance(item, dict):
            total += 2 + 2 * len(item)
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, CONTAINERS):
            total += 2 + len(item)
            stack.extend(item)
        else:
            total += 1
    return min(total, limit + 1)


def sized(value: Any) -> int:
    """The length of a value that has one (0 otherwise): what extending by it adds."""
    try:
        return len(value)
    except TypeError:
        return 0
