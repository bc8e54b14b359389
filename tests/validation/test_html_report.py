"""``cardgen validate --report FILE.html``: the report as one self-contained page of charts.

The page is read back with a parser: every number it shows is the report dict's, a part
whose data the report lacks is not drawn, names from the game are escaped, and nothing
on the page reaches out (no script, no link, no URL). Its look in a real browser is
tested in test_html_report_browser.py."""

from __future__ import annotations

import copy
import re
from pathlib import Path

import pytest
from htmlpage import parse, percentages

from cardgen.load.game import load_game
from cardgen.validation.htmlreport import render_html
from cardgen.validation.runner import ValidateOptions, validate

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = "<script>alert(1)</script>"


@pytest.fixture(scope="module")
def hapy() -> dict:
    return validate(load_game("hapy"), ValidateOptions(games=20, jobs=1, setups=("pyramid",), players=(2, 3)))


def _close(shown: int, value: float | None) -> bool:
    return value is not None and abs(shown - 100 * value) <= 0.5


def _label(c: dict) -> str:
    return f"{c['setup']} · {c['players']} players · {c['agents']}"


def test_each_seat_is_drawn_with_the_rate_and_interval_of_the_report(hapy):
    page = parse(render_html(hapy))
    configs = hapy["simulation"]["configs"]
    cells = page.find_all("td", "cell")
    assert len(cells) == len(configs) == 4
    for c in configs:
        (cell,) = [n for n in cells if n.attrs["data-config"] == _label(c)]
        marks = cell.find_all("g", "seat")
        assert len(marks) == c["players"]
        for g, seat in zip(marks, c["seats"]):
            number, rate, lo, hi, wins = percentages(g.own_text("title"))
            assert number == seat["seat"] and wins == seat["wins"]
            assert _close(rate, seat["rate"]) and _close(lo, seat["ci95"][0]) and _close(hi, seat["ci95"][1])
            (bar,) = g.find_all("rect")
            assert float(bar.attrs["height"]) > 0 or seat["rate"] == 0
        fair = [n for n in cell.find_all("line", "ref")]
        assert len(fair) == 1 and _close(percentages(fair[0].text())[0], c["fair_share"])


def test_the_first_player_row_of_each_configuration_says_seat_1_against_its_fair_share(hapy):
    page = parse(render_html(hapy))
    section = page.find_all("section", id="first-player")[0]
    for c in hapy["simulation"]["configs"]:
        (row,) = section.find_all("tr", data_config=_label(c))
        text = row.find_all("td", "num")[0].text()
        seat, rate, lo, hi, fair, pts = percentages(text)
        s1 = c["seats"][0]
        assert seat == 1 and _close(rate, s1["rate"]) and _close(lo, s1["ci95"][0]) and _close(hi, s1["ci95"][1])
        assert _close(fair, c["fair_share"]) and _close(pts, abs(s1["rate"] - c["fair_share"]))
        sign = "+" if round(100 * (s1["rate"] - c["fair_share"])) > 0 else "−" if round(
            100 * (s1["rate"] - c["fair_share"])) < 0 else "±"
        assert f"{sign}{pts} pts" in text
        assert len(row.find_all("circle")) == 1 and row.find_all("line", "ref")


def test_the_length_of_each_configuration_is_its_median_p95_and_range_with_its_histogram(hapy):
    page = parse(render_html(hapy))
    section = page.find_all("section", id="length")[0]
    for c in hapy["simulation"]["configs"]:
        (row,) = section.find_all("tr", data_config=_label(c))
        text = row.find_all("td", "num")[0].text()
        shown = re.fullmatch(r"median ([\d.]+) · p95 ([\d.]+) · ([\d.]+)–([\d.]+) turns", text)
        assert shown, text
        median, p95, low, high = map(float, shown.groups())
        n = c["length"]
        assert (median, p95, low, high) == (n["median"], n["p95"], n["min"], n["max"])
        bars = row.find_all("svg", "hist")[0].find_all("rect")
        assert [int(percentages(b.text())[-1]) for b in bars] == [b[2] for b in n["histogram"]]
        assert sum(b[2] for b in n["histogram"]) == c["completed"]


