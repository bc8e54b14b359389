"""What a Horus step did, in words, for ``cardgen validate --trace``: the stones placed
and the region each stands in, the scores when they change, a tile out of the game, and
at the end every region scored and the winner. Read off the state before and after the
step (Horus keeps no log), so it costs nothing unless a game is traced."""

from __future__ import annotations

from typing import Any

from .codec import P_OVER
from .geometry import xy


def _region(s: Any, slot: int, temple: set[int]) -> str:
    rid = s.reg[slot]
    if rid < 0:
        return "on no region"
    stones = s.reg_stones[rid]
    held = ", ".join(f"seat {p + 1} {k}" for p, k in enumerate(stones) if k)
    return (f"in a region of {len(s.reg_members[rid])} tile(s), worth {s.region_value(rid, temple)}"
            f" (stones: {held})")


def _scores(scores: list[int]) -> str:
    return ", ".join(f"seat {p + 1} {x}" for p, x in enumerate(scores))


def outcome_text(s: Any, before: Any) -> str:
    """What the step from ``before`` (a state, or what the checker kept of one: its
    ``stone_at``, ``removed``, ``phase``, ``player`` and ``scores()``) to ``s`` did."""
    out = []
    temple = s.temple_regions()
    for slot, seat in s.stone_at.items():
        if before.stone_at.get(slot) != seat:
            out.append(f"seat {seat + 1}'s stone stands at {xy(s.pos[slot])} {_region(s, slot, temple)}")
    if len(s.removed) > len(before.removed):
        out.append(f"{len(s.removed) - len(before.removed)} tile(s) leave the game (no place for them)")
    now, then = s.scores(), before.scores()
    if s.phase == P_OVER and before.phase != P_OVER:
        for rid, stones in sorted(s.reg_stones.items()):
            best = max(stones)
            if best:
                lead = [p + 1 for p, k in enumerate(stones) if k == best]
                out.append(f"region of {len(s.reg_members[rid])} tile(s) scores {s.region_value(rid, temple)}"
                           f" for seat{'s' if len(lead) > 1 else ''} {', '.join(map(str, lead))}")
        top = max(now)
        won = [p + 1 for p, x in enumerate(now) if x == top]
        out.append(f"final scores {_scores(now)}; " + (f"seat {won[0]} wins" if len(won) == 1 else
                                                       f"seats {', '.join(map(str, won))} share the win"))
    elif now != then:
        out.append(f"scores now {_scores(now)}")
    return "; ".join(out)
