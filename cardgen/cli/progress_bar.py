"""The line a long validation pass shows on a terminal: a bar, the games played and
the time left, estimated from the pace so far."""

from __future__ import annotations

BAR_WIDTH = 24


def duration(seconds: float) -> str:
    """``42 s``, ``3 min 05 s``, ``1 h 02 min``."""
    s = max(0, round(seconds))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s // 3600} h {s % 3600 // 60:02d} min"


def bar_line(label: str, done: int, total: int, elapsed: float) -> str:
    """``[#########---------------] 1,234/9,604 games, about 40 s left (playing giza, 3 players)``;
    no estimate until a game has been played."""
    share = done / total if total else 1.0
    filled = min(BAR_WIDTH, int(share * BAR_WIDTH))
    bar = "#" * filled + "-" * (BAR_WIDTH - filled)
    if 0 < done < total and elapsed > 0:
        left = f", about {duration(elapsed / done * (total - done))} left"
    elif done >= total:
        left = f", {duration(elapsed)}"
    else:
        left = ""
    return f"[{bar}] {done:,}/{total:,} games{left} (playing {label})"
