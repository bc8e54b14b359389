"""`cardgen validate --balance`: enough games per configuration for every seat's win
rate within ±2 percentage points (95 %), with a progress bar and the time left on a
terminal only."""

from __future__ import annotations

import io
import json
import math

import pytest
from click.testing import CliRunner

from cardgen.cli import main
from cardgen.cli.progress_bar import bar_line, duration
from cardgen.cli.validate import BALANCE_GAMES

ONE_CONFIG = ["hapy", "--players", "2", "--agents", "random", "--setup", "pyramid", "--jobs", "1"]


def test_the_balance_pass_is_enough_games_for_two_points_either_way():
    half_width = 1.96 * math.sqrt(0.25 / BALANCE_GAMES)  # the widest interval: a win rate of 50 %
    assert half_width <= 0.02 < 1.96 * math.sqrt(0.25 / (BALANCE_GAMES - 1))


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_balance_plays_its_games_with_a_bar_and_the_time_left_on_a_terminal(monkeypatch, tmp_path, capsys):
    report = tmp_path / "report.json"
    terminal = _Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    with pytest.raises(SystemExit) as exit_:
        main(["validate", *ONE_CONFIG, "--balance", "--json", str(report)], prog_name="cardgen")
    assert exit_.value.code == 0
    config = json.loads(report.read_text(encoding="utf-8"))["simulation"]["configs"][0]
    assert config["games"] == BALANCE_GAMES
    for seat in config["seats"]:
        low, high = seat["ci95"]
        assert high - low <= 0.04 + 1e-9
    shown = terminal.getvalue()
    assert "[" + "#" * 24 + "]" in shown and f"{BALANCE_GAMES:,}/{BALANCE_GAMES:,} games" in shown
    assert "left (playing" in shown  # the estimate while it played


def test_without_a_terminal_no_bar_is_written():
    run = CliRunner().invoke(main, ["validate", *ONE_CONFIG, "--games", "30"])
    assert run.exit_code == 0, run.output
    assert "#" not in run.stderr and "\r" not in run.stderr and "left" not in run.stderr


def test_balance_and_games_together_are_a_usage_error():
    run = CliRunner().invoke(main, ["validate", "hapy", "--balance", "--games", "10"])
    assert run.exit_code == 2
    assert "--balance" in run.output and "not both" in run.output


def test_the_bar_line():
    assert bar_line("pyramid, 2 players", 0, 100, 0.0) == "[" + "-" * 24 + "] 0/100 games (playing pyramid, 2 players)"
    half = bar_line("x", 1_200, 2_400, 30.0)
    assert half.startswith("[" + "#" * 12 + "-" * 12 + "] 1,200/2,400 games, about 30 s left")
    assert bar_line("x", 50, 50, 75.0).endswith("50/50 games, 1 min 15 s (playing x)")
    assert duration(3725) == "1 h 02 min" and duration(59.4) == "59 s"
