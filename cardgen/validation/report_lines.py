"""Pieces of the text report that the plain and the sweep report share: numbers and
percentages as the report writes them, and the failures with their replay commands."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def pct(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:.0f}"


def num(x: float | None) -> str:
    if x is None:
        return "—"
    return f"{x:g}" if x != int(x) else f"{int(x)}"


def failure_lines(failures: list[dict[str, Any]]) -> list[str]:
    """The failures and unfinished games kept, each with the command that replays it."""
    if not failures:
        return []
    out = ["", "  Failures and unfinished games (each command replays that game step by step):"]
    for f in failures:
        if f.get("chance"):
            out.append(f"  ✗ chance, the whole pass: {f['message']}")
            out.append(f"      {f['replay']}")
            continue
        if f.get("nonterminating"):
            mark = "✗" if f["counts_as_failure"] else "!"
            where = "unfinished"
        else:
            mark, where = "✗", f"step {f['step']} (turn {f['turn'] + 1})"
        out.append(f"  {mark} {f['setup']}, {f['players']} players, {f['agents']}: seed {f['seed']}, {where}:"
                   f" {f['message']}")
        out.append(f"      {f['replay']}")
    if any(f.get("nonterminating") and not f["counts_as_failure"] for f in failures):
        out.append("  (! the rules say these players may never finish a game, e.g. by passing forever:"
                   " such a game is counted and listed, not failed)")
    return out


def unbalanced_seats(configs: list[dict[str, Any]], where: Callable[[dict[str, Any]], str]) -> list[str]:
    """A line for each seat that wins more, or less, than its fair share beyond doubt, its
    configuration named by ``where``."""
    lines = []
    for c in configs:
        for s in c["seats"]:
            if s.get("vs_fair_share") in ("above", "below"):
                lo, hi = s["balance_interval"]
                lines.append(f"  ! {where(c)}: seat {s['seat']} wins {pct(s['rate'])} % [{pct(lo)}–{pct(hi)}],"
                             f" {s['vs_fair_share']} the fair {pct(c['fair_share'])} %")
    return lines