def test_every_card_is_drawn_with_its_holders_win_rate_and_the_standouts_are_marked(hapy):
    page = parse(render_html(hapy))
    section = page.find_all("section", id="cards")[0]
    groups = hapy["simulation"]["cards"]["groups"]
    assert groups and sum(len(g["cards"]) for g in groups) == len(section.find_all("tr", "r"))
    tables = section.find_all("table")
    for g, table in zip(groups, tables):
        for card in g["cards"]:
            (row,) = table.find_all("tr", data_card=card["card"])
            text = row.find_all("td", "num")[0].text()
            rate, lo, hi, expected, held = percentages(text)[:5]
            assert _close(rate, card["rate"]) and _close(lo, card["ci95"][0]) and _close(hi, card["ci95"][1])
            assert _close(expected, card["expected"]) and held == card["held"]
            flags = row.find_all("span", "flag")
            assert [f.text() for f in flags] == ([card["vs_expected"]] if card["vs_expected"] != "fair" else [])


def test_a_card_that_stands_out_is_drawn_in_its_colour_and_named(hapy):
    report = copy.deepcopy(hapy)
    group = report["simulation"]["cards"]["groups"][0]
    group["cards"][0]["vs_expected"] = "above"
    group["cards"][1]["vs_expected"] = "below"
    page = parse(render_html(report))
    table = page.find_all("section", id="cards")[0].find_all("table")[0]
    for card, flag in ((group["cards"][0], "above"), (group["cards"][1], "below")):
        (row,) = table.find_all("tr", data_card=card["card"])
        assert row.find_all("circle", flag) and [f.text() for f in row.find_all("span", "flag")] == [flag]
    said = page.find_all("section", id="cards")[0].find_all("h3")[0].parent.text()
    assert f"{group['cards'][0]['card']} (above)" in said


def test_a_game_without_rules_gets_a_page_with_its_deck_check(tmp_path):
    report = validate(load_game(ROOT / "docs" / "examples" / "star-freight"), ValidateOptions(jobs=1))
    assert report["simulation"]["skipped"]
    page = parse(render_html(report))
    ids = [s.attrs["id"] for s in page.find_all("section")]
    assert ids == ["play", "deck"]
    assert "No games were played" in page.find_all("section", id="play")[0].text()
    checks = page.find_all("section", id="deck")[0].find_all("li")
    assert [li.text() for li in checks] == report["static"]["passed"] + report["static"]["problems"]
    assert not page.find_all("svg")


def test_a_part_the_report_lacks_is_left_out(hapy):
    report = copy.deepcopy(hapy)
    del report["simulation"]["cards"]
    for c in report["simulation"]["configs"]:
        c.pop("figures")
        c["length"].pop("histogram")
    page = parse(render_html(report))
    ids = [s.attrs["id"] for s in page.find_all("section")]
    assert "cards" not in ids and "figures" not in ids and "sweep" not in ids and "strength" not in ids
    assert "seats" in ids and "length" in ids
    assert not page.find_all("svg", "hist")


def _sweep_run(base: dict, label: str, values: dict, shift: int) -> dict:
    sim = copy.deepcopy(base["simulation"])
    for c in sim["configs"]:
        c["seats"][0]["rate"] = min(1.0, c["seats"][0]["rate"] + shift / 100)
    return {"label": label, "values": values, "simulation": sim}


def test_a_sweep_is_compared_run_by_run(hapy):
    report = copy.deepcopy(hapy)
    report["sweep"] = {"names": ["request_ban"], "runs": [
        _sweep_run(hapy, "players=2, agents=greedy, request_ban=last_request", {"request_ban": "last_request"}, 0),
        _sweep_run(hapy, "players=2, agents=greedy, request_ban=none", {"request_ban": "none"}, 10)]}
    page = parse(render_html(report))
    section = page.find_all("section", id="sweep")[0]
    assert [th.text() for th in section.find_all("th")][:2] == ["run", "request_ban"]
    rows = section.find_all("tr", "r")
    assert len(rows) == 2 * len(hapy["simulation"]["configs"])
    for run in report["sweep"]["runs"]:
        mine = [r for r in rows if r.find_all("td")[0].text() == run["label"]]
        assert len(mine) == len(run["simulation"]["configs"])
        for row, c in zip(mine, run["simulation"]["configs"]):
            cells = [td.text() for td in row.find_all("td")]
            assert cells[1] == run["values"]["request_ban"] and cells[2] == _label(c)
            assert _close(percentages(cells[5])[1], c["seats"][0]["rate"])
            assert cells[6] == f"{c['length']['median']:g}"


