"""Per-card statistics: each game's state says which seats held or played each card
(``card_holders()``, an optional hook of the rules API); the validator counts, per card,
how often its holder won, and marks the cards whose holders win more, or less, than the
holders of the other cards beyond doubt."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

import cardgen.rules
from cardgen.load.game import load_game
from cardgen.rules import rules_for
from cardgen.rules.api import CHANCE, RandomAgent
from cardgen.rules.egypt.codec import action_types
from cardgen.rules.egypt.spec import EV_COMBO, EV_MELD, TYPE_IDS
from cardgen.rules.hapy.masks import mask_cards
from cardgen.rules.hapy.state import HapyState
from cardgen.rules.plugins import load_rules_file
from cardgen.validation.cardbalance import summarise
from cardgen.validation.runner import ValidateOptions, validate
from cardgen.validation.simulate import play_game, run_config
from cardgen.validation.sweep import with_house_rules

ROOT = Path(__file__).resolve().parents[2]


def finished(game_id: str, players: int, seed: int, setup: str | None = None):
    """A game of random players played to its end by the validator, and its last state."""
    rules = rules_for(game_id)
    model = load_game(game_id)
    gamedef = rules.load(model, players, setup or rules.setups(model)[0])
    final: list = []
    out = play_game(gamedef, RandomAgent, seed, final=final)
    assert out.status == "ok", out.message
    return gamedef, final[0], out


# ----------------------------------------------------------------------- the engines' hook
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_hapy_names_the_seat_holding_each_card_in_hand_or_revealed(seed):
    gamedef, state, _ = finished("hapy", 3, seed, "pyramid")
    holders = state.card_holders()
    want = {gamedef.card_name(c): (s,) for s in range(3) for c in mask_cards(state.hand[s] | state.rev[s])}
    assert {k: tuple(v) for k, v in holders.items()} == want
    # the cards still in the layout are nobody's; every other card is somebody's
    assert len(holders) == 36 - state.pyr
    assert all(name in gamedef.card_names for name in holders)


def test_egypt_names_the_seats_that_melded_each_card_type():
    gamedef, state, _ = finished("egypt", 3, 4)
    want: dict[str, set[int]] = {}
    for ev in state.events:
        if ev[0] in (EV_MELD, EV_COMBO):
            for t in action_types(ev[2]):
                want.setdefault(TYPE_IDS[t], set()).add(ev[1])
    assert want, "a game of Egypt without a meld: pick another seed"
    assert {k: set(v) for k, v in state.card_holders().items()} == want


@pytest.fixture
def star_freight(monkeypatch):
    """The rules kit's example game, its rules registered for this test only."""
    monkeypatch.setattr(cardgen.rules, "_REGISTRY", dict(cardgen.rules._REGISTRY))
    monkeypatch.setattr(sys, "modules", dict(sys.modules))
    monkeypatch.chdir(ROOT)
    rules = load_rules_file(ROOT / "docs" / "examples" / "rules" / "star_freight.py", "star-freight")
    cardgen.rules.register(rules)
    return rules


def test_a_kit_game_names_the_owner_of_each_card_in_a_pile_of_its_own(star_freight):
    gamedef = star_freight.load(load_game(ROOT / "docs" / "examples" / "star-freight"), 3, "standard")
    state = gamedef.new_initial_state()
    rng = random.Random(7)
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    want: dict[str, set[int]] = {}
    for s in range(3):
        for c in state.table.pile(("hand", s)) + state.table.pile(("delivered", s)):
            want.setdefault(gamedef.names[c], set()).add(s)
    got = state.card_holders()
    assert {k: set(v) for k, v in got.items()} == want
    market = [gamedef.names[c] for c in state.table.pile("market") if gamedef.cards[c][1]]  # cargo: one copy each
    assert market and not set(market) & set(got)  # a pile for the table is nobody's


