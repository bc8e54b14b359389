"""The adaptive quick pass: each configuration plays until its seats' win rates are known
as closely as asked (or its budget is spent), the games going where the doubt is; the
same games and the same report on one process or several; every failing seed replayed
by the command the report prints."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import cardgen.rules
from cardgen.cli import main
from cardgen.load.game import load_game
from cardgen.rules.plugins import load_rules_file
from cardgen.validation.adaptive import FIRST_ROUND, Plan
from cardgen.validation.report import without_timings
from cardgen.validation.runner import ValidateOptions, validate

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "docs" / "examples" / "star-freight"

# A one-round game with a known bias, made with the rules kit: each seat draws one card.
# With two players seat 1 always wins (a tight configuration: nothing to doubt); with three,
# the card drawn last names the winner (each seat about a third: the doubt is there).
# BAD_CARDS: when the first seat drew one of them, the last seat's turn counts its card twice
# (a bug that shows in some deals only, for the replay test).
BIASED = '''
from cardgen.rules import register
from cardgen.rules.kit import Kit, hidden, own


class Biased(Kit):
    game_id = "star-freight"
    players = (2, 5)
    piles = (hidden("draw"), own("hand"))
    BAD_CARDS = ()

    def card(self, fields):
        return 0

    def moves(self, t, game):
        return [("draw",)]

    def play(self, t, move, game):
        t.draw("draw", ("hand", t.seat))
        if t.seat == game.num_players - 1 and t.pile(("hand", 0))[0] in self.BAD_CARDS:
            t.pile(("hand", 0)).append(t.pile(("hand", 0))[0])  # a card counted twice
        t.end_turn()
        t.over = t.seat == 0

    def result(self, t, game):
        n = game.num_players
        if n == 2:
            return [1.0, 0.0]
        winner = t.pile(("hand", n - 1))[0] % n
        return [1.0 if s == winner else 0.0 for s in range(n)]


register(Biased())
'''


@pytest.fixture(autouse=True)
def own_registry(monkeypatch):
    monkeypatch.setattr(cardgen.rules, "_REGISTRY", dict(cardgen.rules._REGISTRY))
    monkeypatch.setattr(sys, "modules", dict(sys.modules))
    monkeypatch.chdir(ROOT)


def biased_rules(tmp_path: Path, bad_cards: tuple[int, ...] = ()) -> Path:
    path = tmp_path / "biased.py"
    path.write_text(BIASED.replace("BAD_CARDS = ()", f"BAD_CARDS = {bad_cards!r}"), encoding="utf-8")
    return path


def adaptive_pass(plan: Plan, jobs: int = 1, players: tuple[int, ...] = (2, 3), game: str | Path = GAME, **kw) -> dict:
    return validate(load_game(game), ValidateOptions(games=plan.budget, adaptive=plan, jobs=jobs, players=players,
                                                     **kw))


def games_by_players(report: dict) -> dict[int, int]:
    return {c["players"]: c["games"] for c in report["simulation"]["configs"]}


def test_a_tight_configuration_stops_after_the_first_round_and_a_doubtful_one_plays_on(tmp_path):
    load_rules_file(biased_rules(tmp_path), "star-freight")
    report = adaptive_pass(Plan(within=0.15, budget=200))
    assert report["ok"], report["simulation"]["failures"]
    games = games_by_players(report)
    assert games[2] == FIRST_ROUND  # seat 1 won all 20: known within ±8 points already
    # three seats near a third each: ±15 points takes about 40 games, more than the first round
    assert FIRST_ROUND < games[3] < 200
    said = report["simulation"]["adaptive"]
    assert said["within"] == 0.15 and said["budget"] == 200
    assert [c["settled"] for c in said["configs"]] == [True, True]
    assert all(c["widest"] <= 0.15 for c in said["configs"])
    two = report["simulation"]["configs"][0]
    assert two["seats"][0]["wins"] == FIRST_ROUND and two["seats"][1]["wins"] == 0


def test_a_tighter_target_spends_more_games_and_the_budget_caps_them(tmp_path):
    load_rules_file(biased_rules(tmp_path), "star-freight")
    loose = games_by_players(adaptive_pass(Plan(within=0.15, budget=200)))
    tight = games_by_players(adaptive_pass(Plan(within=0.05, budget=200)))
    assert tight[3] > loose[3]
    assert tight[3] == 200  # ±5 points for a third needs ~340 games: the budget stops it
    assert tight[2] < 200  # a seat that always wins is known within ±5 points long before


def test_the_adaptive_pass_is_the_same_on_one_process_and_on_two():
    """Which games a configuration plays depends on its games only, never on timing."""
    plan = Plan(within=0.12, budget=60)
    one = adaptive_pass(plan, jobs=1, players=(2, 3), agents=("random",), game="egypt")
    two = adaptive_pass(plan, jobs=2, players=(2, 3), agents=("random",), game="egypt")
    assert two["simulation"]["jobs"] == 2
    assert without_timings(one) == without_timings(two)
    assert set(games_by_players(one).values()) - {FIRST_ROUND}  # rounds after the first were played


def test_the_rounds_of_a_pass_on_two_processes_share_one_pool_of_workers(monkeypatch):
    """Workers cost their start: a pass of several rounds starts its processes once, and
    the workers of that one pool play every round."""
    from concurrent.futures import ProcessPoolExecutor

    from cardgen.validation import parallel

    pools: list[ProcessPoolExecutor] = []

    class Counted(ProcessPoolExecutor):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            pools.append(self)

    monkeypatch.setattr(parallel, "ProcessPoolExecutor", Counted)
    report = adaptive_pass(Plan(within=0.12, budget=60), jobs=2, players=(2, 3), agents=("random",), game="egypt")
    assert report["simulation"]["jobs"] == 2
    assert max(games_by_players(report).values()) > FIRST_ROUND + 5  # three rounds or more were played
    assert len(pools) == 1


def test_a_configuration_played_alone_plays_the_same_games_as_in_the_whole_pass():
    plan = Plan(within=0.12, budget=60)
    whole = adaptive_pass(plan, players=(2, 3), agents=("random",), game="egypt")
    alone = adaptive_pass(plan, players=(3,), agents=("random",), game="egypt")
    def played(config: dict) -> dict:  # the games and what they gave (the balance marks depend on how many seats are judged)
        return {**without_timings(config), "seats": [{k: v for k, v in s.items() if k in ("seat", "wins", "ci95")}
                                                     for s in config["seats"]]}

    assert played(alone["simulation"]["configs"][0]) == played(whole["simulation"]["configs"][1])
    assert alone["simulation"]["configs"][0]["games"] > FIRST_ROUND


def test_a_failing_seed_of_the_adaptive_pass_fails_again_by_its_replay_command(tmp_path):
    """A bug that shows only in some deals: the seed the pass names, replayed by the
    command it prints, fails again."""
    rules = biased_rules(tmp_path, bad_cards=tuple(range(0, 60, 6)))
    runner = CliRunner()
    r = runner.invoke(main, ["validate", str(GAME.relative_to(ROOT)), "--rules", str(rules), "--jobs", "1", "--players", "2,3",
                             "--json", "-"])
    assert r.exit_code == 1, r.output
    failures = json.loads(r.stdout)["simulation"]["failures"]
    assert failures
    replay = failures[0]["replay"].split()[3:]  # after "cardgen validate GAME"
    assert "--games" in replay and replay[replay.index("--games") + 1] == "1"
    again = runner.invoke(main, ["validate", str(GAME.relative_to(ROOT)), "--rules", str(rules), *replay])
    assert again.exit_code == 1, again.output
    assert f"seed {failures[0]['seed']}" in again.output


def test_the_cli_quick_pass_is_adaptive_and_says_so(tmp_path):
    rules = biased_rules(tmp_path)
    r = CliRunner().invoke(main, ["validate", str(GAME.relative_to(ROOT)), "--rules", str(rules), "--jobs", "1", "--players", "2,3",
                                  "--within", "10", "--budget", "150"])
    assert r.exit_code == 0, r.output
    assert "adaptive: each configuration played until every seat's win rate is known within ±10 points" in r.output
    assert "150 at most" in r.output
    data = CliRunner().invoke(main, ["validate", str(GAME.relative_to(ROOT)), "--rules", str(rules), "--jobs", "1", "--players", "2,3",
                                     "--json", "-"])
    said = json.loads(data.stdout)["simulation"]["adaptive"]
    assert said["within"] == 0.15 and said["budget"] == 100
    assert [c["games"] for c in said["configs"]] == [c["games"] for c in json.loads(data.stdout)["simulation"]["configs"]]


def test_explicit_games_keep_their_meaning(tmp_path):
    rules = biased_rules(tmp_path)
    r = CliRunner().invoke(main, ["validate", str(GAME.relative_to(ROOT)), "--rules", str(rules), "--jobs", "1", "--players", "2,3",
                                  "--games", "33", "--json", "-"])
    sim = json.loads(r.stdout)["simulation"]
    assert [c["games"] for c in sim["configs"]] == [33, 33]
    assert "adaptive" not in sim


@pytest.mark.parametrize("extra", [["--games", "10"], ["--balance"]])
def test_within_and_budget_are_for_the_adaptive_pass_only(extra):
    r = CliRunner().invoke(main, ["validate", "hapy", "--within", "5", *extra])
    assert r.exit_code == 2
    assert "--within and --budget shape the adaptive pass" in r.output
