"""``cardgen validate --jobs N``: the games played on several cores give the report of one.

Timings aside (elapsed seconds, games per second, the number of workers), the JSON
report must be the same whatever ``--jobs`` says: same games, seeds, failures, win
counts, lengths and per-game figures, in the same order."""

from __future__ import annotations

import json

import pytest
from test_validate import LosesSixes  # a rule bug, patched in before the workers fork

from cardgen.load.game import load_game
from cardgen.rules import rules_for
from cardgen.rules.hapy.state import HapyState
from cardgen.validation import parallel
from cardgen.validation.parallel import CHUNK_GAMES, chunk_size, merge, worker_count
from cardgen.validation.report import without_timings
from cardgen.validation.runner import ValidateOptions, validate
from cardgen.validation.simulate import run_config

pytestmark = pytest.mark.skipif(not parallel.can_fork(), reason="worker processes need fork here")


def test_the_report_is_the_same_on_one_core_and_on_two():
    game = load_game("egypt")
    opts = dict(games=CHUNK_GAMES + 7, players=(2, 4))  # two chunks a configuration, the second short
    one = validate(game, ValidateOptions(jobs=1, **opts))
    two = validate(game, ValidateOptions(jobs=2, **opts))
    assert one["simulation"]["jobs"] == 1 and two["simulation"]["jobs"] == 2
    assert without_timings(one) == without_timings(two)
    assert two["simulation"]["games"] == 4 * (CHUNK_GAMES + 7)
    assert two["simulation"]["configs"][0]["figures"]["tribute"]["n"] == 2 * (CHUNK_GAMES + 7)


def test_failures_found_by_workers_are_those_of_one_core(monkeypatch, cli):
    monkeypatch.setattr(HapyState, "_transfer", LosesSixes._transfer)
    args = ("validate", "hapy", "--games", str(CHUNK_GAMES * 2), "--setup", "pyramid", "--players", "3",
            "--agents", "greedy", "--json", "-")
    one = cli(*args, "--jobs", "1")
    two = cli(*args, "--jobs", "2")
    assert one.exit_code == two.exit_code == 1
    a, b = json.loads(one.stdout), json.loads(two.stdout)
    assert b["simulation"]["jobs"] == 2
    assert a["simulation"]["failures"] and without_timings(a["simulation"]) == without_timings(b["simulation"])
    assert a["simulation"]["configs"][0]["failure_count"] > len(a["simulation"]["failures"])  # only the first kept


def test_merging_chunks_gives_the_one_run():
    rules = rules_for("hapy")
    gd = rules.load(load_game("hapy"), 3, "temple")
    agent = rules.agents["random"]
    whole = run_config(gd, agent, "random", True, 30, 5)
    parts = [run_config(gd, agent, "random", True, 12, 5), run_config(gd, agent, "random", True, 12, 17),
             run_config(gd, agent, "random", True, 6, 29)]
    merged = merge(parts)
    assert without_timings(merged.figures()) == without_timings(whole.figures())
    assert merged.samples == whole.samples and merged.lengths == whole.lengths


def test_how_many_workers(monkeypatch):
    monkeypatch.setattr(parallel, "usable_cores", lambda: 8)
    assert worker_count(0, 100, 6) == 8  # one per core
    assert worker_count(3, 100, 6) == 3
    assert worker_count(0, 10, 2) == 4  # never more workers than chunks of games (of 5 at least)
    assert worker_count(0, 4, 1) == 1
    assert worker_count(2, 6, 1) == 2
    monkeypatch.setattr(parallel, "can_fork", lambda: False)
    assert worker_count(4, 1000, 10) == 4  # no fork on this platform: spawned
    monkeypatch.setattr(parallel.multiprocessing, "get_all_start_methods", lambda: [])
    assert worker_count(4, 1000, 10) == 1  # no way to start a worker: played here


def test_a_trace_plays_in_this_process(cli):
    r = cli("validate", "hapy", "--seed", "3", "--games", "1", "--players", "2", "--setup", "pyramid",
            "--agents", "random", "--trace", "--jobs", "2", "--json", "-")
    assert r.exit_code == 0
    assert json.loads(r.stdout)["simulation"]["jobs"] == 1
    assert sum(line.startswith("step") for line in r.stderr.splitlines()) > 36


def test_chunks_are_small_enough_to_balance_the_workers():
    assert chunk_size(100, 30, 2) == 50  # many configurations: the largest chunks
    assert chunk_size(25, 6, 2) == 13  # Horus's quick pass: two chunks a configuration, 12 in all
    assert chunk_size(100, 1, 4) == 7  # one configuration: sixteen chunks for four workers
    assert chunk_size(3, 1, 8) == 3  # never fewer than 5 games a chunk, where there are 5
    assert chunk_size(12, 1, 8) == 5
    assert chunk_size(1000, 2, 2) == CHUNK_GAMES


