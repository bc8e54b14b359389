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
``tests/rules/test_egypt_tables.py`` fails until it is written again::

    python bench/egypt_tables.py

(which :mod:`.tablemaker` builds and writes).

It holds plain values only (dicts, lists, tuples, numbers, strings) and is read with an
unpickler that refuses anything else.
"""

from __future__ import annotations

import hashlib
import io
import pickle
import zlib
from array import array
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
