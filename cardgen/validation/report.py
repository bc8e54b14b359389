"""The validation report as text for people (the JSON form is the report dict itself)."""

from __future__ import annotations

from typing import Any

from .report_lines import failure_lines as _failure_lines
from .report_lines import num as _num
from .report_lines import pct as _pct
from .report_lines import unbalanced_seats


def _short(x: float) -> str:
    return f"{x:.0f}" if x == int(x) else f"{x:.1f}"


def _chance_lines(verdict: dict[str, Any] | None) -> list[str]:
    """One line per chance node kind: its draws against what the engine declared."""
    if not verdict:
        return []
    out = [f"  chance: each node kind's draws against the distribution the engine declares ({verdict['test']};"
           f" {verdict['tests']} test(s), a correct engine fails one {verdict['false_alarm']})"]
    for kind, v in verdict["kinds"].items():
        if not v["judged"]:
            out.append(f"    - chance '{kind}': {v['draws']:,} draw(s), too few to judge")
        else:
            out.append(f"    {'✓' if v['ok'] else '✗'} chance '{kind}': {v['draws']:,} draws in {v['judged']}"
                       f" configuration(s), smallest p = {v['smallest_p']:.3g}")
    return out


def _seat_balance(configs: list[dict[str, Any]], judged: dict[str, Any]) -> list[str]:
    """The seats that win more, or less, than their fair share beyond doubt: a fact
    about the game, or about the players, for the designer to weigh; not a failure."""
    lines = unbalanced_seats(configs, lambda c: f"{c['setup']}, {c['players']} players, {c['agents']}")
    if not lines:
        return []
    each, n = judged.get("confidence_each", 0.95), judged.get("seats_judged", 0)
    wrong = 100 * (1 - judged.get("confidence_all", 0.95))
    return ["", f"  Seat balance, for the designer to weigh (not a failure): seats whose wins differ from a"
                f" fair share, each interval at {100 * each:.2f} % so that all {n} together are wrong at most"
                f" {wrong:g} % of the time:", *lines]


def _card_balance(cards: dict[str, Any] | None) -> list[str]:
    """The cards whose holders win more, or less, than the holders of the other cards in
    the same configurations, beyond doubt; or that none stands out, with how many were judged."""
    if not cards or not cards["cards_judged"]:
        return []
    marked = [(g["agents"], c) for g in cards["groups"] for c in g["cards"] if c.get("vs_expected") in ("above", "below")]
    each = 100 * cards["confidence_each"]
    head = (f"  Card balance, for the designer to weigh (not a failure): {cards['cards_judged']} card(s) judged, each"
            f" interval at {each:.2f} % so that all together are wrong at most"
            f" {100 * (1 - cards['confidence_all']):g} % of the time:")
    if not marked:
        return ["", head, "    no card's holders win more or less than expected beyond doubt"]
    lines = ["", head]
    for kind, c in sorted(marked, key=lambda kc: (kc[0], kc[1]["vs_expected"], -(kc[1]["rate"] or 0))):
        lo, hi = c["balance_interval"]
        lines.append(f"    {kind}: {c['card']} {c['vs_expected']} expected: holders win {_pct(c['rate'])} %"
                     f" [{_pct(lo)}–{_pct(hi)}] of {c['held']:,} holdings, expected {_pct(c['expected'])} %")
    return lines


def _figures_table(configs: list[dict[str, Any]]) -> list[str]:
    """The engine's per-game figures (scores, control changes…), one row per
    configuration, each cell ``mean [5th–95th percentile]``."""
    names: list[str] = []
    for c in configs:
        names += [n for n in c.get("figures", {}) if n not in names]
    if not names:
        return []
    rows = []
    for c in configs:
        cells = []
        for n in names:
            d = c.get("figures", {}).get(n)
            cells.append("—" if not d or not d.get("n") else
                         f"{d['mean']:.1f} [{_short(d['p5'])}–{_short(d['p95'])}]")
        rows.append((f"{c['setup']:<9} {c['players']:>7}  {c['agents']:<7}", cells))
    heads = [n.replace("_", " ") for n in names]
    widths = [max(len(h), *(len(r[1][k]) for r in rows)) for k, h in enumerate(heads)]
    lines = ["", "  Per game, mean [5th–95th percentile] (the JSON report has the full distributions):",
             "  " + " " * 28 + "  ".join(h.rjust(w) for h, w in zip(heads, widths))]
    for label, cells in rows:
        lines.append(f"  {label}  " + "  ".join(x.rjust(w) for x, w in zip(cells, widths)))
    return lines


TIMINGS = ("elapsed_s", "games_per_s", "jobs")  # what may differ between two runs of the same validation


def without_timings(report: Any) -> Any:
    """A report (or any part of one) without its timings: two runs of the same
    validation, on one process or on several, must then be equal."""
    if isinstance(report, dict):
        return {k: without_timings(v) for k, v in report.items() if k not in TIMINGS}
    if isinstance(report, list):
        return [without_timings(v) for v in report]
    return report


def _on_processes(jobs: int) -> str:
    return f" on {jobs} processes" if jobs > 1 else ""


