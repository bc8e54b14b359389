"""The rules kit (cardgen.rules.kit): a set-collection game in under 80 lines
(docs/examples/rules/star_freight.py) is played by the validator, with observations and
re-deals made from the piles' visibility, and its checker catches a broken engine."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import cardgen.rules
from cardgen.cli import main
from cardgen.load.game import load_game
from cardgen.rules.api import CHANCE, TERMINAL, RuleViolation, observation_leak
from cardgen.rules.kit import Kit, hidden, own, public
from cardgen.rules.kit.table import Table
from cardgen.rules.plugins import load_rules_file
from cardgen.validation.runner import ValidateOptions, validate

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "docs" / "examples" / "rules" / "star_freight.py"
GAME = ROOT / "docs" / "examples" / "star-freight"


@pytest.fixture(autouse=True)
def own_registry(monkeypatch):
    """Each test registers rules in a registry of its own, and leaves sys.modules as it was."""
    monkeypatch.setattr(cardgen.rules, "_REGISTRY", dict(cardgen.rules._REGISTRY))
    monkeypatch.setattr(sys, "modules", dict(sys.modules))
    monkeypatch.chdir(ROOT)


@pytest.fixture
def rules():
    loaded = load_rules_file(RULES, "star-freight")
    cardgen.rules.register(loaded)
    return loaded


def played(games: int = 20, players: tuple[int, ...] = ()) -> dict:
    return validate(load_game(GAME), ValidateOptions(games=games, jobs=1, players=players))


def test_the_game_takes_under_80_lines():
    assert len(RULES.read_text(encoding="utf-8").splitlines()) < 80


def test_the_validator_plays_the_kit_game():
    result = CliRunner().invoke(main, ["validate", str(GAME.relative_to(ROOT)), "--rules", str(RULES.relative_to(ROOT)),
                                       "--games", "30", "--jobs", "1"])
    assert result.exit_code == 0, result.output
    assert "Play: OK — 240 games" in result.output  # 2 to 5 players × random and greedy × 30
    assert "0 rule or invariant failure(s), 0 unfinished game(s)" in result.output


def test_every_game_ends_when_the_draw_pile_is_empty_and_is_scored(rules):
    game = rules.load(load_game(GAME), 3, "standard")
    for seed in range(5):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        assert state.current_player() == TERMINAL
        assert state.table.pile("draw") == []
        delivered = [sum(game.cards[c][1] or 4 for c in state.table.pile(("delivered", s))) for s in range(3)]
        assert state.table.scores == delivered
        assert max(state.returns()) == 1.0 and state.returns()[delivered.index(max(delivered))] == 1.0


def dealt(rules, players: int = 3, seed: int = 1):
    """A state after the deal, at the first seat's decision."""
    state = rules.load(load_game(GAME), players, "standard").new_initial_state()
    rng = random.Random(seed)
    while state.current_player() == CHANCE:
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    return state


def test_the_deal_follows_setup(rules):
    state = dealt(rules)
    t = state.table
    assert [len(t.pile(("hand", s))) for s in range(3)] == [5, 5, 5]
    assert len(t.pile("market")) == 4 and len(t.pile("draw")) == 60 - 15 - 4


def test_a_seat_sees_its_hand_the_public_piles_and_only_the_size_of_the_rest(rules):
    state = dealt(rules)
    view = state.observation(1)
    assert observation_leak(view) is None
    assert view.piles["hand"] == (5, tuple(state.table.pile(("hand", 1))), 5)
    assert view.piles["market"] == tuple(state.table.pile("market"))
    assert view.piles["draw"] == 41 and view.piles["delivered"] == ((), (), ())


def test_a_re_deal_changes_only_what_the_seat_cannot_see(rules):
    state = dealt(rules)
    twin = state.scrambled(0, random.Random(5))
    assert twin.observation(0) == state.observation(0) and twin.legal_actions() == state.legal_actions()
    assert twin.table.pile(("hand", 1)) != state.table.pile(("hand", 1))
    assert sorted(twin.table.cards_everywhere()) == list(range(60))
    assert state.table.pile(("hand", 1)) == state.clone().table.pile(("hand", 1))  # the original untouched


def test_the_checker_catches_a_move_the_rules_forbid(rules, monkeypatch):
    """An engine that lets a pair of cargo cards be delivered: the kit's checker asks the
    rules' own judgement, which says too few."""
    monkeypatch.setattr(type(rules), "deliverable", lambda self, hand, game: sorted({game.cards[c][0] for c in hand}))
    report = played(10, (2,))
    assert not report["ok"]
    failure = report["simulation"]["failures"][0]
    assert "delivers 1" in failure["message"] or "delivers 2" in failure["message"]
    assert "too few" in failure["message"]


