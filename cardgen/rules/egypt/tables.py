"""Egypt's tables of moves, searches and greedy choices, complete for the shipped options
and shipped beside the code, so that no process starts them cold.

The engine caches by a hand's counts its legal reveals, melds and discards, the best
tribute a hand can score and the greedy player's choices (see :mod:`.game`,
:mod:`.moves`, :mod:`.agents`). Built as hands are met, they start empty in every
process, and most of a quick pass's time went into filling them, in each worker process
anew (warming them in the parent before the fork does not pay: a few hundred games fill
only part of them, and the rest is filled in each worker again). Built over every hand
of up to eight cards, they take seconds; read from :data:`DATA` (in the parent, before
the workers are forked, which then share them) they take a fraction of one.

The file holds a fingerprint of the modules that decide the tables' values
(:data:`SOURCES`): a file made from other code is not read (the tables are then built as
hands are met, as for options other than the shipped ones), and
``tests/test_egypt_tables.py`` fails until it is written again::

    python bench/egypt_tables.py

It holds plain values only (dicts, lists, tuples, numbers, strings) and is read with an
unpickler that refuses anything else.
"""

from __future__ import annotations

import hashlib
import io
import pickle
import zlib
from array import array
from collections.abc import Iterable
from itertools import accumulate
from pathlib import Path
from typing import Any

DATA = Path(__file__).with_name("tables.bin")
FORMAT = 1
# the modules whose code decides what the tables hold
SOURCES = ("spec", "bits", "codec", "moves", "game", "agents")


def fingerprint() -> str | None:
    """A digest of :data:`SOURCES` (line ends made alike); None where the sources cannot be read."""
    h = hashlib.sha256()
    folder = Path(__file__).parent
    try:
        for name in SOURCES:
            h.update(name.encode() + b"\0" + (folder / f"{name}.py").read_bytes().replace(b"\r\n", b"\n"))
    except OSError:
        return None
    return h.hexdigest()[:32]


class _PlainUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        raise pickle.UnpicklingError(f"{module}.{name}: the Egypt tables hold plain values only")


def read(path: Path = DATA) -> tuple[tuple[int, str | None, tuple], io.BytesIO] | None:
    """The file's header (format, fingerprint, the option keys it holds) and the rest; None
    if it cannot be read."""
    try:
        f = io.BytesIO(path.read_bytes())
        head = _PlainUnpickler(f).load()
    except (OSError, pickle.UnpicklingError, EOFError, ValueError, TypeError):
        return None
    if not (isinstance(head, tuple) and len(head) == 3):
        return None
    return head, f


def shipped_tables(key: tuple, path: Path = DATA) -> dict | None:
    """The complete tables for the options ``key`` (see :func:`.game.table_key`), with the
    End phase's legal discards under ``"discard_lists"``; None if the file does not hold
    them, or was made from other code."""
    got = read(path)
    if got is None:
        return None
    (form, made_from, keys), f = got
    if form != FORMAT or key not in keys or made_from is None or made_from != fingerprint():
        return None
    try:
        every = _PlainUnpickler(io.BytesIO(zlib.decompress(f.read()))).load()
        return _decoded(every[key])
    except (pickle.UnpicklingError, zlib.error, EOFError, ValueError, TypeError, KeyError, IndexError):
        return None


LISTS = ("melds", "reveals", "discard_lists")  # the tables of action lists (the others hold numbers)


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


def _decoded(tables: dict) -> dict:
    actions = tables.pop("actions")
    for name in LISTS:
        hands, lengths, indexes = tables[name]
        flat = array("H")
        flat.frombytes(indexes)
        every = list(map(actions.__getitem__, flat))
        ends = list(accumulate(lengths))
        tables[name] = dict(zip(hands, [every[a:b] for a, b in zip([0, *ends], ends)]))
    return tables


def every_hand(cards: int) -> list[int]:
    """The counts (as :func:`.bits.counts_sig`) of every hand of at most ``cards`` cards."""
    from .bits import counts_sig
    from .spec import COPIES, NTYPES

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
    from .agents import GreedyAgent
    from .bits import swar_total
    from .game import _TABLES, EgyptGame, empty_tables, table_key
    from .moves import DISCARDS, discard_actions
    from .spec import HAND, MAX_PLAYERS, EgyptOptions

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
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    tmp.replace(path)
    return len(data)

