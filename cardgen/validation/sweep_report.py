"""A sweep's part of the text report: one row per run and configuration, side by side, and
which runs' seat balance differs from the others'."""

from __future__ import annotations

from typing import Any

from .report_lines import failure_lines as _failure_lines
from .report_lines import num as _num
from .report_lines import pct as _pct
from .report_lines import unbalanced_seats


def _points(x: float | None) -> str:
    """A difference of rates in signed percentage points."""
    return "—" if x is None else f"{round(100 * x):+d}"


def first_player(c: dict[str, Any]) -> str:
    """Seat 1's wins above (+) or below (−) the fair share, in points, with its 95 % interval."""
    fair = c.get("fair_share")
    if fair is None or not c["seats"] or c["seats"][0]["rate"] is None:
        return "—"
    s = c["seats"][0]
    lo, hi = s["ci95"]
    return f"{_points(s['rate'] - fair)} [{_points(lo - fair)}–{_points(hi - fair)}]"


def sweep_lines(report: dict[str, Any]) -> list[str]:
    """The sweep's summary, its table, the seat balance within and between runs, and the failures."""
    sweep, sim = report["sweep"], report["simulation"]
    runs = sweep["runs"]
    failures = sum(c["failure_count"] for c in sim["configs"])
    unfinished = sum(c["nonterminating"]["count"] for c in sim["configs"])
    out = [f"Sweep: {len(runs)} runs of {' × '.join(sweep['names'])}, {report['options']['games']:,} games per setup"
           f" × player count × player kind in each: {'OK' if sim['ok'] else 'FAILED'}"]
    if sim.get("games"):
        out.append(f"  {sim['games']:,} games in {sim['elapsed_s']:.1f} s ({_num(sim['games_per_s'])} games/s);"
                   f" {failures} rule or invariant failure(s), {unfinished} unfinished game(s); seeds"
                   f" {sim['seeds'][0]}–{sim['seeds'][1]} in every row")
    out.extend(_table(runs))
    out.extend(_fair_share_lines(sim))
    out.extend(_between_runs(sweep.get("seat_balance") or {}))
    out.extend(_failure_lines(sim["failures"]))
    return out


def _table(runs: list[dict[str, Any]]) -> list[str]:
    width = max(len("run"), *(len(r["label"]) for r in runs))
    out = [f"  {'run':<{width}}  {'setup':<9} {'players':>7}  {'kind':<7} {'games':>6} {'done':>5}"
           f" {'turns':>6} {'first player, pts':>17} {'failures':>8}   wins per seat, % [95 % CI]"]
    for run in runs:
        sim = run["simulation"]
        if sim["skipped"]:
            out.append(f"  {run['label']:<{width}}  not played: {sim['skipped']}")
            continue
        for c in sim["configs"]:
            seats = "  ".join(f"{s['seat']}: {_pct(s['rate'])} [{_pct(s['ci95'][0])}–{_pct(s['ci95'][1])}]"
                              for s in c["seats"])
            odd = "  ≠ other runs" if c.get("vs_other_runs", {}).get("differs") else ""
            out.append(f"  {run['label']:<{width}}  {c['setup']:<9} {c['players']:>7}  {c['agents']:<7}"
                       f" {c['games']:>6} {_pct(c['completion_rate']):>4}% {_num(c['length']['median']):>6}"
                       f" {first_player(c):>17} {c['failure_count'] + _unfinished_failures(c):>8}   {seats}{odd}")
    return out


def _unfinished_failures(c: dict[str, Any]) -> int:
    nt = c["nonterminating"]
    return nt["count"] if nt["counts_as_failure"] else 0


def _fair_share_lines(sim: dict[str, Any]) -> list[str]:
    """Seats whose wins differ from a fair share beyond doubt, judged over every row of the sweep."""
    lines = unbalanced_seats(sim["configs"],
                             lambda c: f"{c['sweep']} ({c['setup']}, {c['players']} players, {c['agents']})")
    if not lines:
        return []
    judged = sim.get("seat_balance", {})
    return ["", f"  Seats whose wins differ from a fair share (each interval at"
                f" {100 * judged.get('confidence_each', 0.95):.2f} %, all {judged.get('seats_judged', 0)} seats of the"
                f" sweep together wrong at most {100 * (1 - judged.get('confidence_all', 0.95)):g} % of the time):",
            *lines]


def _between_runs(verdict: dict[str, Any]) -> list[str]:
    """Which runs' seats win in other shares than the other runs' (see sweep.compare_runs)."""
    if not verdict.get("compared"):
        return ["", "  Seat balance between runs: rows are compared with the other runs' rows of as many players,"
                    " setup and kind; no two runs here have such rows, so no run can be said to differ."]
    how = (f"chi-square test of each row's seat wins against the other runs' rows of as many players, each at"
           f" {verdict['level_each']:.2g} so that all {verdict['compared']} together are wrong at most"
           f" {100 * verdict['alpha']:g} % of the time")
    if not verdict["differ"]:
        return ["", f"  Seat balance between runs: no run differs from the others beyond doubt ({how})."]
    lines = [f"  ≠ {d['run']} ({d['setup']}, {d['players']} players, {d['agents']}): p = {d['p']:.2g}"
             for d in verdict["differ"]]
    return ["", f"  Seat balance between runs: these runs' seats win in other shares than the other runs' ({how}):",
            *lines]