def test_a_players_strength_is_drawn_when_the_report_has_it(hapy):
    report = copy.deepcopy(hapy)
    report["simulation"]["strength"] = [{"agent": "ismcts", "against": "greedy", "games": 200, "wins": 131,
                                         "rate": 0.655, "ci95": [0.587, 0.717], "fair_share": 0.5}]
    page = parse(render_html(report))
    (row,) = page.find_all("section", id="strength")[0].find_all("tr", "r")
    assert row.find_all("td")[0].text() == "ismcts against greedy"
    rate, lo, hi, fair, wins, games = percentages(row.find_all("td", "num")[0].text())
    assert _close(rate, 0.655) and (lo, hi, fair, wins, games) == (59, 72, 50, 131, 200)
    assert row.find_all("circle", "above")


def test_names_from_the_game_are_escaped(hapy):
    report = copy.deepcopy(hapy)
    report["name"] = HOSTILE
    report["notes"].append(HOSTILE)
    report["static"]["problems"].append(HOSTILE)
    report["simulation"]["configs"][0]["setup"] = HOSTILE
    report["simulation"]["configs"][0]["figures"][HOSTILE] = report["simulation"]["configs"][0]["figures"]["passes"]
    report["simulation"]["cards"]["groups"][0]["cards"][0]["card"] = HOSTILE
    report["simulation"]["failures"].append({"setup": HOSTILE, "players": 2, "agents": "random", "seed": 1,
                                             "message": HOSTILE, "replay": f"cardgen validate '{HOSTILE}'"})
    report["sweep"] = {"names": [HOSTILE], "runs": [{"label": HOSTILE, "values": {HOSTILE: HOSTILE},
                                                      "simulation": report["simulation"]}]}
    page_text = render_html(report)
    page = parse(page_text)
    assert not page.find_all("script")
    assert "<script" not in page_text.lower()
    assert page_text.count("&lt;script&gt;alert(1)&lt;/script&gt;") >= 10
    assert page.find_all("title")[0].text().startswith(HOSTILE)
    (row,) = page.find_all("tr", data_card=HOSTILE)
    assert row.find_all("td", "label")[0].text() == HOSTILE


def test_the_page_reaches_nothing_outside_itself(hapy):
    page_text = render_html(hapy)
    page = parse(page_text)
    assert not page.find_all("script") and not page.find_all("link") and not page.find_all("img")
    assert not re.search(r"(src|href)\s*=\s*(?![\"']?#)", page_text)  # only links within the page
    assert "url(" not in page_text and "@import" not in page_text and "//" not in page_text.replace("://", "")
    (csp,) = page.find_all("meta", http_equiv="Content-Security-Policy")
    assert "default-src 'none'" in csp.attrs["content"] and "script-src" not in csp.attrs["content"]


def test_the_cli_writes_the_page_beside_its_text_report(cli, tmp_path):
    out = tmp_path / "hapy.html"
    result = cli("validate", "hapy", "--games", "5", "--setup", "pyramid", "--players", "2", "--jobs", "1",
                 "--report", str(out))
    assert result.exit_code == 0, result.output
    assert "Play: OK" in result.output
    page = parse(out.read_text(encoding="utf-8"))
    assert page.find_all("title")[0].text() == "Hâpy Families — validation report"
    assert len(page.find_all("td", "cell")) == 2


def test_a_page_that_cannot_be_written_is_one_line_and_exit_1(cli, tmp_path):
    out = tmp_path / "missing" / "hapy.html"
    result = cli("validate", "hapy", "--games", "2", "--setup", "pyramid", "--players", "2", "--jobs", "1",
                 "--report", str(out))
    assert result.exit_code == 1
    assert "cannot write the HTML report" in result.output and "hapy.html" in result.output
    assert "Traceback" not in result.output and not out.parent.exists()


@pytest.mark.parametrize("game_id, players, played", [("farao", 3, {"build-1", "thief"}),
                                                      ("horus", 2, {"desert-1", "nile"})])
def test_the_games_that_discard_what_was_played_have_per_card_rows_too(game_id, players, played):
    report = validate(load_game(game_id), ValidateOptions(games=6, jobs=1, players=(players,)))
    groups = report["simulation"]["cards"]["groups"]
    section = parse(render_html(report)).find_all("section", id="cards")[0]
    rows = section.find_all("tr", "r")
    assert len(rows) == sum(len(g["cards"]) for g in groups) > 0
    names = {c["card"] for g in groups for c in g["cards"]}
    assert names & played  # cards the rules know by the deck's ids
    for g, table in zip(groups, section.find_all("table")):
        for card in g["cards"]:
            (row,) = table.find_all("tr", data_card=card["card"])
            assert percentages(row.find_all("td", "num")[0].text())[4] == card["held"]