def test_small_chunks_give_the_same_report(monkeypatch):
    """Horus's quick pass on two workers: chunks of 13 and 12 games, merged in seed order."""
    game = load_game("horus")
    opts = dict(games=25, players=(2,), agents=("random",))
    one = validate(game, ValidateOptions(jobs=1, **opts))
    two = validate(game, ValidateOptions(jobs=2, **opts))
    assert two["simulation"]["jobs"] == 2 and without_timings(one) == without_timings(two)


@pytest.mark.parametrize("platform, method", [("linux", "fork"), ("darwin", "spawn"), ("win32", "spawn")])
def test_workers_are_forked_only_where_that_is_safe(monkeypatch, platform, method):
    monkeypatch.setattr(parallel.sys, "platform", platform)
    monkeypatch.setattr(parallel.multiprocessing, "get_all_start_methods", lambda: ["fork", "spawn"])
    assert parallel.can_fork() is (method == "fork")
    assert parallel.start_method() == method
    assert worker_count(2, 100, 4) == 2


def test_spawned_workers_give_the_report_of_one_core(monkeypatch):
    """What macOS and Windows do, done here: fresh interpreters handed the pickled game
    definitions (a Hâpy layout with its 4-seat request tables, Egypt's house rules)."""
    monkeypatch.setattr(parallel, "can_fork", lambda: False)

    def not_here(*args, **kwargs):
        raise AssertionError("played in this process, not by spawned workers")

    monkeypatch.setattr(parallel, "play_here", not_here)  # play_all's fall-back, not the runner's
    for game_id, opts in (("hapy", dict(games=12, players=(4,), setups=("temple",))),
                          ("egypt", dict(games=12, players=(3,)))):
        game = load_game(game_id)
        one = validate(game, ValidateOptions(jobs=1, **opts))
        two = validate(game, ValidateOptions(jobs=2, **opts))
        assert two["simulation"]["jobs"] == 2 and one["simulation"]["games"] == 24
        assert without_timings(one) == without_timings(two)


def test_game_definitions_that_cannot_be_pickled_are_played_here(monkeypatch):
    monkeypatch.setattr(parallel, "can_fork", lambda: False)
    rules = rules_for("egypt")
    gd = rules.load(load_game("egypt"), 2, "standard")
    random_agent = rules.agents["random"]
    made_here = lambda game, seat: random_agent(game, seat)  # noqa: E731 (a lambda cannot be pickled)
    configs = [parallel.Config("egypt", gd, made_here, "random", True)]
    seen = []
    (res,) = parallel.play_all(configs, 10, 1, 16, 2, lambda label, n: seen.append(n))
    assert res.games == 10 and res.failure_count == 0 and sum(seen) == 10
    assert res.lengths == run_config(gd, random_agent, "random", True, 10, 1).lengths
    assert not parallel.workers_can_play(configs)  # so the report says one process
    assert parallel.workers_can_play([parallel.Config("egypt", gd, random_agent, "random", True)])


def test_a_worker_that_dies_is_a_one_line_error(monkeypatch, cli):
    """A worker killed (out of memory, a crash in C code) fails the command cleanly."""
    import os

    def die(*args):
        os._exit(3)

    # the task is sent to the workers by name: this stands in for it under that name, and the
    # forked workers inherit it
    die.__module__, die.__qualname__ = parallel.__name__, "_play_chunk"
    monkeypatch.setattr(parallel, "_play_chunk", die)
    r = cli("validate", "hapy", "--games", "20", "--setup", "pyramid", "--players", "2", "--jobs", "2")
    assert r.exit_code == 1 and "Traceback" not in r.stdout + r.stderr
    (line,) = [x for x in r.stderr.splitlines() if x.startswith("error:")]
    assert "a worker process playing the games died" in line and "--jobs 1" in line


def test_a_rules_crash_does_not_wait_for_the_chunks_after_it():
    """After a chunk's rules crash, the chunks after it no longer matter: the run stops with
    the crash even when an executor never settles the futures it was asked to cancel (a Dask
    cluster's may not)."""
    import threading
    from concurrent.futures import Future

    from cardgen.rules.guard import RulesCrash
    from cardgen.validation.parallel import Config, play_chunks

    configs = [Config(f"config {k}", None, None, "random", True) for k in range(2)]
    made: list[Future] = []

    def submit(i, n, first):
        f: Future = Future()
        if i == 0:
            f.set_exception(RulesCrash("the rules crashed in new_initial_state()"))
        else:
            f.set_running_or_notify_cancel()  # running on a worker: cancel() cannot stop it, nothing settles it
        made.append(f)
        return f

    said: list[BaseException] = []

    def run():
        try:
            play_chunks(submit, configs, 10, 1, 1)
        except RulesCrash as exc:
            said.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(60)  # a bound on a hang, not a speed check: the run returns at once
    assert not thread.is_alive(), "the run waited for a chunk after the crash"
    assert said and "new_initial_state" in str(said[0])
