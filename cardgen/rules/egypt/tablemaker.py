"""Build Egypt's tables (:mod:`.tables`) over every hand and write the shipped file;
used by ``bench/egypt_tables.py`` and the tests, never by a validation run."""

from __future__ import annotations

import pickle
import zlib
from array import array
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ...base.files import write_atomic
from .agents import GreedyAgent
from .bits import counts_sig, swar_total
from .game import _TABLES, EgyptGame, empty_tables, table_key
from .moves import DISCARDS, discard_actions
from .spec import COPIES, HAND, MAX_PLAYERS, NTYPES, EgyptOptions
from .tables import DATA, FORMAT, LISTS, fingerprint


def _encoded(tables: dict) -> dict:
    """The tables with each table of action lists as (hands, lengths, indexes into the
    distinct actions), for a read about twice as fast as pickled lists (and the actions
    shared: one int object each)."""
    actions = sorted({a for name in LISTS for legal in tables[name].values() for a in legal})
    index = {a: i for i, a in enumerate(actions)}
    out = {name: t for name, t in tables.items() if name not in LISTS}
    out["actions"] = actions
    for name in LISTS:
        t = tables[name]
        out[name] = (list(t), bytes(map(len, t.values())),
                     array("H", [index[a] for legal in t.values() for a in legal]).tobytes())
    return out


def every_hand(cards: int) -> list[int]:
    """The counts (as :func:`.bits.counts_sig`) of every hand of at most ``cards`` cards."""
    out: list[int] = []

    def rec(t: int, left: int, counts: list[int]) -> None:
        if t == NTYPES:
            out.append(counts_sig(counts))
            return
        for k in range(min(left, COPIES) + 1):
            counts.append(k)
            rec(t + 1, left - k, counts)
            counts.pop()

    rec(0, cards, [])
    return out


def build(options: Any = None, players: Iterable[int] = range(2, 7)) -> dict:
    """Every table for ``options`` (default: the defaults, which the shipped game uses) and
    the greedy player's Control-phase choices for ``players`` (default: the shipped game's
    2 to 6), built from scratch over every hand that can be met: in the Control phase the
    hands of seven (the Draw phase fills them), else those of up to eight (seven and the
    card taken): ``{key: tables}``. Resets this process's tables for those options."""
    options = options or EgyptOptions()
    key = table_key(options)
    _TABLES[key] = empty_tables()
    DISCARDS.clear()
    hands = every_hand(HAND + 1)
    drawn = [sig for sig in hands if swar_total(sig) == HAND]  # the Control phase's hands
    g = EgyptGame(2, options)
    for sig in hands:
        for a in g.meld_actions(sig)[1:]:
            g.control_key(a)
        g.best_tribute(sig)
        discard_actions(sig)
    for sig in drawn:
        g.reveal_actions(sig)
    shared = GreedyAgent(g, 0)  # the choices that do not depend on the player count
    for sig in hands:
        shared._melds[sig] = shared._meld(sig, g.meld_actions(sig))
        shared._discards[sig] = shared._discard(sig, DISCARDS[sig])
    for n in players:
        if not 2 <= n <= MAX_PLAYERS:
            raise ValueError(f"Egypt is played by 2 to {MAX_PLAYERS} players, not {n}")
        player = GreedyAgent(EgyptGame(n, options), 0)
        for sig in drawn:
            legal = g.reveal_actions(sig)
            player._held[sig] = player._control(sig, True, legal)
            player._free[sig] = player._control(sig, False, legal)
    return {key: {**_TABLES[key], "discard_lists": dict(DISCARDS)}}


def write(path: Path = DATA, options: Any = None, players: Iterable[int] = range(2, 7)) -> int:
    """Build the tables and write them with this code's fingerprint; the file's size."""
    every = {key: _encoded(t) for key, t in build(options, players).items()}
    data = pickle.dumps((FORMAT, fingerprint(), tuple(every)), protocol=4) + zlib.compress(
        pickle.dumps(every, protocol=4), 9)
    write_atomic(path, data)
    return len(data)

