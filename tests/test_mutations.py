"""Mutation tests: an engine with a bug injected at run time (a wrong constant, a step
left out, a legal move missing) must fail the validator's checks. Each bug here once
passed with 0 failures, because the checker read the engine's own constants and state
fields; the checkers now hold the rulebook's numbers (``rules/<game>/rulebook.py``) and
their own record of what happened."""

from __future__ import annotations

import pytest

from cardgen.load.game import load_game
from cardgen.rules import rules_for
from cardgen.validation.simulate import run_config


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
    assert failures(rules_for("hapy").load(hapy, 4, "pyramid"), "greedy", 5) == 0
    assert failures(rules_for("egypt").load(egypt, 3, "standard"), "random", 5) == 0
    assert failures(rules_for("horus").load(horus, 4, "standard"), "greedy", 3) == 0


# ------------------------------------------------------------------ Hâpy Families
def test_hapy_four_players_needing_four_sets_instead_of_three(hapy):
    gd = rules_for("hapy").load(hapy, 4, "pyramid")
    gd.win_sets = 4  # the engine's constant; the rulebook says 3 with 4 players
    assert failures(gd, "greedy", 10) > 0


def test_hapy_never_recording_the_last_request(hapy, monkeypatch):
    from cardgen.rules.hapy.state import HapyState

    class Forgetful(HapyState):
        __slots__ = ()
        last_request = property(lambda self: -1, lambda self, value: None)

    gd = rules_for("hapy").load(hapy, 3, "pyramid")
    monkeypatch.setattr(gd, "new_initial_state", lambda: Forgetful(gd))
    assert failures(gd, "random", 10) > 0


def test_hapy_leaving_the_requesters_own_cards_out_of_the_requests(hapy, monkeypatch):
    from cardgen.rules.hapy import state as engine
    from cardgen.rules.hapy.codec import REQUEST_BASE

    honest = engine.HapyState.legal_actions

    def legal(self):
        out = honest(self)
        if self.phase == engine.REQUEST:
            own = self.hand[self.player]
            out = [a for a in out if a < REQUEST_BASE or not own >> ((a - REQUEST_BASE) % 100) & 1]
        return out

    monkeypatch.setattr(engine.HapyState, "legal_actions", legal)
    monkeypatch.setattr(engine.HapyState, "legal_at", None)  # the random players use the list
    gd = rules_for("hapy").load(hapy, 3, "pyramid")
    assert failures(gd, "random", 10) > 0


# ------------------------------------------------------------------ Egypt
def test_egypt_keeping_six_cards(egypt, monkeypatch):
    from cardgen.rules.egypt import moves, spec, state

    monkeypatch.setattr(spec, "KEEP", 6)  # as a copy of the engine with the constant changed would
    monkeypatch.setattr(moves, "KEEP", 6)
    cache: dict = {}  # the engine's cache of discards, rebuilt with the bug
    monkeypatch.setattr(moves, "DISCARDS", cache)
    monkeypatch.setattr(state, "DISCARDS", cache)
    gd = rules_for("egypt").load(egypt, 3, "standard")
    assert failures(gd, "random", 5) > 0


def test_egypt_lasting_nine_turns(egypt):
    gd = rules_for("egypt").load(egypt, 3, "standard")
    gd.turns = 9
    assert failures(gd, "greedy", 3) > 0


def test_egypt_a_dynasty_phase_without_the_steal(egypt, monkeypatch):
    """Dynasty Phase: the controller first draws a random card from another player's
    hand; an engine that goes straight to the melds fails."""
    from cardgen.rules.egypt import state as engine

    honest = engine.EgyptState._resolve_control

    def no_steal(self):
        honest(self)
        if self.phase in (engine.VICTIM, engine.STEAL):
            self.phase = engine.DYNASTY
            self._dynasty_choice()

    monkeypatch.setattr(engine.EgyptState, "_resolve_control", no_steal)
    gd = rules_for("egypt").load(egypt, 3, "standard")
    assert failures(gd, "greedy", 3) > 0


# ------------------------------------------------------------------ Horus
def test_horus_without_the_first_round(horus, monkeypatch):
    """Every card counts as size 1 in each seat's first turn: an engine whose first-round
    flag is off from the start offers the card's own size, and the checker, counting the
    turns itself, names the stone."""
    gd = rules_for("horus").load(horus, 4, "standard")
    honest = gd.new_initial_state

    def start():
        s = honest()
        s.round_one = False
        return s

    monkeypatch.setattr(gd, "new_initial_state", start)
    assert failures(gd, "greedy", 5) > 0


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


# ------------------------------------------------------------------ O, Farao!
def test_farao_a_hand_of_six():
    gd = rules_for("farao").load(load_game("farao"), 3, "standard")
    gd.hand_limit = 6  # the engine's number; the rulebook: back to seven at the end of a turn
    assert failures(gd, "greedy", 3) > 0