def render(report: dict[str, Any]) -> str:
    out: list[str] = [f"{report['name']} ({report['game']}) — validation", f"rules: {report['rules'] or 'none'}"]
    out.extend(f"note: {note}" for note in report["notes"])
    out.append("")
    st = report["static"]
    out.append(f"Deck and setups: {'OK' if st['ok'] else 'FAILED'}")
    out.extend(_checked(st))
    out.append("")
    if report.get("sweep"):  # the runs side by side (the simulation holds them all)
        from .sweep_report import sweep_lines

        out.extend(sweep_lines(report))
    else:
        out.extend(_play_lines(report["simulation"]))
    out.append("")
    out.extend(_kit_lines(report["kit"], report["game"]))
    out.append("")
    out.append("Result: OK — everything holds." if report["ok"] else "Result: FAILED — see the ✗ lines above.")
    return "\n".join(out)


def _checked(part: dict[str, Any]) -> list[str]:
    """A part's checks that passed (✓) and its problems (✗)."""
    return [f"  ✓ {line}" for line in part["passed"]] + [f"  ✗ {line}" for line in part["problems"]]


def _play_lines(sim: dict[str, Any]) -> list[str]:
    """The simulation: its summary, the table of configurations, chance, balance, figures and failures."""
    if sim["skipped"]:
        return [f"Play: {'not run' if sim['ok'] else 'FAILED'} — {sim['skipped']}"]
    configs = sim["configs"]
    unfinished = sum(c["nonterminating"]["count"] for c in configs)
    failures = sum(c["failure_count"] for c in configs)
    out = [f"Play: {'OK' if sim['ok'] else 'FAILED'} — {sim['games']:,} games in {sim['elapsed_s']:.1f} s"
           f" ({_num(sim['games_per_s'])} games/s{_on_processes(sim.get('jobs', 1))}); {failures} rule or invariant"
           f" failure(s),"
           f" {unfinished} unfinished game(s)",
           f"  seeds {sim['seeds'][0]}–{sim['seeds'][1]} for each setup × players × player kind"
           f"{' (the first ones, as many as it played)' if sim.get('adaptive') else ''};"
           f" checks at every step, in full every {sim['full_check_every_steps']} steps and at the end"]
    if sim.get("adaptive"):
        from .adaptive import describe

        out.append(describe(sim["adaptive"]))
    out.extend(_config_table(configs))
    out.extend(_strength_lines(sim.get("strength") or []))
    out.extend(_chance_lines(sim.get("chance")))
    out.extend(_seat_balance(configs, sim.get("seat_balance", {})))
    out.extend(_card_balance(sim.get("cards")))
    out.extend(_figures_table(configs))
    out.extend(_failure_lines(sim["failures"]))
    return out


def _strength_lines(lines: list[dict[str, Any]]) -> list[str]:
    """The player that plans against greedy players: its win rate, per setup and player count."""
    out = []
    for x in lines:
        failed = f"; ✗ {x['failures']} failure(s)" if x["failures"] else ""
        out.append(f"  strength: {x['agent']} against {x['against']}, {x['setup']}, {x['players']} players:"
                   f" wins {_pct(x['rate'])} % [{_pct(x['ci95'][0])}–{_pct(x['ci95'][1])}] of {x['games']} games"
                   f" (fair share {_pct(x['fair_share'])} %): {x['verdict']}{failed}")
    return out


def _config_table(configs: list[dict[str, Any]]) -> list[str]:
    """One row per configuration: games finished, length and wins per seat."""
    if not configs:
        return []
    out = [f"  {'setup':<9} {'players':>7}  {'kind':<7} {'games':>6} {'done':>5}  {'turns: median':>13} {'p95':>4}"
           f"   wins per seat, % [95 % CI]"]
    for c in configs:
        seats = "  ".join(f"{s['seat']}: {_pct(s['rate'])} [{_pct(s['ci95'][0])}–{_pct(s['ci95'][1])}]"
                          for s in c["seats"])
        flag = ""
        if c["failure_count"]:
            flag = f"  ✗ {c['failure_count']} failure(s)"
        elif c["nonterminating"]["count"]:
            flag = f"  {'✗' if c['nonterminating']['counts_as_failure'] else '!'}" \
                   f" {c['nonterminating']['count']} unfinished"
        out.append(f"  {c['setup']:<9} {c['players']:>7}  {c['agents']:<7} {c['games']:>6}"
                   f" {_pct(c['completion_rate']):>4}%  {_num(c['length']['median']):>13}"
                   f" {_num(c['length']['p95']):>4}"
                   f"   {seats}{flag}")
    return out


def _kit_lines(kit: dict[str, Any] | None, game: str) -> list[str]:
    """The built kit's checks, or how to ask for them."""
    if kit is None:
        return [f"Kit: not checked (add --kit output/{game} to check a built kit)"]
    out = [f"Kit {kit['folder']}: {'OK' if kit['ok'] else 'FAILED'}", *_checked(kit)]
    out.extend(f"  ! {line}" for line in kit.get("warnings", []))
    return out