# ----------------------------------------------------------------------- the tally
def test_each_configuration_counts_holdings_and_the_holders_wins():
    rules = rules_for("hapy")
    gamedef = rules.load(load_game("hapy"), 2, "pyramid")
    res = run_config(gamedef, rules.agents["random"], "random", True, 12, 40)
    expected: dict[str, list[int]] = {}
    for seed in range(40, 52):
        final: list = []
        out = play_game(gamedef, rules.agents["random"], seed, final=final)
        for name, seats in final[0].card_holders().items():
            for s in seats:
                held = expected.setdefault(name, [0, 0])
                held[0] += 1
                held[1] += out.winners == (s,)
    figures = res.figures()["cards"]
    assert {name: [v["held"], v["wins"]] for name, v in figures.items()} == expected
    assert sum(v["held"] for v in figures.values()) > 12  # several cards a game


def test_a_broken_card_holders_is_a_failure_with_its_seed(monkeypatch):
    monkeypatch.setattr(HapyState, "card_holders", lambda self: {"ra-1": [7]}, raising=False)
    rules = rules_for("hapy")
    gamedef = rules.load(load_game("hapy"), 2, "pyramid")
    out = play_game(gamedef, RandomAgent, 3)
    assert out.status == "failure"
    assert "card_holders()" in out.message and "seat" in out.message and "7" in out.message


def test_the_report_pools_the_cards_per_player_kind():
    report = validate(load_game("hapy"), ValidateOptions(games=10, jobs=1, setups=("pyramid",), players=(2, 3)))
    cards = report["simulation"]["cards"]
    assert [g["agents"] for g in cards["groups"]] == ["random", "greedy"]
    for group in cards["groups"]:
        configs = [c for c in report["simulation"]["configs"] if c["agents"] == group["agents"]]
        for card in group["cards"]:
            held = sum(c["cards"].get(card["card"], {}).get("held", 0) for c in configs)
            wins = sum(c["cards"].get(card["card"], {}).get("wins", 0) for c in configs)
            assert (card["held"], card["wins"]) == (held, wins)
            assert card["ci95"][0] <= card["rate"] <= card["ci95"][1]
            assert card["vs_expected"] in ("above", "below", "fair")


# ----------------------------------------------------------------------- the judgement
def _config(players: int, cards: dict[str, tuple[int, int]], agents: str = "greedy") -> dict:
    return {"setup": "s", "players": players, "agents": agents,
            "cards": {name: {"held": h, "wins": w} for name, (h, w) in cards.items()}}


def test_a_card_whose_holder_nearly_always_wins_stands_out_and_so_does_a_useless_one():
    plain = {f"c{k}": (300, 100) for k in range(10)}
    summary = summarise([_config(3, {**plain, "ace": (300, 240), "dud": (300, 10)})])
    (group,) = summary["groups"]
    verdict = {c["card"]: c["vs_expected"] for c in group["cards"]}
    assert verdict.pop("ace") == "above" and verdict.pop("dud") == "below"
    assert set(verdict.values()) == {"fair"}


def test_the_text_report_names_the_cards_that_stand_out_and_says_when_none_does():
    from cardgen.validation.report import _card_balance

    plain = {f"c{k}": (300, 100) for k in range(10)}
    lines = _card_balance(summarise([_config(3, {**plain, "ace": (300, 240), "dud": (300, 10)})]))
    said = [line.strip() for line in lines if line.startswith("    ")]
    assert len(said) == 2, lines
    assert said[0].startswith("greedy: ace above expected: holders win 80 %")
    assert said[1].startswith("greedy: dud below expected: holders win 3 %")
    assert "12 card(s) judged" in lines[1]
    fair = _card_balance(summarise([_config(3, plain)]))
    assert fair[-1].strip() == "no card's holders win more or less than expected beyond doubt"
    assert _card_balance(None) == []


def test_a_card_is_held_against_the_games_it_was_held_in():
    # a card held only in two-player games, winning half of them, is no better than the others
    two = _config(2, {"duo": (400, 200), "a": (400, 200), "b": (400, 200)})
    five = _config(5, {"a": (400, 80), "b": (400, 80), "c": (400, 80)})
    (group,) = summarise([two, five])["groups"]
    duo = next(c for c in group["cards"] if c["card"] == "duo")
    assert duo["expected"] == pytest.approx(0.5)
    assert duo["vs_expected"] == "fair"
    assert group["base_rate"] == pytest.approx((200 * 3 + 80 * 3) / 2400)