def test_the_checker_catches_a_card_made_twice(rules, monkeypatch):
    original = type(rules).play

    def play(self, t, move, game):
        original(self, t, move, game)
        if move[0] == "deliver":
            t.pile(("delivered", 0)).append(t.pile(("delivered", 0))[0] if t.pile(("delivered", 0)) else 0)

    monkeypatch.setattr(type(rules), "play", play)
    report = played(10, (2,))
    assert not report["ok"]
    assert "61 cards in the piles; the deck has 60" in report["simulation"]["failures"][0]["message"]


def test_the_checker_catches_a_game_ended_early(rules, monkeypatch):
    original = type(rules).play

    def play(self, t, move, game):
        original(self, t, move, game)
        t.over = t.over or t.turn >= 10

    monkeypatch.setattr(type(rules), "play", play)
    report = played(5, (2,))
    assert not report["ok"]
    assert "the game ended with" in report["simulation"]["failures"][0]["message"]


def test_a_seed_replays_the_same_games(rules):
    first, second = played(15), played(15)
    assert [c["seats"] for c in first["simulation"]["configs"]] == [c["seats"] for c in second["simulation"]["configs"]]
    assert first["ok"]


# -- the table's building blocks ----------------------------------------------------------


def test_a_draw_from_an_empty_pile_draws_nothing():
    class Tiny(Kit):
        game_id = "tiny"
        piles = (hidden("draw"), own("hand"))

        def setup(self, t, game):
            t.draw("draw", ("hand", 0), 100)  # more than the deck holds

        def moves(self, t, game):
            return [("stop",)]

        def play(self, t, move, game):
            t.over = True

    from cardgen.rules.kit import KitGame

    state = KitGame(Tiny(), ("a", "b"), ("a", "b"), 1, "standard").new_initial_state()
    assert state.current_player() == CHANCE
    state.apply_action(state.chance_outcomes()[0][0])
    state.apply_action(state.chance_outcomes()[0][0])
    assert state.current_player() == 0 and sorted(state.table.pile(("hand", 0))) == [0, 1]


def test_a_pile_is_named_as_it_is_declared():
    t = Table((hidden("draw"), own("hand"), public("table")), 2, "play")
    with pytest.raises(KeyError, match="one per seat"):
        t.pile("hand")
    with pytest.raises(KeyError, match="one for the table"):
        t.pile(("table", 0))
    with pytest.raises(KeyError, match="no pile 'discard'"):
        t.pile("discard")


def test_the_deck_starts_in_a_pile_of_the_table():
    class Wrong(Kit):
        game_id = "wrong"
        piles = (own("hand"),)

    with pytest.raises(TypeError, match="first pile holds the deck"):
        Wrong()


def test_a_move_the_rules_forbid_raises_in_judge(rules):
    state = dealt(rules)
    with pytest.raises(RuleViolation, match="in the take phase"):
        state.game.kit.judge(state.table, 0, ("pass",), state.game)


# -- what the kit checks for free: flows, pile limits, turn order --------------------------


def patched_play(monkeypatch, rules, after):
    """The Star Freight engine with ``after(t, move, seat)`` run after each of its moves."""
    original = type(rules).play

    def play(self, t, move, game):
        seat = t.seat
        original(self, t, move, game)
        after(t, move, seat)

    monkeypatch.setattr(type(rules), "play", play)


def first_failure(games: int = 10, players: tuple[int, ...] = (3,)) -> str:
    report = played(games, players)
    assert not report["ok"]
    return report["simulation"]["failures"][0]["message"]


def test_a_card_taken_into_another_seats_hand_fails_its_step(rules, monkeypatch):
    """The rule "take a market card into your hand" applied to the next seat: the card count
    holds, the judge (which reads the move, not where the card went) passes it; the flows
    ('market -> hand': the mover's own) catch it."""
    def to_the_neighbour(t, move, seat):
        if move[0] == "take":
            t.move(move[1], ("hand", seat), ("hand", (seat + 1) % t.num_players))

    patched_play(monkeypatch, rules, to_the_neighbour)
    message = first_failure()
    assert "seat 1's take" in message or "take" in message
    assert "to the hand of seat" in message and "which the rules never do" in message


def test_cards_delivered_onto_another_seats_pile_fail(rules, monkeypatch):
    def misdeliver(t, move, seat):
        if move[0] == "deliver":
            mine, theirs = ("delivered", seat), ("delivered", (seat + 1) % t.num_players)
            for c in list(t.pile(mine)):
                t.move(c, mine, theirs)

    patched_play(monkeypatch, rules, misdeliver)
    assert "the delivered of seat" in first_failure(20)


