"""``cardgen validate GAME --sweep NAME=A,B,…``: every combination of house rules, player
counts and player kinds played, and the runs compared in one report."""

from __future__ import annotations

import json

import pytest

from cardgen.load.game import load_game
from cardgen.validation.report import without_timings
from cardgen.validation.runner import ValidateOptions, validate
from cardgen.validation.sweep import compare_runs

pytestmark = pytest.mark.slow  # a few hundred games per test

HAPY_RULE = "request_ban=previous_player,last_other_request"


def sweep_json(cli, *args: str) -> dict:
    r = cli("validate", "hapy", "--games", "12", "--setup", "pyramid", "--jobs", "1", *args, "--json", "-")
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def test_every_combination_is_played_once_in_the_order_given(cli):
    report = sweep_json(cli, "--sweep", HAPY_RULE, "--sweep", "players=2,3", "--sweep", "agents=greedy")
    sweep = report["sweep"]
    assert sweep["names"] == ["request_ban", "players", "agents"]
    assert [r["label"] for r in sweep["runs"]] == [
        "request_ban=previous_player, players=2, agents=greedy",
        "request_ban=previous_player, players=3, agents=greedy",
        "request_ban=last_other_request, players=2, agents=greedy",
        "request_ban=last_other_request, players=3, agents=greedy"]
    assert sweep["runs"][3]["values"] == {"request_ban": "last_other_request", "players": 3, "agents": "greedy"}
    for run in sweep["runs"]:
        configs = run["simulation"]["configs"]
        assert [(c["setup"], c["players"], c["agents"]) for c in configs] == \
            [("pyramid", run["values"]["players"], "greedy")]
        assert configs[0]["games"] == 12
    # the whole report's simulation holds every run's games, each row named by its run
    sim = report["simulation"]
    assert sim["games"] == 4 * 12 and sim["ok"]
    assert [c["sweep"] for c in sim["configs"]] == [r["label"] for r in sweep["runs"]]
    assert report["options"]["sweep"] == [HAPY_RULE, "players=2,3", "agents=greedy"]


def test_a_run_plays_its_house_rule_as_the_game_data_would(cli, hapy_copy):
    """The run with request_ban=last_other_request is the game whose data says so, seed for seed."""
    report = sweep_json(cli, "--sweep", HAPY_RULE, "--players", "3", "--agents", "greedy", "--games", "40")
    runs = {r["values"]["request_ban"]: r["simulation"] for r in report["sweep"]["runs"]}
    yaml_path = hapy_copy / "game.yaml"
    yaml_path.write_text(yaml_path.read_text(encoding="utf-8").replace(
        "request_ban: previous_player ", "request_ban: last_other_request "), encoding="utf-8")
    french = validate(load_game(str(hapy_copy)), ValidateOptions(games=40, players=(3,), setups=("pyramid",),
                                                                  agents=("greedy",), jobs=1))
    for sim in runs.values():  # what the sweep adds to a run's rows: its comparison with the other runs
        assert all(c.pop("vs_other_runs")["p"] is not None for c in sim["configs"])
    assert without_timings(runs["last_other_request"]) == without_timings(french["simulation"])
    assert without_timings(runs["previous_player"]) != without_timings(runs["last_other_request"])


def test_player_kinds_and_counts_swept_without_house_rules(cli):
    report = sweep_json(cli, "--sweep", "agents=random,greedy", "--players", "2")
    assert [r["label"] for r in report["sweep"]["runs"]] == ["agents=random", "agents=greedy"]
    assert [r["simulation"]["configs"][0]["agents"] for r in report["sweep"]["runs"]] == ["random", "greedy"]


def test_the_text_report_has_a_row_per_run(cli):
    r = cli("validate", "hapy", "--games", "12", "--setup", "pyramid", "--agents", "greedy", "--jobs", "1",
            "--sweep", HAPY_RULE, "--sweep", "players=2,3")
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("Sweep:"))
    assert "4 runs" in lines[head] and "request_ban × players" in lines[head]
    table = "\n".join(lines[head:head + 8])
    assert "first player" in table and "wins per seat" in table
    rows = [line for line in lines if line.lstrip().startswith("request_ban=")]
    assert len(rows) == 4
    assert rows[1].split()[0:2] == ["request_ban=previous_player,", "players=3"]
    assert "3:" in rows[1] and "3:" not in rows[0]  # a third seat where three play
    assert any("differ" in line for line in lines[head:])  # what the comparison found, either way


def _config(wins: list[int], players: int = 2, setup: str = "pyramid", agents: str = "greedy") -> dict:
    games = sum(wins)
    return {"setup": setup, "players": players, "agents": agents, "completed": games, "draws": 0,
            "seats": [{"seat": s + 1, "wins": w} for s, w in enumerate(wins)]}


