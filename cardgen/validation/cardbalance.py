"""Per-card balance: how often the holder of each card wins, against the holders of
the other cards, so that a dominant or a useless card stands out.

The counts of each configuration (:mod:`.cardstats`) are pooled per player kind (a
random player's cards say little of a card's strength; a planning player's say more).
A card's holders are compared with what the holders of every card won *in the same
configurations*: its expected rate is the configurations' rates of all holdings,
weighted by how often it was held in each, so a card seen mostly in two-player games is
held against two-player games. Holding cards in itself may go with winning (the winner
of a set-collection game holds more); the comparison with the other cards leaves that
out.

A report judges many cards (Hâpy: 36 per player kind), and at 95 % each a few would
stand out by chance alone: as for the seats, the interval that decides is widened for
the number of cards judged (Bonferroni), so that all of them together are wrong at most
``alpha`` of the time. The 95 % interval is reported too, to draw."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import Any

from .simulate import wilson


def summarise(configs: Sequence[dict[str, Any]], alpha: float = 0.05) -> dict[str, Any] | None:
    """Each player kind's cards: holdings, the holders' wins and rate with its 95 %
    interval, the expected rate, and ``vs_expected`` ("above", "below" or "fair");
    None when no configuration counted any card."""
    kinds: dict[str, list[dict[str, Any]]] = {}
    for c in configs:
        if c.get("cards"):
            kinds.setdefault(c["agents"], []).append(c)
    if not kinds:
        return None
    groups = [_group(kind, group) for kind, group in kinds.items()]
    judged = [card for g in groups for card in g["cards"] if card["held"]]
    z = statistics.NormalDist().inv_cdf(1 - alpha / (2 * len(judged))) if judged else 0.0
    for card in judged:
        lo, hi = wilson(card["wins"], card["held"], z)
        assert lo is not None and hi is not None  # held > 0
        card["balance_interval"] = [lo, hi]
        card["vs_expected"] = "above" if lo > card["expected"] else "below" if hi < card["expected"] else "fair"
    return {"groups": groups, "cards_judged": len(judged),
            "confidence_each": 1 - alpha / len(judged) if judged else None, "confidence_all": 1 - alpha}


def _group(kind: str, configs: list[dict[str, Any]]) -> dict[str, Any]:
    """One player kind's cards, pooled over its configurations."""
    rates = []  # each configuration's rate of all holdings
    for c in configs:
        held = sum(v["held"] for v in c["cards"].values())
        rates.append(sum(v["wins"] for v in c["cards"].values()) / held if held else 0.0)
    pooled: dict[str, list[float]] = {}  # name -> [held, wins, expected wins]
    for c, rate in zip(configs, rates):
        for name, v in c["cards"].items():
            p = pooled.setdefault(name, [0, 0, 0.0])
            p[0] += v["held"]
            p[1] += v["wins"]
            p[2] += v["held"] * rate
    cards = []
    for name in sorted(pooled):
        held, wins, expected = pooled[name]
        lo, hi = wilson(int(wins), int(held))
        cards.append({"card": name, "held": int(held), "wins": int(wins), "rate": wins / held if held else None,
                      "ci95": [lo, hi], "expected": expected / held if held else None})
    held = sum(int(p[0]) for p in pooled.values())
    wins = sum(int(p[1]) for p in pooled.values())
    return {"agents": kind, "configs": len(configs), "held": held, "wins": wins,
            "base_rate": wins / held if held else None, "cards": cards}
