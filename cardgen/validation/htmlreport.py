"""The validation report as one HTML page to look at (``cardgen validate --report``).

Everything on the page is drawn from the report dict (the JSON report): win rate per
seat, first-player advantage, game length, per-card statistics, the game's own
figures, a sweep's comparison and a player's strength when the report has them, and the
deck, play and kit checks. The page is self-contained: inline CSS and inline SVG, no
script, no font, picture or style from anywhere (its Content-Security-Policy forbids
any), so it opens from a file, offline, years later. Every text from the game is
escaped: a game's names are untrusted data. A key a report lacks leaves its part out."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .svgcharts import Scale, axis, esc, histogram, interval_row, nice_top, pct, range_row, rate_text, seat_bars

CSS = """
:root{--ink:#1f2430;--soft:#5b6272;--line:#d9dde5;--bg:#f6f7f9;--card:#fff;--mark:#3d6fb6;
--mark-soft:#a9c1e4;--above:#c2412d;--below:#7b4bb0;--ref:#2f8f5b;--ok:#2f8f5b;--bad:#c2412d}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--ink);
font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","DejaVu Sans",sans-serif}
main{max-width:1180px;margin:0 auto;padding:24px 20px 48px}
header h1{font-size:26px;margin:0 0 4px}
header .meta{color:var(--soft);margin:0}
.badge{display:inline-block;padding:2px 10px;border-radius:12px;font-weight:600;font-size:13px;
vertical-align:middle;margin-left:8px;color:#fff}
.badge.ok{background:var(--ok)}.badge.bad{background:var(--bad)}
.flag{display:inline-block;padding:0 6px;border-radius:8px;font-size:12px;color:#fff;margin-left:6px}
.flag.above{background:var(--above)}.flag.below{background:var(--below)}
nav{margin:14px 0 4px;display:flex;flex-wrap:wrap;gap:6px 14px}
nav a{color:var(--mark);text-decoration:none}nav a:hover{text-decoration:underline}
section{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:16px 20px;margin:16px 0}
section h2{font-size:19px;margin:0 0 6px}section h3{font-size:15px;margin:16px 0 6px}
p.how{color:var(--soft);margin:0 0 10px;max-width:860px}
.numbers{display:flex;flex-wrap:wrap;gap:10px 28px;margin:6px 0 0}
.numbers div{min-width:110px}.numbers b{display:block;font-size:22px}
.numbers span{color:var(--soft);font-size:12px}
table{border-collapse:collapse}
td,th{padding:2px 8px;vertical-align:middle;text-align:left}
th{font-weight:600;font-size:12px;color:var(--soft)}
tr.r td{border-top:1px solid #eef0f4}
td.label{white-space:nowrap;font-size:13px}td.num{white-space:nowrap;font-size:12px;color:var(--soft)}
td.cell{padding:6px 10px 2px 0;text-align:center}td.cell .cap{font-size:11px;color:var(--soft)}
.grid-wrap{overflow-x:auto}
ul.checks{margin:4px 0;padding-left:0;list-style:none}
ul.checks li{padding:1px 0}ul.checks li.pass::before{content:"✓ ";color:var(--ok)}
ul.checks li.fail::before{content:"✗ ";color:var(--bad)}ul.checks li.warn::before{content:"! ";color:var(--above)}
code{font:12px ui-monospace,"DejaVu Sans Mono",monospace;background:#f0f2f5;padding:1px 4px;border-radius:4px}
.legend{font-size:12px;color:var(--soft);margin:8px 0 0}
.legend i{display:inline-block;width:12px;height:10px;border-radius:2px;margin:0 4px 0 10px;vertical-align:middle}
.legend i.mark{background:var(--mark)}.legend i.above{background:var(--above)}
.legend i.below{background:var(--below)}.legend i.ref{height:0;border-top:2px dashed var(--ref)}
svg.chart{display:block;overflow:visible}
svg .mark{fill:var(--mark);stroke:var(--mark)}svg .soft{fill:var(--mark-soft);stroke:none}
svg .above{fill:var(--above);stroke:var(--above)}svg .below{fill:var(--below);stroke:var(--below)}
svg .err{stroke:var(--ink);stroke-width:1.3;fill:none}svg .err.above{stroke:var(--above)}
svg .err.below{stroke:var(--below)}svg .err.mark{stroke:var(--mark)}
svg .ref{stroke:var(--ref);stroke-width:1.6;stroke-dasharray:4 3}
svg .expected{stroke:var(--ink);stroke-width:2}
svg .grid{stroke:#e6e9ef;stroke-width:1}
svg text{font-size:11px;fill:var(--soft)}svg text.val{fill:var(--ink);font-size:10px}
svg text.axis-label{fill:var(--ink);font-size:11px}
footer{color:var(--soft);font-size:12px;text-align:center;margin-top:24px}
"""

# No script, no style or picture from anywhere: the page is its own, and a name that
# escaped the escaping would still run nothing.
CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"


def render_html(report: dict[str, Any]) -> str:
    """The whole page for a report dict."""
    sim = report.get("simulation") or {}
    sections = [s for s in (
        _summary(report, sim),
        _seats(sim),
        _first_player(sim),
        _cards(sim),
        _lengths(sim),
        _strength(sim),
        _sweep(report.get("sweep")),
        _figures(sim),
        _failures(sim),
        _checks("deck", "Deck and setups", report.get("static")),
        _kit(report.get("kit")),
    ) if s]
    title = f"{report.get('name') or report.get('game', '')} — validation report"
    nav = "".join(f'<a href="#{sid}">{esc(head)}</a>' for sid, head, _ in sections)
    body = "".join(f'<section id="{sid}"><h2>{esc(head)}</h2>{inner}</section>' for sid, head, inner in sections)
    return ("<!DOCTYPE html>\n"
            f'<html lang="en"><head><meta charset="utf-8">'
            f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{esc(title)}</title><style>{CSS}</style></head>"
            f"<body><main>{_header(report)}<nav>{nav}</nav>{body}"
            f"<footer>Made by cardgen {esc(report.get('cardgen', ''))} from the report of"
            f" <code>cardgen validate</code>; every figure is in its JSON form (<code>--json</code>).</footer>"
            "</main></body></html>\n")


Section = tuple[str, str, str]  # (id, heading, inner HTML)


def _label(c: dict[str, Any]) -> str:
    return f"{c.get('setup', '?')} · {c.get('players', '?')} players · {c.get('agents', '?')}"


def _header(report: dict[str, Any]) -> str:
    ok = report.get("ok")
    badge = "" if ok is None else f'<span class="badge {"ok" if ok else "bad"}">{"OK" if ok else "FAILED"}</span>'
    meta = [f"game <code>{esc(report.get('game', ''))}</code>"]
    if report.get("rules"):
        meta.append(f"rules <code>{esc(report['rules'])}</code>")
    notes = "".join(f'<li class="warn">{esc(n)}</li>' for n in report.get("notes") or [])
    return (f"<header><h1>{esc(report.get('name') or report.get('game', ''))}{badge}</h1>"
            f'<p class="meta">{" · ".join(meta)}</p>'
            + (f'<ul class="checks">{notes}</ul>' if notes else "") + "</header>")


def _configs(sim: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for c in sim.get("configs") or [] if isinstance(c, dict)]


def _summary(report: dict[str, Any], sim: dict[str, Any]) -> Section:
    configs = _configs(sim)
    if sim.get("skipped") or not configs:
        why = sim.get("skipped") or "the report holds no games"
        return ("play", "Play", f'<p class="how">No games were played: {esc(why)}. The deck check below is all'
                                " this report holds.</p>")
    seats_out = sum(1 for c in configs for s in c.get("seats") or [] if s.get("vs_fair_share") in ("above", "below"))
    cards_out = sum(1 for g in (sim.get("cards") or {}).get("groups") or [] for card in g.get("cards") or []
                    if card.get("vs_expected") in ("above", "below"))
    numbers = [("games", f"{sim.get('games', sum(c.get('games', 0) for c in configs)):,}"),
               ("configurations", f"{len(configs)}"),
               ("rule failures", f"{sum(c.get('failure_count', 0) for c in configs)}"),
               ("unfinished games", f"{sum((c.get('nonterminating') or {}).get('count', 0) for c in configs)}"),
               ("seats out of balance", f"{seats_out}")]
    if sim.get("cards"):
        numbers.append(("cards standing out", f"{cards_out}"))
    seeds = sim.get("seeds")
    how = (f"Seeds {esc(seeds[0])}–{esc(seeds[1])} for each setup × player count × player kind."
           if isinstance(seeds, list) and len(seeds) == 2 else "")
    cells = "".join(f"<div><b>{esc(v)}</b><span>{esc(k)}</span></div>" for k, v in numbers)
    return ("play", "Play", f'<p class="how">{how}</p><div class="numbers">{cells}</div>')


def _legend(*items: tuple[str, str]) -> str:
    return '<p class="legend">' + "".join(f'<i class="{cls}"></i>{esc(text)}' for cls, text in items) + "</p>"


def _seats(sim: dict[str, Any]) -> Section | None:
    """Win rate per seat, one small chart per configuration: rows setup × player kind,
    columns player counts, all on one scale."""
    configs = [c for c in _configs(sim) if c.get("seats")]
    if not configs:
        return None
    his = [s["ci95"][1] for c in configs for s in c["seats"] if (s.get("ci95") or [None, None])[1] is not None]
    top = nice_top(max(his, default=0.5) * 1.08)
    rows: dict[tuple[str, str], dict[Any, dict[str, Any]]] = {}
    counts: list[Any] = []
    for c in configs:
        rows.setdefault((str(c.get("setup")), str(c.get("agents"))), {})[c.get("players")] = c
        if c.get("players") not in counts:
            counts.append(c.get("players"))
    head = "".join(f"<th>{esc(n)} players</th>" for n in counts)
    body = []
    for (setup, agents), by_count in rows.items():
        cells = []
        for n in counts:
            cfg = by_count.get(n)
            if cfg is None:
                cells.append("<td></td>")
                continue
            flags = [s.get("vs_fair_share", "fair") for s in cfg["seats"]]
            cap = f"{cfg.get('completed', 0):,} games · fair {pct(cfg.get('fair_share'))}"
            cells.append(f'<td class="cell" data-config="{esc(_label(cfg))}">'
                         f"{seat_bars(cfg['seats'], cfg.get('fair_share'), top, flags)}"
                         f'<div class="cap">{esc(cap)}</div></td>')
        body.append(f'<tr class="r"><td class="label"><b>{esc(setup)}</b><br>{esc(agents)}</td>{"".join(cells)}</tr>')
    judged = sim.get("seat_balance") or {}
    how = ("How often each seat won, in % of the games played, with its 95 % interval. The dashed line is the"
           " fair share (the games somebody won, split evenly between the seats). A seat drawn in red won more,"
           " in purple less, than its fair share beyond doubt")
    if judged.get("confidence_each"):
        how += (f" (its interval widened to {100 * judged['confidence_each']:.2f} % because"
                f" {judged.get('seats_judged', 0)} seats are judged at once)")
    return ("seats", "Win rate per seat",
            f'<p class="how">{esc(how)}. Wide intervals mean too few games: play more (<code>--balance</code>).</p>'
            f'<div class="grid-wrap"><table><tr><th></th>{head}</tr>{"".join(body)}</table></div>'
            + _legend(("mark", "win rate"), ("above", "above fair share"), ("below", "below fair share"),
                      ("ref", "fair share")))


def _first_player(sim: dict[str, Any]) -> Section | None:
    """Seat 1's win rate less its fair share, per configuration, in percentage points."""
    rows = []
    for c in _configs(sim):
        seats, fair = c.get("seats") or [], c.get("fair_share")
        if not seats or fair is None or seats[0].get("rate") is None:
            continue
        lo, hi = (seats[0].get("ci95") or [None, None])[:2]
        rows.append((c, seats[0], fair, lo, hi))
    if not rows:
        return None
    spread = max(abs(v - fair) for _, s, fair, lo, hi in rows for v in (s["rate"], lo, hi) if v is not None)
    m = nice_top(spread * 1.05, 0.05)
    scale = Scale(-m, m)
    out = [f'<tr><th>configuration</th><th>{axis(scale, "seat 1 less its fair share, percentage points", _signed)}'
           "</th><th></th></tr>"]
    for c, s, fair, lo, hi in rows:
        d = s["rate"] - fair
        text = (f"seat 1: {rate_text(s['rate'], lo, hi)} · fair {pct(fair)} · {_pts(d)}")
        flag = s.get("vs_fair_share", "fair")
        chart = interval_row(scale, d, None if lo is None else lo - fair, None if hi is None else hi - fair, 0.0,
                             text, flag)
        out.append(f'<tr class="r" data-config="{esc(_label(c))}"><td class="label">{esc(_label(c))}</td>'
                   f'<td>{chart}</td><td class="num">{esc(text)}</td></tr>')
    how = ("Does the first player win more than a fair share? Each row is seat 1's win rate less the fair share,"
           " with its 95 % interval: an interval wholly right of the dashed line means the first seat has an"
           " advantage, wholly left a disadvantage. Common cures: give later seats a card, a point or the first"
           " choice; end the game at the end of a round.")
    return ("first-player", "First-player advantage",
            f'<p class="how">{esc(how)}</p><div class="grid-wrap"><table>{"".join(out)}</table></div>')


def _pts(v: float) -> str:
    """A difference of proportions in percentage points, signed."""
    pts = round(100 * v)
    return f"{'+' if pts > 0 else '−' if pts < 0 else '±'}{abs(pts)} pts"


def _signed(v: float) -> str:
    pts = round(100 * v)
    return f"{'+' if pts > 0 else '−' if pts < 0 else ''}{abs(pts)}"


def _lengths(sim: dict[str, Any]) -> Section | None:
    """Game length per configuration: its range, median and 95th percentile, and its histogram."""
    rows = [c for c in _configs(sim) if (c.get("length") or {}).get("median") is not None]
    if not rows:
        return None
    unit = str(rows[0].get("length_unit") or "turns")
    top = max(float(c["length"].get("max") or c["length"]["median"]) for c in rows)
    scale = Scale(0, nice_top(top, 10 if top > 20 else 1))
    out = [f"<tr><th>configuration</th><th>{axis(scale, f'game length, {unit}', lambda v: f'{v:.0f}')}</th>"
           "<th>histogram</th><th></th></tr>"]
    for c in rows:
        n = c["length"]
        low, high = n.get("min", n["median"]), n.get("max", n["median"])
        p95 = n.get("p95", n["median"])
        text = f"median {n['median']:g} · p95 {p95:g} · {low:g}–{high:g} {unit}"
        hist = histogram(n.get("histogram") or [], what=f"{unit} ")
        out.append(f'<tr class="r" data-config="{esc(_label(c))}"><td class="label">{esc(_label(c))}</td>'
                   f"<td>{range_row(scale, low, n['median'], p95, high, text)}</td><td>{hist}</td>"
                   f'<td class="num">{esc(text)}</td></tr>')
    how = (f"How long the games lasted, in {unit}: the line runs from the shortest game to the longest, the bar"
           " from the median to the 95th percentile, the dot is the median. A long tail (a bar far from the dot,"
           " a line far beyond it) means some games drag; a game much shorter or longer than intended wants its"
           " end condition or its deck size changed.")
    return ("length", "Game length",
            f'<p class="how">{esc(how)}</p><div class="grid-wrap"><table>{"".join(out)}</table></div>')


def _cards(sim: dict[str, Any]) -> Section | None:
    """Per card, how often its holder won, against the holders of the other cards."""
    groups = [g for g in (sim.get("cards") or {}).get("groups") or [] if g.get("cards")]
    if not groups:
        return None
    parts = []
    for g in groups:
        cards = sorted(g["cards"], key=lambda c: (-(c.get("rate") or 0.0), str(c.get("card"))))
        his = [c["ci95"][1] for c in cards if (c.get("ci95") or [None, None])[1] is not None]
        scale = Scale(0, nice_top(max(his, default=1.0) * 1.02))
        rows = [f"<tr><th>card</th><th>{axis(scale, 'holder won, % of holdings', lambda v: f'{100 * v:.0f}')}</th>"
                "<th></th></tr>"]
        for c in cards:
            lo, hi = (c.get("ci95") or [None, None])[:2]
            flag = c.get("vs_expected", "fair")
            text = (f"{rate_text(c.get('rate'), lo, hi)} · expected {pct(c.get('expected'))}"
                    f" · {c.get('held', 0):,} holdings")
            mark = f'<span class="flag {esc(flag)}">{esc(flag)}</span>' if flag in ("above", "below") else ""
            chart = interval_row(scale, c.get("rate"), lo, hi, g.get("base_rate"), f"{c.get('card')}: {text}", flag,
                                 c.get("expected"))
            rows.append(f'<tr class="r" data-card="{esc(c.get("card"))}"><td class="label">{esc(c.get("card"))}</td>'
                        f'<td>{chart}</td><td class="num">{esc(text)}{mark}</td></tr>')
        standouts = [c for c in cards if c.get("vs_expected") in ("above", "below")]
        said = ("; ".join(f"{c['card']} ({c['vs_expected']})" for c in standouts) if standouts
                else "no card stands out beyond doubt")
        parts.append(f"<h3>{esc(g.get('agents'))} players: {len(cards)} cards, base rate {pct(g.get('base_rate'))}"
                     f"</h3><p class=\"how\">{esc(said)}.</p>"
                     f'<div class="grid-wrap"><table>{"".join(rows)}</table></div>')
    judged = sim["cards"]
    how = ("How often the seat that held or played each card (what that means is the game's rules') won, in % of"
           " the games it held it, with its 95 % interval. The dashed line is the base rate, the holders of every"
           " card together; the black tick is the card's expected rate, the base rate of the configurations it was"
           " held in. A card marked above wins more than expected beyond doubt: it may be too strong (raise its"
           " cost, lower its value, add a counter). A card marked below wins less: it may be useless or a trap."
           " Strong players say more than random ones.")
    if judged.get("confidence_each"):
        how += (f" Each mark allows for the {judged.get('cards_judged', 0)} cards judged at once (interval widened"
                f" to {100 * judged['confidence_each']:.2f} %).")
    return ("cards", "Per-card statistics", f'<p class="how">{esc(how)}</p>{"".join(parts)}'
            + _legend(("mark", "holder's win rate"), ("above", "above expected"), ("below", "below expected"),
                      ("ref", "base rate")))


def _strength(sim: dict[str, Any]) -> Section | None:
    """A player kind's win rate against another, with its interval and fair share."""
    rows = [s for s in sim.get("strength") or [] if isinstance(s, dict) and s.get("rate") is not None]
    if not rows:
        return None
    scale = Scale(0, 1)
    out = [f"<tr><th>player</th><th>{axis(scale, 'win rate', lambda v: f'{100 * v:.0f}')}</th><th></th></tr>"]
    for s in rows:
        lo, hi = (s.get("ci95") or [None, None])[:2]
        who = f"{s.get('agent')} against {s.get('against')}"
        text = (f"{rate_text(s['rate'], lo, hi)} · fair {pct(s.get('fair_share'))} ·"
                f" {s.get('wins', 0):,} of {s.get('games', 0):,} games")
        fair = s.get("fair_share")
        flag = "above" if fair is not None and lo is not None and lo > fair else \
            "below" if fair is not None and hi is not None and hi < fair else "fair"
        chart = interval_row(scale, s["rate"], lo, hi, fair, f"{who}: {text}", flag)
        out.append(f'<tr class="r"><td class="label">{esc(who)}</td><td>{chart}</td>'
                   f'<td class="num">{esc(text)}</td></tr>')
    how = ("How often one kind of player beat another, with its 95 % interval; the dashed line is the share it"
           " would win if it were no stronger. A balance figure is worth as much as the players behind it: the"
           " further a planning player beats greedy, the more its win rates above say about people.")
    return ("strength", "Player strength", f'<p class="how">{esc(how)}</p><table>{"".join(out)}</table>')


def _sweep(sweep: Any) -> Section | None:
    """Every run of a sweep, side by side: its values, seat 1's advantage and the length."""
    if not isinstance(sweep, dict) or not sweep.get("runs"):
        return None
    names = [str(n) for n in sweep.get("names") or []]
    rows = []
    for run in sweep["runs"]:
        for c in _configs((run or {}).get("simulation") or {}):
            seats, fair = c.get("seats") or [], c.get("fair_share")
            rows.append((run, c, seats[0] if seats else None, fair))
    if not rows:
        return None
    spread = [abs(v - fair) for _, _, s, fair in rows if s and fair is not None
              for v in (s.get("rate"), *(s.get("ci95") or [])) if v is not None]
    m = nice_top(max(spread, default=0.1) * 1.05, 0.05)
    scale = Scale(-m, m, width=300)
    head = "".join(f"<th>{esc(n)}</th>" for n in names)
    out = [f"<tr><th>run</th>{head}<th>configuration</th><th>games</th>"
           f"<th>{axis(scale, 'seat 1 less its fair share, points', _signed)}</th><th></th><th>median length</th></tr>"]
    for run, c, s, fair in rows:
        values = "".join(f"<td class=\"label\">{esc((run.get('values') or {}).get(n, ''))}</td>" for n in names)
        chart = text = ""
        if s is not None and fair is not None and s.get("rate") is not None:
            lo, hi = (s.get("ci95") or [None, None])[:2]
            text = f"seat 1: {rate_text(s['rate'], lo, hi)} · {_pts(s['rate'] - fair)}"
            chart = interval_row(scale, s["rate"] - fair, None if lo is None else lo - fair,
                                 None if hi is None else hi - fair, 0.0, text, s.get("vs_fair_share", "fair"))
        median = (c.get("length") or {}).get("median")
        out.append(f'<tr class="r"><td class="label">{esc(run.get("label", ""))}</td>{values}'
                   f'<td class="label">{esc(_label(c))}</td><td class="num">{c.get("completed", 0):,}</td>'
                   f'<td>{chart}</td><td class="num">{esc(text)}</td>'
                   f'<td class="num">{"—" if median is None else esc(f"{median:g}")}</td></tr>')
    how = ("Each run of the sweep (a combination of the values swept) with each of its configurations: seat 1's"
           " advantage with its 95 % interval and the median length, so that the house rule or player count that"
           " balances the game best shows at a glance.")
    return ("sweep", "Sweep comparison",
            f'<p class="how">{esc(how)}</p><div class="grid-wrap"><table>{"".join(out)}</table></div>')


def _figures(sim: dict[str, Any]) -> Section | None:
    """The game's own per-game figures, per configuration: mean [5th–95th percentile] and a histogram."""
    configs = _configs(sim)
    names: list[str] = []
    for c in configs:
        names += [n for n in c.get("figures") or {} if n not in names]
    if not names:
        return None
    head = "".join(f"<th>{esc(n.replace('_', ' '))}</th>" for n in names)
    out = [f"<tr><th>configuration</th>{head}</tr>"]
    for c in configs:
        cells = []
        for n in names:
            d = (c.get("figures") or {}).get(n) or {}
            if not d.get("n"):
                cells.append('<td class="num">—</td>')
                continue
            text = f"{d['mean']:.1f} [{d['p5']:.3g}–{d['p95']:.3g}]"
            cells.append(f'<td class="num">{histogram(d.get("histogram") or [], 110, 26)}{esc(text)}</td>')
        out.append(f'<tr class="r"><td class="label">{esc(_label(c))}</td>{"".join(cells)}</tr>')
    how = ("The rules' own figures of each game, pooled per configuration: the mean, the 5th to the 95th"
           " percentile, and the histogram of every game's value.")
    return ("figures", "The game's own figures",
            f'<p class="how">{esc(how)}</p><div class="grid-wrap"><table>{"".join(out)}</table></div>')


def _failures(sim: dict[str, Any]) -> Section | None:
    failures = [f for f in sim.get("failures") or [] if isinstance(f, dict)]
    if not failures:
        return None
    items = []
    for f in failures:
        mark = "warn" if f.get("nonterminating") and not f.get("counts_as_failure") else "fail"
        where = f"{f.get('setup')}, {f.get('players')} players, {f.get('agents')}: seed {f.get('seed')}"
        replay = f"<br><code>{esc(f['replay'])}</code>" if f.get("replay") else ""
        items.append(f'<li class="{mark}">{esc(where)}: {esc(f.get("message", ""))}{replay}</li>')
    return ("failures", "Failures and unfinished games",
            '<p class="how">Each command plays that game again, step by step.</p>'
            f'<ul class="checks">{"".join(items)}</ul>')


def _checks(sid: str, head: str, part: Any) -> Section | None:
    if not isinstance(part, dict):
        return None
    ok = part.get("ok")
    badge = "" if ok is None else f'<span class="badge {"ok" if ok else "bad"}">{"OK" if ok else "FAILED"}</span>'
    items = _items("pass", part.get("passed")) + _items("fail", part.get("problems")) \
        + _items("warn", part.get("warnings"))
    return (sid, head, f"<p>{badge}</p><ul class=\"checks\">{items}</ul>")


def _items(cls: str, lines: Sequence[Any] | None) -> str:
    return "".join(f'<li class="{cls}">{esc(line)}</li>' for line in lines or [])


def _kit(kit: Any) -> Section | None:
    if not isinstance(kit, dict):
        return None
    sid, _, inner = _checks("kit", "Kit", kit) or ("kit", "", "")
    return (sid, f"Kit {kit.get('folder', '')}", inner)