def test_a_run_whose_seats_win_otherwise_stands_out():
    runs = [{"label": "a", "values": {"x": "a"}, "simulation": {"configs": [_config([200, 200])]}},
            {"label": "b", "values": {"x": "b"}, "simulation": {"configs": [_config([205, 195])]}},
            {"label": "c", "values": {"x": "c"}, "simulation": {"configs": [_config([300, 100])]}}]
    verdict = compare_runs(runs, ["x"])
    assert [d["run"] for d in verdict["differ"]] == ["c"]
    assert verdict["compared"] == 3
    assert runs[2]["simulation"]["configs"][0]["vs_other_runs"]["differs"] is True
    assert runs[0]["simulation"]["configs"][0]["vs_other_runs"]["differs"] is False


def test_runs_are_compared_only_with_runs_of_as_many_players():
    runs = [{"label": "2", "values": {"players": 2}, "simulation": {"configs": [_config([300, 100])]}},
            {"label": "3", "values": {"players": 3}, "simulation": {"configs": [_config([100, 100, 100], 3)]}}]
    verdict = compare_runs(runs, ["players"])
    assert verdict["compared"] == 0 and verdict["differ"] == []
    assert "vs_other_runs" not in runs[0]["simulation"]["configs"][0]


@pytest.mark.parametrize("args, words", [
    (("--sweep", "colour=red,blue"), ["colour", "players", "agents", "setup", "request_ban"]),
    (("--sweep", "request_ban=previous_player,nobody"), ["nobody", "previous_player", "last_other_request"]),
    (("--sweep", "players=2,9"), ["9", "2, 3, 4"]),
    (("--sweep", "agents=random,wizard"), ["wizard", "random, greedy"]),
    (("--sweep", "setup=pyramid,moon"), ["moon", "giza"]),
    (("--sweep", "players"), ["NAME=A,B"]),
    (("--sweep", "players=2", "--sweep", "players=3"), ["players", "twice"]),
    (("--sweep", "players=2,3", "--players", "2"), ["--players", "--sweep players"]),
])
def test_a_wrong_sweep_is_a_usage_error_naming_it(cli, args, words):
    r = cli("validate", "hapy", "--games", "2", *args)
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.output
    error = [line for line in r.stderr.splitlines() if line.startswith("Error:")]
    assert len(error) == 1, r.stderr
    for word in words:
        assert word in error[0], error[0]


def test_a_boolean_and_a_number_option_are_read_as_the_data_would(cli):
    r = cli("validate", "farao", "--games", "2", "--players", "3", "--agents", "random", "--jobs", "1",
            "--sweep", "cash_optional=true,false", "--sweep", "trade_offers=0,2", "--json", "-")
    assert r.exit_code in (0, 1), r.output
    runs = json.loads(r.stdout)["sweep"]["runs"]
    assert [r["values"] for r in runs][:2] == [{"cash_optional": True, "trade_offers": 0},
                                               {"cash_optional": True, "trade_offers": 2}]
    bad = cli("validate", "farao", "--sweep", "trade_offers=3,99")
    assert bad.exit_code == 2 and "99" in bad.stderr and "0 to 20" in bad.stderr


def test_a_game_without_house_rules_offers_players_and_kinds(cli):
    r = cli("validate", "horus", "--sweep", "speed=1")
    assert r.exit_code == 2
    assert "players, agents, setup" in r.stderr and "no house rules" in r.stderr


def test_a_failure_in_a_run_replays_with_its_house_rule(monkeypatch, cli):
    from test_validate import LosesSixes

    from cardgen.rules.hapy.state import HapyState

    monkeypatch.setattr(HapyState, "_transfer", LosesSixes._transfer)
    r = cli("validate", "hapy", "--games", "6", "--setup", "pyramid", "--players", "3", "--agents", "greedy",
            "--jobs", "1", "--sweep", "request_ban=last_other_request", "--json", "-")
    assert r.exit_code == 1
    failure = json.loads(r.stdout)["simulation"]["failures"][0]
    assert failure["sweep"] == "request_ban=last_other_request"
    assert "--sweep request_ban=last_other_request" in failure["replay"]
    replay = failure["replay"].split()[1:] + ["--json", "-"]
    again = cli(*replay)
    assert again.exit_code == 1
    assert json.loads(again.stdout)["simulation"]["failures"][0]["message"] == failure["message"]


def test_a_sweep_report_pools_every_runs_cards_and_draws_them(cli, tmp_path):
    from htmlpage import parse

    page_file = tmp_path / "sweep.html"
    report = sweep_json(cli, "--sweep", "players=2,3", "--report", str(page_file))
    cards = report["simulation"]["cards"]
    configs = report["simulation"]["configs"]
    assert {c["sweep"] for c in configs} == {"players=2", "players=3"}
    assert [g["agents"] for g in cards["groups"]] == ["random", "greedy"]
    for group in cards["groups"]:
        mine = [c for c in configs if c["agents"] == group["agents"]]
        assert group["configs"] == len(mine) == 2  # one row of each run
        for card in group["cards"]:  # each card's holdings: both runs' together
            assert card["held"] == sum(c["cards"].get(card["card"], {}).get("held", 0) for c in mine)
            assert card["wins"] == sum(c["cards"].get(card["card"], {}).get("wins", 0) for c in mine)
    section = parse(page_file.read_text(encoding="utf-8")).find_all("section", id="cards")[0]
    assert len(section.find_all("tr", "r")) == sum(len(g["cards"]) for g in cards["groups"]) > 0