def test_a_market_refilled_twice_breaks_its_limit(rules, monkeypatch):
    patched_play(monkeypatch, rules, lambda t, move, seat: t.draw("draw", "market") if move[0] == "take" else None)
    assert "pile 'market' holds 5 cards; the rules allow at most 4" in first_failure()


def test_a_turn_that_skips_a_seat_fails(rules, monkeypatch):
    def skip(t, move, seat):
        if t.seat != seat and not t.over:
            t.seat = (t.seat + 1) % t.num_players

    patched_play(monkeypatch, rules, skip)
    message = first_failure()
    assert "seat 3 plays; the rules say seat 2" in message or "plays; the rules say seat" in message


def test_the_play_passed_without_ending_the_turn_fails(rules, monkeypatch):
    def hand_over(t, move, seat):
        if move[0] in ("take", "draw"):
            t.seat = (seat + 1) % t.num_players

    patched_play(monkeypatch, rules, hand_over)
    assert "gave the play to seat 2 without ending the turn" in first_failure()


def test_the_shipped_game_keeps_to_its_flows_limits_and_turns(rules):
    report = played(30)
    assert report["ok"], report["simulation"]["failures"][:1]


class PassLeft(Kit):
    """Each turn the seat passes one card of its hand to the next seat's hand; after an
    even-numbered card the seat after that one plays next, else the next seat: a flow
    'of other' and a next_seat of the rules' own."""

    game_id = "pass-left"
    piles = (hidden("draw"), own("hand", most=8))
    flows = ("hand -> hand of other",)

    def setup(self, t, game):
        for seat in range(game.num_players):
            t.draw("draw", ("hand", seat), 2)

    def moves(self, t, game):
        return [("pass", c) for c in t.pile(("hand", t.seat))] or [("stop",)]

    def play(self, t, move, game):
        if move[0] == "pass":
            t.move(move[1], ("hand", t.seat), ("hand", (t.seat + 1) % t.num_players))
        t.end_turn(self.next_seat(t, t.seat, move, game))
        t.over = t.turn >= 12 or move[0] == "stop"

    def next_seat(self, t, seat, move, game):
        return (seat + (2 if move[0] == "pass" and move[1] % 2 == 0 else 1)) % t.num_players


def play_kit(kit: Kit, players: int = 3, games: int = 5, cards: int = 12) -> list[str]:
    """The messages of every failure of ``games`` random games of ``kit`` with its checker."""
    from cardgen.rules.kit import KitGame
    from cardgen.validation.simulate import run_config

    game = KitGame(kit, tuple(range(cards)), tuple(f"card {i}" for i in range(cards)), players, "standard")
    result = run_config(game, kit.agents["random"], "random", True, games, 1, 1)
    return [f.message for f in result.failures]


def test_a_flow_to_another_seat_and_a_leader_of_the_rules_own_pass():
    assert play_kit(PassLeft()) == []


def test_a_card_passed_back_to_oneself_is_not_a_flow_to_another_seat():
    class PassSelf(PassLeft):
        def play(self, t, move, game):
            if move[0] == "pass":
                t.move(move[1], ("hand", t.seat), ("hand", t.seat))
            t.end_turn(self.next_seat(t, t.seat, move, game))
            t.over = t.turn >= 12

    messages = play_kit(PassSelf())
    assert messages and "from its own hand to its own hand, which the rules never do" in messages[0]


def test_a_leader_other_than_the_rules_fails():
    class NextAlways(PassLeft):
        def play(self, t, move, game):
            if move[0] == "pass":
                t.move(move[1], ("hand", t.seat), ("hand", (t.seat + 1) % t.num_players))
            t.end_turn()  # round the table, although after an even card the rules skip a seat
            t.over = t.turn >= 12

    messages = play_kit(NextAlways())
    assert messages and "; the rules say seat" in messages[0]


@pytest.mark.parametrize(("flows", "words"), [
    (("hand to hand",), "must read 'FROM -> TO'"),
    (("hand -> discard",), "names no pile 'discard'"),
    (("draw of other -> hand",), "'draw' is one pile for the table"),
    (("hand -> hand of them",), "say whose pile as 'hand of own'"),
])
def test_a_mistake_in_the_flows_is_said_when_the_kit_is_made(flows, words):
    class Bad(PassLeft):
        pass

    Bad.flows = flows
    with pytest.raises(TypeError, match="Bad: flow") as caught:
        Bad()
    assert words in str(caught.value)


def test_a_pile_limit_must_be_a_count():
    with pytest.raises(ValueError, match="most must be a whole number"):
        own("hand", most=-1)
