"""Mutation tests: an engine with a bug injected at run time (a wrong constant, a step
left out, a legal move missing, a leaked secret) must fail the validator's checks, with a
seed that fails again on replay. The bugs are the catalogue of ``bench/mutations/``, which
``bench/mutation_score.py`` also scores; many once passed with 0 failures, because the
checker read the engine's own constants and state fields or never waited for a
compulsory step. The checkers now hold the rulebook's numbers (``rules/<game>/rulebook.py``)
and their own record of what happened, and compare sampled legal-move lists with their own;
a player that reads hidden information is caught by the honesty probe."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from cardgen.load.game import load_game
from cardgen.rules import rules_for
from cardgen.validation.simulate import run_config

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository, for bench/

from bench.mutations.catalogue import CATALOGUE, by_game, peeking_agent  # noqa: E402
from bench.mutations.patcher import Patcher  # noqa: E402
from bench.mutations.run import judge  # noqa: E402

GAMES = ("hapy", "egypt", "horus", "farao")


def failures(gamedef, kind: str, games: int, check_every: int = 4) -> int:
    rules = rules_for(gamedef_game_id(gamedef))
    res = run_config(gamedef, rules.agents[kind], kind, True, games, 1, check_every)
    return res.failure_count


def gamedef_game_id(gamedef) -> str:
    return type(gamedef).__module__.split(".")[2]


@pytest.fixture(scope="module")
def hapy():
    return load_game("hapy")


@pytest.fixture(scope="module")
def egypt():
    return load_game("egypt")


@pytest.fixture(scope="module")
def horus():
    return load_game("horus")


def test_the_unbroken_engines_pass(hapy, egypt, horus):
    """The real engines pass every check the mutations trip (full checks every 4 steps)."""
    assert failures(rules_for("hapy").load(hapy, 4, "pyramid"), "greedy", 5) == 0
    assert failures(rules_for("hapy").load(hapy, 3, "pyramid"), "random", 10) == 0
    assert failures(rules_for("egypt").load(egypt, 3, "standard"), "random", 5) == 0
    assert failures(rules_for("egypt").load(egypt, 4, "standard"), "greedy", 10, check_every=1) == 0
    assert failures(rules_for("horus").load(horus, 4, "standard"), "greedy", 3) == 0
    assert failures(rules_for("horus").load(horus, 3, "standard"), "random", 10, check_every=1) == 0
    farao = rules_for("farao").load(load_game("farao"), 3, "standard")
    assert failures(farao, "greedy", 20, check_every=1) == 0
    assert failures(farao, "random", 20) == 0


@pytest.mark.parametrize("game_id", GAMES)
def test_the_catalogue_holds_fifteen_bugs_a_game(game_id):
    assert len(by_game(game_id)) >= 15


FIRST = [m for m in CATALOGUE if m.catalogue == "first"]
SECOND = [m for game in GAMES for m in by_game(game, "second")]


@pytest.mark.parametrize("m", FIRST, ids=lambda m: m.name)
def test_each_mutation_fails_and_fails_again_on_replay(m):
    """The validator's quick checks (full checks every 16 steps) fail the mutated engine, and
    the failing seed, played again as the printed replay command plays it, fails again: every
    bug of the catalogue is caught (the score is 100 %), the players that read hidden
    information by the honesty probe."""
    v = judge(m)
    assert v.seed is not None, f"{m.name}: {m.bug} — no seed failed"
    assert v.replayed, f"{m.name}: seed {v.seed} failed ({v.message}) but passed on replay"


@pytest.mark.parametrize("game_id", GAMES)
def test_the_second_catalogue_holds_fifteen_bugs_a_game(game_id):
    """Written from the rulebooks apart from the first, before the checks that catch them."""
    assert len(by_game(game_id, "second")) >= 15


@pytest.mark.parametrize("m", SECOND, ids=lambda m: m.name)
def test_each_second_catalogue_mutation_fails_and_fails_again_on_replay(m):
    """The second catalogue's bugs (a legal list, the next seat, a card's place, the pieces of
    the box, a secret in what every seat sees, biased chance) fail the quick pass (a bug of
    chance: the chance test over one pass of its games), and fail again on replay."""
    v = judge(m)
    assert v.seed is not None, f"{m.name}: {m.bug} — no seed failed"
    assert v.replayed, f"{m.name}: seed {v.seed} failed ({v.message}) but passed on replay"


PUBLIC_PEEKS = {  # a cheater's way to the state, used to read only what every seat sees
    "hapy": ("pyramid", lambda s, seat, legal, obs: legal[sum(s.hand_n) % len(legal)]),
    "egypt": ("standard", lambda s, seat, legal, obs: legal[sum(s.hand_n) % len(legal)]),
    "horus": ("standard", lambda s, seat, legal, obs: legal[len(s.bag) % len(legal)]),
    "farao": ("standard", lambda s, seat, legal, obs: legal[s.pile_n % len(legal)]),
}


@pytest.mark.parametrize("game_id", GAMES)
def test_a_player_holding_the_state_but_reading_public_facts_passes(game_id):
    """The leaked-secret mutants are caught for what they read, not for holding the state:
    the same kind of player deciding on hand sizes, the bag's or the pile's size passes."""
    setup, peek = PUBLIC_PEEKS[game_id]
    rules = rules_for(game_id)
    gd = rules.load(load_game(game_id), 3, setup)
    patch = Patcher()
    try:
        res = run_config(gd, peeking_agent(patch, gd, rules.agents["greedy"], peek), "peeker", True, 10, 1)
    finally:
        patch.undo()
    assert res.failure_count == 0, res.failures[0].message


# ------------------------------------------------------------------ the split itself
ENGINE_MODULES = ("state", "game", "moves", "table", "agents", "codec", "masks", "bits", "islands", "observation")


@pytest.mark.parametrize("game_id", ["hapy", "egypt", "horus", "farao"])
def test_each_game_has_a_rulebook_module_the_engine_does_not_use(game_id):
    """The numbers the checker holds come from the game's rulebook module, which no part of
    the engine (state, game, moves, agents…) imports: a wrong constant in the engine
    cannot also make its check agree."""
    import ast
    from pathlib import Path

    import cardgen.rules

    folder = Path(cardgen.rules.__file__).parent / game_id
    assert (folder / "rulebook.py").is_file()
    users = []
    for name in ENGINE_MODULES:
        path = folder / f"{name}.py"
        if path.is_file():
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and (node.module == "rulebook"
                                                         or any(a.name == "rulebook" for a in node.names)):
                    users.append(name)
    assert not users, f"engine modules importing the rulebook module: {users}"