def test_chance_alone_marks_no_card_among_many():
    rng = random.Random(5)
    cards = {f"c{k}": (200, sum(rng.random() < 0.25 for _ in range(200))) for k in range(80)}
    (group,) = summarise([_config(4, cards)])["groups"]
    assert all(c["vs_expected"] == "fair" for c in group["cards"])


def test_no_card_data_no_summary():
    assert summarise([{"setup": "s", "players": 2, "agents": "random"}]) is None


# ----------------------------------------------------------------------- games whose end forgets what was played
def played_out(game_id: str, players: int, seed: int, house_rules: dict | None = None):
    """A game of random choices played to its end, and its log: per step the phase, the
    seat that chose (None for chance) and the action."""
    rules = rules_for(game_id)
    model = with_house_rules(load_game(game_id), house_rules or {})
    gamedef = rules.load(model, players, rules.setups(model)[0])
    state = gamedef.new_initial_state()
    rng = random.Random(seed)
    log = []
    while not state.is_terminal():
        seat = state.current_player()
        if seat == CHANCE:
            outcomes = state.chance_outcomes()
            action = outcomes[int(rng.random() * len(outcomes))][0]
        else:
            action = rng.choice(state.legal_actions())
        log.append((state.phase, None if seat == CHANCE else seat, action))
        state.apply_action(action)
    return gamedef, state, log


@pytest.mark.parametrize("seed, jokers", [(1, False), (2, False), (3, True)])
def test_farao_names_the_seats_that_built_or_played_each_kind_of_card(seed, jokers):
    from cardgen.rules.farao import codec
    from cardgen.rules.farao import spec as fs

    gamedef, state, log = played_out("farao", 3, seed, {"jokers": jokers})
    want: dict[str, set[int]] = {}

    def played(kind: int, seat: int) -> None:
        want.setdefault(fs.KIND_NAMES[kind], set()).add(seat)

    for phase, seat, action in log:
        if seat is None:
            continue
        if phase in (fs.TRADE, fs.BUILD) and action >= codec.BUILD_ACT:  # cards of one value onto a pyramid
            _, value, naturals, wild = codec.decode_build(action)
            if naturals:
                played(value, seat)
            if wild:
                played(fs.JOKER, seat)
        elif phase == fs.ATTACK and action == codec.TAX_ACT:
            played(fs.TAX, seat)
        elif phase == fs.ATTACK and action != codec.PASS:
            played(fs.THIEF, seat)
        elif phase in (fs.BLOCK, fs.TAX_BLOCK) and action == codec.BLOCK_ACT:
            played(fs.PHARAOH, seat)
    assert {fs.KIND_NAMES[v] for v in range(1, 10)} & set(want), "no building in this game: pick another seed"
    assert {"thief", "pharaoh"} <= set(want), "no theft or block in this game: pick another seed"
    assert ("joker" in want) == jokers, "no Joker built in this game of the variant: pick another seed"
    assert {k: set(v) for k, v in state.card_holders().items()} == want


def test_farao_names_the_played_cards_by_the_ids_of_the_deck():
    data = load_game("farao").data
    ids = {f"build-{b['value']}" for b in data["building"]} | {c["id"] for c in data["specials"]} \
        | {c["id"] for c in data["variant_cards"]}
    _, state, _ = played_out("farao", 3, 3)
    names = set(state.card_holders())
    assert names and names <= ids - {"end"}  # the End card is drawn, never held or played


@pytest.mark.parametrize("seed", [1, 2])
def test_horus_names_the_seats_that_played_each_horus_card_and_the_nile_card(seed):
    from cardgen.rules.horus import codec

    gamedef, state, log = played_out("horus", 2, seed)
    want: dict[str, set[int]] = {}
    for phase, seat, action in log:
        if phase == codec.P_CARD:
            name = "nile" if action == codec.NILE_ACTION else gamedef.card_name(action - codec.CARD_BASE)
            want.setdefault(name, set()).add(seat)
    assert want, "no card played in this game: pick another seed"
    assert {k: set(v) for k, v in state.card_holders().items()} == want
