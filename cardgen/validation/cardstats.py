"""Which seat held or played each card, game by game, counted per configuration.

A rules module's state may say, once a game is over, which seats held or played each
card (``card_holders()``, see :mod:`cardgen.rules.api`). A seat's holding of a card in
one game is a *holding*; each configuration counts, per card name, its holdings and how
many of them the holder won alone (a draw is nobody's win). :mod:`.cardbalance` judges
the counts. What the rules return is a plug-in's word: it is checked, and a wrong shape
fails the game like a broken rule, with its seed."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..rules.api import RuleViolation

MAX_CARDS = 10_000  # card names one game may name: a deck is far smaller; a runaway list is a bug

Tally = dict[str, list[int]]  # card name -> [holdings, wins]


def holders_of(state: Any, num_players: int) -> dict[str, tuple[int, ...]] | None:
    """The state's ``card_holders()`` at the end of a game, checked (each card name a
    string, each seat one of the game's); None when the state has no such method."""
    hook = getattr(state, "card_holders", None)
    if hook is None:
        return None
    said = hook()
    if not isinstance(said, Mapping):
        raise RuleViolation(f"card_holders() returned a {type(said).__name__}, not a mapping of card names to seats")
    if len(said) > MAX_CARDS:
        raise RuleViolation(f"card_holders() named {len(said):,} cards, more than {MAX_CARDS:,}")
    out: dict[str, tuple[int, ...]] = {}
    for name, seats in said.items():
        if not isinstance(name, str):
            raise RuleViolation(f"card_holders() named a card by a {type(name).__name__}, not by its name")
        try:
            seats = tuple(seats)
        except TypeError:
            raise RuleViolation(f"card_holders() gave card {name!r:.60} a {type(seats).__name__}, not its seats")\
                from None
        for s in seats:
            if type(s) is not int or not 0 <= s < num_players:
                raise RuleViolation(f"card_holders() gave card {name!r:.60} seat {s!r:.20}, not a seat from 0 to"
                                    f" {num_players - 1}")
        out[name] = seats if len(seats) == 1 else tuple(sorted(set(seats)))
    return out


def tally(counts: Tally, holders: Mapping[str, tuple[int, ...]], winners: tuple[int, ...]) -> None:
    """Count one finished game's holdings and the holders' wins."""
    sole = winners[0] if len(winners) == 1 else None
    for name, seats in holders.items():
        for s in seats:
            held = counts.get(name)
            if held is None:
                held = counts[name] = [0, 0]
            held[0] += 1
            if s == sole:
                held[1] += 1


def merge(into: Tally, part: Tally) -> None:
    """Add one chunk's counts to a configuration's."""
    for name, (held, wins) in part.items():
        have = into.setdefault(name, [0, 0])
        have[0] += held
        have[1] += wins


def figures(counts: Tally) -> dict[str, dict[str, int]]:
    """A configuration's counts for the report, by card name in order."""
    return {name: {"held": held, "wins": wins} for name, (held, wins) in sorted(counts.items())}
