"""The O, Farao! rules engine: one test per rule of the Dutch rulebook (a constructed
position where the rule decides), our named choices where it is silent, hidden
information, the checker, the players, seeded whole games, and the deck check
against mutated copies of the game's data."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from conftest import edit_file, problems_of

from cardgen.load.game import load_game
from cardgen.rules import CHANCE, TERMINAL, RuleViolation, rules_for
from cardgen.rules.api import RandomAgent
from cardgen.rules.farao.agents import GreedyAgent
from cardgen.rules.farao.checker import rule_value
from cardgen.rules.farao.codec import (
    ACCEPT,
    ALLOW,
    BLOCK_ACT,
    BUILD_ACT,
    CASH_ACT,
    DECLINE,
    DISCARD,
    NEW,
    PASS,
    PILE,
    STEAL_ACT,
    TAKE,
    TAX_ACT,
    THIEF_ACT,
    YES,
    build_action,
    decode_build,
    decode_trade,
    trade_action,
)
from cardgen.rules.farao.spec import (
    ATTACK,
    BLOCK,
    BUILD,
    C_DIE,
    C_DRAW,
    C_STEAL,
    C_TAX,
    CASH,
    DISPLAY_TARGET,
    DRAW,
    END,
    END_DISCARD,
    IDLE,
    JOKER,
    LOSS_DISCARD,
    PHARAOH,
    PHASE_NAMES,
    STEAL,
    TAX,
    TAX_BLOCK,
    THIEF,
    TRADE,
    TRADE_PICK,
    TRADE_REPLY,
    FaraoOptions,
    key_name,
    pyramid_value,
)
from cardgen.rules.farao.spec import (
    C_DRAW as CHANCE_DRAW,
)
from cardgen.rules.farao.state import FaraoState
from cardgen.validation.simulate import play_game, run_config
from cardgen.validation.static import check_static


@pytest.fixture(scope="module")
def game():
    return load_game("farao")


@pytest.fixture(scope="module")
def rules():
    return rules_for("farao")


@pytest.fixture(scope="module")
def gd3(game, rules):
    return rules.load(game, 3)


@pytest.fixture(scope="module")
def gd4(game, rules):
    return rules.load(game, 4)


def with_options(game, rules, n=3, **kw):
    return rules.load(game, n, options=FaraoOptions(**kw))


def pos(gd, hands, pyramids=(), **kw) -> FaraoState:
    return FaraoState.from_position(gd, hands, pyramids, **kw)


def go_to(s: FaraoState, phase: int) -> None:
    """Pass through the active player's optional steps until ``phase`` (no chance in between)."""
    for _ in range(20):
        if s.phase == phase:
            return
        assert s.phase in (CASH, TRADE, BUILD, ATTACK), PHASE_NAMES[s.phase]
        s.apply_action(PASS)
    raise AssertionError(f"never reached {PHASE_NAMES[phase]}")


def draw_pile(s: FaraoState, kind: int) -> None:
    """Step 2 from the pile, the chance step drawing ``kind``."""
    assert s.phase == DRAW
    s.apply_action(PILE)
    assert s.phase == C_DRAW
    s.apply_action(kind)


def value(base, widths):
    return pyramid_value((base, tuple(w << 3 for w in widths)))


# --------------------------------------------------------------------------- the deck and the board
def test_rule_the_deck_is_the_retail_deck(game, rules):
    spec = rules.static_spec(game, game.data_marks)
    res = check_static(game, spec, game.data_marks)
    assert res.ok, res.problems
    assert spec.total == 87 == game.component("cards").count
    assert {key_name(k): spec.wanted(k) for k in spec.expected} == {
        "build-1": 13, "build-2": 12, "build-3": 11, "build-4": 10, "build-5": 9, "build-6": 8, "build-7": 6,
        "build-8": 4, "build-9": 3, "thief": 5, "tax_collector": 2, "pharaoh": 3, "end": 1}
    assert "87 cards in deck 'cards'" in res.passed[0] and "as often as the rules need" in res.passed[0]


def test_rule_the_board_has_eleven_plateaus_and_two_special_ones(game, gd3):
    b = gd3.board
    assert (b.plateaus, b.double_from, b.tall_only_from, b.tall_rows) == (11, 3, 7, 3)
    assert (b.hand_limit, b.display, b.die) == (7, 3, 6)
    assert gd3.total == 87 and gd3.counts[JOKER] == 0


def test_the_deal_lays_three_cards_out_and_seven_in_each_hand(gd4):
    s = gd4.new_initial_state()
    rng = random.Random(5)
    assert s.current_player() == CHANCE
    s.apply_chance_run(rng)
    assert len(s.display) == 3 and s.hand_n == [7, 7, 7, 7]
    assert s.pile_n == 86 - 31 and s.pile[END] == 0 and s.end_out == 1, "the End card waits for the last plateau"
    assert s.plateau == 1 and s.active == 0 and s.current_player() == 0


# --------------------------------------------------------------------------- step 1: cashing
def test_rule_the_worked_example_is_worth_27():
    assert value(2, [3, 2, 1]) == (2 + 3 + 4) * 3 == 27
    assert rule_value((2, (24, 16, 8))) == 27


@pytest.mark.parametrize("base,widths,points", [(1, [5], 1), (9, [1], 9), (1, [4, 3, 2, 1], 40), (6, [4, 3, 2, 1], 120),
                                                (3, [9, 2], 14), (5, [2, 1], 22)])
def test_rule_a_pyramid_is_worth_its_distinct_values_times_its_height(base, widths, points):
    assert value(base, widths) == points == sum(range(base, base + len(widths))) * len(widths)


def test_rule_cashing_scores_the_pyramid_and_moves_the_figure(gd3):
    s = pos(gd3, [{1: 7}, {5: 7}, {6: 7}], [[(2, [3, 2, 1])]], plateau=4, display=[7, 8, 9])
    assert s.phase == CASH and s.legal_actions() == [PASS, CASH_ACT]
    s.apply_action(CASH_ACT)
    assert s.score == [27, 0, 0] and s.plateau == 5 and s.pyr[0] == []
    assert s.discard[2] == 3 and s.discard[3] == 2 and s.discard[4] == 1, "cashed cards go to the discard (ours)"
    assert s.phase == DRAW


def test_rule_a_short_display_is_filled_to_three_before_step_2(gd3):
    """Start: three cards lie face up. A display left short (the pile and the discard were
    empty when it was to be refilled) is filled again from the pile before the next draw step."""
    s = pos(gd3, [{1: 7}, {5: 7}, {6: 7}], display=[7])
    s.display_owed = 2  # two display cards taken while pile and discard were empty
    s._start_turn(0)
    assert s.phase == CHANCE_DRAW
    rng = random.Random(1)
    s.apply_chance_run(rng)
    assert len(s.display) == 3 and s.phase == DRAW


def test_choice_cashing_is_optional_unless_the_option_says_so(game, rules):
    s = pos(with_options(game, rules, cash_optional=False), [{1: 7}, {5: 7}, {6: 7}], [[(2, [3, 2, 1])]])
    assert s.legal_actions() == [CASH_ACT]
    chk = s.g.checker()
    with pytest.raises(RuleViolation, match="cashing is compulsory"):
        chk.before(s, 0, PASS)


def test_rule_one_pyramid_is_cashed_a_turn(gd3):
    s = pos(gd3, [{1: 7}, {5: 7}, {6: 7}], [[(2, [3, 2, 1]), (5, [2])]], plateau=3)
    s.apply_action(CASH_ACT + 1)
    assert s.phase == DRAW and s.score[0] == 5 and len(s.pyr[0]) == 1


def test_assumed_a_single_row_is_a_pyramid_unless_min_rows_says_otherwise(game, rules, gd3):
    s = pos(gd3, [{1: 7}, {5: 7}, {6: 7}], [[(5, [2])]])
    assert s.phase == CASH
    s = pos(with_options(game, rules, min_rows_to_cash=2), [{1: 7}, {5: 7}, {6: 7}], [[(5, [2])]])
    assert s.phase == DRAW, "nothing to cash: the step is skipped"


def test_rule_from_the_second_special_plateau_only_tall_pyramids_are_cashed(gd3):
    s = pos(gd3, [{1: 7}, {5: 7}, {6: 7}], [[(2, [3, 2]), (5, [3, 2, 1])]], plateau=6)
    assert s.legal_actions() == [PASS, CASH_ACT, CASH_ACT + 1]
    s = pos(gd3, [{1: 7}, {5: 7}, {6: 7}], [[(2, [3, 2]), (5, [3, 2, 1])]], plateau=7)
    assert s.legal_actions() == [PASS, CASH_ACT + 1]
    with pytest.raises(RuleViolation, match="needs 3"):
        s.g.checker().before(s, 0, CASH_ACT)


def test_rule_reaching_the_last_plateau_shuffles_discard_pile_and_end_card(gd3):
    s = pos(gd3, [{1: 7}, {5: 7}, {6: 7}], [[(2, [3, 2, 1])]], plateau=10, discard={7: 4})
    pile_before = s.pile_n
    assert not s.final and s.pile[END] == 0
    s.apply_action(CASH_ACT)
    assert s.plateau == 11 and s.final
    assert s.disc_n == 0 and s.pile[END] == 1 and s.pile_n == pile_before + 4 + 6 + 1
    assert s.pile[7] == gd3.counts[7] - 0, "the discarded 7s are back in the pile"


def test_choice_the_figure_stays_on_the_last_plateau_and_cashing_still_scores(gd3):
    s = pos(gd3, [{1: 7}, {5: 7}, {6: 7}], [[(2, [3, 2, 1])]], plateau=11, final=True)
    s.apply_action(CASH_ACT)
    assert s.plateau == 11 and s.score[0] == 27 and s.pile[END] == 1


def test_rule_drawing_the_end_card_ends_the_game_and_every_pyramid_is_cashed(gd3):
    s = pos(gd3, [{1: 7}, {5: 7}, {6: 7}], [[(2, [3, 2, 1])], [(6, [1])], [(4, [2, 1])]], plateau=11, final=True)
    go_to(s, DRAW)
    draw_pile(s, END)
    assert s.is_terminal() and s.current_player() == TERMINAL
    assert s.score == [27, 6, 18] and not any(s.pyr)
    assert s.returns() == [1.0, 0.0, 0.0]


def test_choice_final_cash_eligible_leaves_short_pyramids(game, rules):
    gd = with_options(game, rules, final_cash="eligible")
    s = pos(gd, [{1: 7}, {5: 7}, {6: 7}], [[(2, [3, 2, 1])], [(6, [1])], [(4, [2, 1])]], plateau=11, final=True)
    go_to(s, DRAW)
    draw_pile(s, END)
    assert s.is_terminal() and s.score == [27, 0, 0]


def test_choice_the_end_card_refilling_the_display_ends_the_game_too(gd3):
    s = pos(gd3, [{1: 7}, {5: 7}, {6: 7}], display=[3, 4, 5], plateau=11, final=True)
    go_to(s, DRAW)
    s.apply_action(TAKE + 4)
    assert s.phase == C_DRAW and s.draw_to == DISPLAY_TARGET
    s.apply_action(END)
    assert s.is_terminal()


# --------------------------------------------------------------------------- step 2: drawing
def test_rule_draw_from_the_pile_or_take_from_the_display(gd3):
    s = pos(gd3, [{1: 6}, {5: 7}, {6: 7}], display=[4, 4, THIEF])
    assert s.phase == DRAW
    assert s.legal_actions() == [PILE, TAKE + 4, TAKE + THIEF], "one action per kind shown"
    s.apply_action(TAKE + THIEF)
    assert s.hands[0][THIEF] == 1 and s.display == [4, 4]
    assert s.phase == C_DRAW and s.draw_to == DISPLAY_TARGET, "ours: the display is refilled at once"
    s.apply_action(9)
    assert s.display == [4, 4, 9] and s.phase == TRADE


def test_rule_a_display_card_can_only_be_taken_if_shown(gd3):
    s = pos(gd3, [{1: 6}, {5: 7}, {6: 7}], display=[4, 4, THIEF])
    with pytest.raises(RuleViolation, match="not in the display"):
        s.g.checker().before(s, 0, TAKE + 9)


def test_choice_an_empty_pile_takes_the_discard_before_the_last_plateau(gd3):
    counts = gd3.counts
    hands = [{1: 7}, {2: 7}, {3: 4}]
    discard = {k: counts[k] for k in range(4, 10)}
    discard[3] = counts[3] - 4
    discard[1], discard[2] = counts[1] - 7, counts[2] - 7
    discard.update({THIEF: 5, TAX: 2, PHARAOH: 3})
    s = pos(gd3, hands, pile={}, discard=discard, active=2)
    assert s.pile_n == 0 and s.disc_n == 87 - 1 - 18
    draw_pile(s, 5)
    assert s.reshuffles == 1 and s.disc_n == 0 and s.pile_n == 87 - 1 - 18 - 1 and s.hands[2][5] == 1


# --------------------------------------------------------------------------- step 3: trading
def test_rule_the_active_player_trades_one_card_for_one(gd3):
    s = pos(gd3, [{1: 6, 2: 1}, {5: 7}, {6: 7}], display=[4, 4, 4])
    draw_pile(s, 9)
    legal = s.legal_actions()
    assert s.phase == TRADE and legal[:2] == [PASS, YES]
    assert {decode_build(a) for a in legal[2:]} == {(NEW, 1, n, 0) for n in range(1, 7)} | {(NEW, 2, 1, 0),
                                                                                                (NEW, 9, 1, 0)}, \
        "ours: the question also offers to stop trading and build at once"
    s.apply_action(YES)
    offers = s.legal_actions()
    assert all(decode_trade(a)[0] in (1, 2) for a in offers), "always with another player"
    assert {decode_trade(a)[1] for a in offers} == {1, 2, 9}, "only cards the player holds"
    s.apply_action(trade_action(1, 2, 5))
    assert s.phase == TRADE_REPLY and s.current_player() == 1 and s.legal_actions() == [DECLINE, ACCEPT]
    s.apply_action(ACCEPT)
    assert s.hands[0][2] == 0 and s.hands[0][5] == 1 and s.hands[1][2] == 1 and s.hands[1][5] == 6
    assert s.hand_n == [8, 7, 7] and s.current_player() == 0 and s.phase == TRADE


def test_rule_a_partner_without_the_card_can_only_decline(gd3):
    s = pos(gd3, [{1: 7}, {5: 7}, {6: 7}], display=[4, 4, 4])
    draw_pile(s, 9)
    s.apply_action(YES)
    s.apply_action(trade_action(2, 1, 8))
    assert s.current_player() == 2 and s.legal_actions() == [DECLINE]
    with pytest.raises(RuleViolation, match="does not hold"):
        s.g.checker().before(s, 2, ACCEPT)


def test_choice_at_most_three_trade_offers_a_turn(gd3):
    s = pos(gd3, [{1: 7}, {5: 7}, {6: 7}], display=[4, 4, 4])
    draw_pile(s, 9)
    first = s.legal_actions()
    for _ in range(3):
        assert s.phase == TRADE and s.legal_actions() == first, "declined: the same question again"
        s.apply_action(YES)
        s.apply_action(trade_action(1, 1, 8))
        s.apply_action(DECLINE)
    assert s.phase != TRADE


def test_choice_the_end_of_trading_and_the_first_build_are_one_decision(gd3):
    """Ours: "no (more) trades" is answered with the turn's first build, or with no building at all;
    after a build no trade may be offered (step 3 comes before step 4)."""
    s = pos(gd3, [{2: 3, 3: 1}, {3: 7}, {6: 7}], display=[1, 1, 1])
    draw_pile(s, 9)
    first = build_action(NEW, 2, 3)
    assert s.phase == TRADE and first in s.legal_actions()
    assert s.action_to_string(first) == "no (more) trades; build 3×2 on a new pyramid"
    s.apply_action(first)
    assert s.phase == BUILD and s.pyr[0] == [(2, (24,))] and YES not in s.legal_actions()
    chk = s.g.checker()
    chk.before(s, 0, build_action(0, 3, 1))
    s.phase = TRADE  # an engine that would ask about trading again
    # the checker's own list of the trade step's choices has none after a build (or, where the
    # step is reached otherwise, the trade itself is refused as coming after building)
    with pytest.raises(RuleViolation, match="after building|offers no \\(more\\) trades.*which the rules forbid"):
        chk.before(s, 0, YES)
    s.phase = TRADE_PICK
    with pytest.raises(RuleViolation, match="after building"):
        chk.before(s, 0, trade_action(1, 9, 3))
    s = pos(gd3, [{2: 3, 3: 1}, {3: 7}, {6: 7}], display=[1, 1, 1])
    draw_pile(s, 9)
    s.apply_action(PASS)
    assert s.phase not in (TRADE, BUILD) and s.pyr[0] == [], "no trades and no building"


def test_choice_trade_none_skips_the_step(game, rules):
    s = pos(with_options(game, rules, trade="none"), [{1: 7}, {5: 7}, {6: 7}], display=[4, 4, 4])
    draw_pile(s, 9)
    assert s.phase == BUILD


# --------------------------------------------------------------------------- step 4: building
def builds_of(s):
    """The builds offered at the first build decision: at the trade question when a trade is possible."""
    go_to(s, TRADE if s.phase == TRADE else BUILD)
    legal = s.legal_actions()
    assert legal[0] == PASS
    return {decode_build(a) for a in legal[1:] if a >= BUILD_ACT}


def test_rule_each_row_has_fewer_cards_than_the_row_below_and_a_value_one_higher(gd3):
    s = pos(gd3, [{3: 3, 4: 3, 6: 1}, {5: 7}, {6: 7}], [[(3, [3])]], plateau=2, display=[1, 1, 1])
    s.apply_action(PASS)  # no cash
    draw_pile(s, 9)
    b = builds_of(s)
    on_top = {(slot, v, n, j) for slot, v, n, j in b if slot == 0 and v == 4}
    assert on_top == {(0, 4, 1, 0), (0, 4, 2, 0)}, "a new row of 4s: fewer cards than the three 3s"
    assert not any(v == 5 or v == 6 for _, v, _, _ in b), "no gap in the values"
    assert (0, 3, 3, 0) in b, "the bottom row may widen (ours)"
    assert not any(slot == NEW for slot, *_ in b), "one pyramid before the first special plateau"
    s.apply_action(build_action(0, 4, 2))
    assert s.pyr[0] == [(3, (24, 16))]
    b = {decode_build(a) for a in s.legal_actions()[1:]}
    assert {(v, n) for _, v, n, _ in b} == {(3, 1), (3, 2), (3, 3)}, "the two 4s cannot widen while the 3s are" \
        " three; no 5s held for a new row"


def test_rule_a_row_as_wide_as_the_row_below_is_not_allowed(gd3):
    s = pos(gd3, [{3: 3, 4: 3}, {5: 7}, {6: 7}], [[(3, [2])]], plateau=2, display=[1, 1, 1])
    s.apply_action(PASS)
    draw_pile(s, 9)
    assert s.phase == TRADE
    chk = s.g.checker()
    with pytest.raises(RuleViolation, match="not fewer than the 2 of the row below"):
        chk.before(s, 0, build_action(0, 4, 2))
    with pytest.raises(RuleViolation, match="without holding them"):
        chk.before(s, 0, build_action(0, 4, 4))


def test_rule_from_the_first_special_plateau_a_second_pyramid(gd3):
    s = pos(gd3, [{3: 3, 7: 3}, {5: 7}, {6: 7}], [[(3, [3])]], plateau=3, display=[1, 1, 1])
    s.apply_action(PASS)
    draw_pile(s, 9)
    b = builds_of(s)
    assert (NEW, 7, 3, 0) in b and (NEW, 9, 1, 0) in b
    s.apply_action(build_action(NEW, 7, 2))
    assert not any(decode_build(a)[0] == NEW for a in s.legal_actions()), "two at most"
    with pytest.raises(RuleViolation, match="the rules allow 2"):
        s.g.checker().before(s, 0, build_action(NEW, 3, 1))


def test_choice_a_turn_may_build_several_times_with_traded_and_hand_cards(gd3):
    s = pos(gd3, [{2: 3, 3: 1, 4: 1}, {3: 7}, {6: 7}], display=[1, 1, 1])
    draw_pile(s, 9)
    s.apply_action(YES)
    s.apply_action(trade_action(1, 9, 3))
    s.apply_action(ACCEPT)
    for a in (build_action(NEW, 2, 3), build_action(0, 3, 2), build_action(0, 4, 1)):
        assert s.phase == (TRADE if a == build_action(NEW, 2, 3) else BUILD), "ours: no more trades: build"
        assert a in s.legal_actions()
        s.apply_action(a)
    assert s.pyr[0] == [(2, (24, 16, 8))] and pyramid_value(s.pyr[0][0]) == 27


# --------------------------------------------------------------------------- step 5: thief and tax collector
def thief_at(gd, target_pyr, roll, thief_hand=None, owner_hand=None, **kw):
    s = pos(gd, [thief_hand or {THIEF: 1, 1: 6}, owner_hand or {5: 7}, {6: 7}], [[], [target_pyr]],
            display=[1, 1, 1], **kw)
    draw_pile(s, 9)
    go_to(s, ATTACK)
    s.apply_action(THIEF_ACT + 2 * 1 + 0)
    assert s.phase == BLOCK and s.current_player() == 1, "the owner is always asked"
    if s.hands[1][PHARAOH]:
        return s
    assert s.legal_actions() == [ALLOW]
    s.apply_action(ALLOW)
    assert s.phase == C_DIE and s.chance_outcomes() == [(r, 1 / 6) for r in range(1, 7)]
    s.apply_action(roll)
    return s


def test_rule_a_thief_needs_a_roll_higher_than_the_height(gd3):
    s = thief_at(gd3, (2, [3, 2, 1]), 3)
    assert s.pyr[1] == [(2, (24, 16, 8))] and s.phase != STEAL and s.hands[0][THIEF] == 0
    s = thief_at(gd3, (2, [3, 2, 1]), 4)
    assert s.phase == STEAL and s.current_player() == 0
    assert s.legal_actions() == [STEAL_ACT, STEAL_ACT + 2, STEAL_ACT + 4]


def test_rule_the_stolen_card_goes_to_the_thiefs_hand(gd3):
    s = thief_at(gd3, (2, [3, 2, 1]), 5)
    s.apply_action(STEAL_ACT + 4)  # the top card
    assert s.pyr[1] == [(2, (24, 16))] and s.hands[0][4] == 1 and s.thefts == 1 and s.collapses == 0


def test_rule_a_pyramid_that_breaks_the_rules_collapses_into_its_owners_hand(gd3):
    s = thief_at(gd3, (2, [3, 2, 1]), 6, owner_hand={5: 1})
    s.apply_action(STEAL_ACT + 2)  # a 3 from the middle: 3 / 1 / 1 no longer narrows
    assert s.pyr[1] == [] and s.collapses == 1
    assert s.hands[1][2] == 3 and s.hands[1][3] == 1 and s.hands[1][4] == 1 and s.hand_n[1] == 6
    assert s.hands[0][3] == 1


def test_rule_the_owner_of_a_collapsed_pyramid_discards_down_to_seven(gd3):
    s = thief_at(gd3, (2, [3, 2, 1]), 6, owner_hand={5: 5})
    s.apply_action(STEAL_ACT)  # a 2 from the bottom: 2 / 2 / 1
    assert s.hand_n[1] == 10 and s.phase == LOSS_DISCARD and s.current_player() == 1
    for _ in range(3):
        s.apply_action(DISCARD + 5)
    assert s.hand_n[1] == 7 and s.discard[5] == 3 and s.current_player() == 0


def test_rule_a_pharaoh_blocks_a_thief(gd3):
    s = thief_at(gd3, (2, [3, 2, 1]), 6, owner_hand={PHARAOH: 1, 5: 6})
    assert s.phase == BLOCK and s.current_player() == 1 and s.legal_actions() == [ALLOW, BLOCK_ACT]
    s.apply_action(BLOCK_ACT)
    assert s.hands[1][PHARAOH] == 0 and s.discard[PHARAOH] == 1 and s.discard[THIEF] == 1
    assert s.pyr[1] == [(2, (24, 16, 8))] and s.thefts == 0 and s.turn == 1, "no die roll; the turn goes on"


def test_rule_the_tax_collector_takes_a_card_from_every_other_player(gd4):
    s = pos(gd4, [{TAX: 1, 1: 6}, {5: 7}, {}, {6: 2, 7: 1}], display=[1, 1, 1])
    draw_pile(s, 9)
    go_to(s, ATTACK)
    assert TAX_ACT in s.legal_actions()
    s.apply_action(TAX_ACT)
    assert s.phase == TAX_BLOCK and s.current_player() == 1 and s.legal_actions() == [ALLOW]
    s.apply_action(ALLOW)
    assert s.phase == C_TAX and s.chance_outcomes() == [(5, 1.0)]
    s.apply_action(5)
    assert s.phase == TAX_BLOCK and s.current_player() == 3, "seat 3 has no card: skipped"
    s.apply_action(ALLOW)
    assert s.chance_outcomes() == [(6, 2 / 3), (7, 1 / 3)], "a random card: the taker cannot see the hand"
    s.apply_action(7)
    assert s.hand_n == [9, 6, 0, 2] and s.hands[0][5] == 1 and s.hands[0][7] == 1
    assert s.phase == END_DISCARD, "then down to seven"


def test_rule_each_player_may_block_the_tax_collector_with_a_pharaoh(game, rules, gd3):
    s = pos(gd3, [{TAX: 1, 1: 6}, {PHARAOH: 1, 5: 6}, {6: 7}], display=[1, 1, 1])
    draw_pile(s, 9)
    go_to(s, ATTACK)
    s.apply_action(TAX_ACT)
    assert s.phase == TAX_BLOCK and s.current_player() == 1
    s.apply_action(BLOCK_ACT)
    assert s.phase == TAX_BLOCK and s.tax_queue == [2] and s.current_player() == 2, "seat 3 still pays"
    s.apply_action(ALLOW)
    assert s.phase == C_TAX
    s = pos(with_options(game, rules, pharaoh_blocks_each=False), [{TAX: 1, 1: 6}, {PHARAOH: 1, 5: 6}, {6: 7}],
            display=[1, 1, 1])
    draw_pile(s, 9)
    go_to(s, ATTACK)
    s.apply_action(TAX_ACT)
    s.apply_action(BLOCK_ACT)
    assert s.phase != C_TAX and s.hand_n == [7, 6, 7], "one Pharaoh stops the whole tax"


def test_assumed_one_thief_or_tax_collector_a_turn(game, rules, gd3):
    s = pos(gd3, [{TAX: 1, THIEF: 1, 1: 5}, {5: 7}, {6: 7}], [[], [(5, [1])]], display=[1, 1, 1])
    draw_pile(s, 9)
    go_to(s, ATTACK)
    for a in (TAX_ACT, ALLOW, 5, ALLOW, 6):
        s.apply_action(a)
    assert s.phase == END_DISCARD
    s = pos(with_options(game, rules, one_attack_per_turn=False), [{TAX: 1, THIEF: 1, 1: 5}, {5: 7}, {6: 7}],
            [[], [(5, [1])]], display=[1, 1, 1])
    draw_pile(s, 9)
    go_to(s, ATTACK)
    for a in (TAX_ACT, ALLOW, 5, ALLOW, 6):
        s.apply_action(a)
    assert s.phase == ATTACK and THIEF_ACT + 2 in s.legal_actions()


def test_choice_thief_takes_random_is_a_chance_step(game, rules):
    gd = with_options(game, rules, thief_takes="random")
    s = thief_at(gd, (2, [3, 2, 1]), 6)
    assert s.phase == C_STEAL
    assert s.chance_outcomes() == [(STEAL_ACT, 0.5), (STEAL_ACT + 2, 1 / 3), (STEAL_ACT + 4, 1 / 6)]


# --------------------------------------------------------------------------- step 6: back to seven
def test_rule_the_hand_is_refilled_to_seven_at_the_end_of_the_turn(gd3):
    s = pos(gd3, [{3: 3, 4: 2, 5: 1}, {5: 7}, {6: 7}], display=[1, 1, 1])
    draw_pile(s, 9)
    s.apply_action(build_action(NEW, 3, 3))  # no trades: build
    for a in (build_action(0, 4, 2), build_action(0, 5, 1)):
        s.apply_action(a)
    assert s.hand_n[0] == 1 and s.phase == C_DRAW and s.draw_left == 6 and s.draw_to == 0
    s.apply_chance_run(random.Random(1))
    assert s.hand_n[0] == 7 and s.active == 1 and s.turn == 1


def test_rule_extra_cards_are_discarded_down_to_seven(gd3):
    s = pos(gd3, [{1: 7}, {5: 7}, {6: 7}], display=[1, 1, 1])
    draw_pile(s, 9)
    go_to(s, END_DISCARD)
    assert s.legal_actions() == [DISCARD + 1, DISCARD + 9]
    s.apply_action(DISCARD + 9)
    assert s.hand_n[0] == 7 and s.active == 1 and s.discard[9] == 1


def test_choice_a_turn_with_nothing_to_do_is_one_pass(gd3):
    s = pos(gd3, [{}, {1: 1}, {}], [[], [], [(9, [1])]], pile={}, discard={}, active=0)
    assert s.phase == IDLE and s.legal_actions() == [PASS]
    s.apply_action(PASS)
    assert s.turn == 1 and s.active == 1


# --------------------------------------------------------------------------- hidden information and chance
def test_an_observation_shows_only_the_players_own_hand(gd3):
    s = pos(gd3, [{1: 7}, {5: 7}, {THIEF: 2, 6: 5}], [[(2, [3, 2, 1])]], display=[4, 4, 4])
    obs = s.observation(1).public()
    assert obs["hand"][5] == 7 and sum(obs["hand"]) == 7
    assert obs["hand_sizes"] == (7, 7, 7) and obs["pyramids"][0] == ((2, (24, 16, 8)),)
    flat = repr(obs)
    assert "THIEF" not in flat and all(k not in obs for k in ("hands", "pile"))
    assert obs["pile_size"] == s.pile_n


def test_greedy_choices_depend_only_on_what_the_player_sees(gd3):
    """Two positions equal for seat 1 but with different hidden cards (seat 2's hand,
    the order of the pile): the greedy player chooses alike at every decision."""
    a = pos(gd3, [{3: 3, 4: 2, 5: 1, 9: 1}, {5: 7}, {6: 7}], display=[1, 1, 1])
    b = pos(gd3, [{3: 3, 4: 2, 5: 1, 9: 1}, {PHARAOH: 3, 7: 4}, {THIEF: 2, 2: 5}], display=[1, 1, 1])
    ga, gb = GreedyAgent(gd3, 0), GreedyAgent(gd3, 0)
    ra, rb = random.Random(3), random.Random(3)
    while a.active == 0 and b.active == 0:
        if a.current_player() == CHANCE:
            assert b.current_player() == CHANCE
            a.apply_action(9)
            b.apply_action(9)
            continue
        assert a.current_player() == b.current_player() == 0
        xa = ga.act(a.observation(0), a.legal_actions(), ra)
        xb = gb.act(b.observation(0), b.legal_actions(), rb)
        assert xa == xb
        a.apply_action(xa)
        b.apply_action(xb)
    assert a.pyr[0] == b.pyr[0] and a.pyr[0], "it built"


def test_chance_draws_are_uniform_over_the_pile(gd3):
    s = pos(gd3, [{1: 7}, {5: 7}, {6: 7}], display=[4, 4, 4])
    s.apply_action(PILE)
    out = dict(s.chance_outcomes())
    assert abs(sum(out.values()) - 1) < 1e-9
    assert out[9] == pytest.approx(3 / s.pile_n) and out[2] == pytest.approx(12 / s.pile_n) and END not in out


def test_the_fast_chance_path_draws_exactly_like_the_step_by_step_path(gd4):
    a, b = gd4.new_initial_state(), gd4.new_initial_state()
    ra, rb = random.Random(9), random.Random(9)
    a.apply_chance_run(ra)
    while b.current_player() == CHANCE:
        b.apply_action(b.sample_chance(rb))
    assert a.hands == b.hands and a.display == b.display and ra.random() == rb.random()


def test_the_fast_chance_path_says_each_draw_on_the_state_just_before_it(gd4):
    """The chance test reads each draw of a run on the state itself (``before``): what it
    sees there must be what the step-by-step path shows at that draw, over whole games
    (the deal, the die, the tax collector's pick, a theft, reshuffles), and the run with
    ``before`` must draw and end exactly like the run without."""
    phases = set()
    for seed in range(6):
        a, b = gd4.new_initial_state(), gd4.new_initial_state()
        ra, rb, pick = random.Random(seed), random.Random(seed), random.Random(100 + seed)
        while not a.is_terminal():
            if a.current_player() == CHANCE:
                seen: list = []
                drawn = a.apply_chance_run(ra, before=lambda x, s=a, seen=seen: seen.append(
                    (x, s.chance_outcomes(), s.phase)))
                steps = []
                while b.current_player() == CHANCE:
                    x = b.sample_chance(rb)
                    steps.append((x, b.chance_outcomes(), b.phase))
                    b.apply_action(x)
                assert seen == steps and drawn == [x for x, _, _ in steps]
                phases.update(ph for _, _, ph in steps)
            else:
                x = pick.choice(a.legal_actions())
                a.apply_action(x)
                b.apply_action(x)
            assert a.hands == b.hands and a.pile == b.pile and a.display == b.display
        assert b.is_terminal() and a.returns() == b.returns()
    assert len(phases) >= 2, "the games drew more than one kind of chance step"


def test_clone_is_independent(gd3):
    s = pos(gd3, [{3: 3, 4: 2}, {5: 7}, {6: 7}], display=[1, 1, 1])
    c = s.clone()
    draw_pile(c, 9)
    c.apply_action(build_action(NEW, 3, 3))  # no trades: build
    assert s.pyr[0] == [] and s.hands[0][3] == 3 and s.phase == DRAW
    assert c.pyr[0] == [(3, (24,))]


# --------------------------------------------------------------------------- the checker
def test_checker_notices_a_lost_card(gd3):
    s = pos(gd3, [{1: 7}, {5: 7}, {6: 7}], display=[4, 4, 4])
    chk = gd3.checker()
    chk.after(s, True)
    s.hands[1][5] -= 1
    s.hand_n[1] -= 1
    with pytest.raises(RuleViolation, match="the cards add up to 86, not 87"):
        chk.after(s, True)


def test_checker_notices_a_card_of_the_wrong_kind(gd3):
    s = pos(gd3, [{1: 7}, {5: 7}, {6: 7}], display=[4, 4, 4])
    chk = gd3.checker()
    s.hands[1][5] -= 1
    s.hands[1][THIEF] += 1
    chk.after(s, False)  # the cheap check counts cards, not kinds
    with pytest.raises(RuleViolation, match="8 build-5 card\\(s\\) in play; the deck has 9"):
        chk.conservation(s)


def test_checker_notices_a_hand_that_does_not_hold_its_count(gd3):
    s = pos(gd3, [{1: 7}, {5: 7}, {6: 7}])
    chk = gd3.checker()
    chk.conservation(s)
    s.hands[2][6] -= 1
    s.hands[2][THIEF] += 1  # the hand holds seven cards but counts six
    s.hand_n[2] -= 1
    s.pile_n += 1
    s.pile[6] += 1
    with pytest.raises(RuleViolation, match="seat 3's hand .* does not hold its 6 cards"):
        chk.conservation(s)


def test_checker_notices_a_pyramid_that_breaks_the_rules(gd3):
    s = pos(gd3, [{1: 7}, {5: 7}, {6: 7}], [[(2, [3, 2, 1])]])
    chk = gd3.checker()
    s.pyr[0][0] = (2, (24, 24))  # the 4 on top moved into the row of 3s: cards still add up
    s.pile[4] += 1
    s.pile[3] -= 1
    with pytest.raises(RuleViolation, match="row 2 has 3 cards, not fewer than the 3 of the row below"):
        chk.conservation(s)
    with pytest.raises(RuleViolation, match="breaks the rules: row 2 has 3 cards"):
        chk.after(s, False)  # at every step too


def test_checker_judges_a_pyramid_again_when_it_changes_after_a_good_step(gd3):
    """The per-step check judges only the seats whose pyramids changed: a change is still caught."""
    s = pos(gd3, [{1: 7}, {5: 7}, {6: 7}], [[(2, [3, 2, 1])], [(5, [2])]])
    chk = gd3.checker()
    chk.after(s, False)
    chk.after(s, False)  # unchanged: nothing to judge again
    s.pyr[1][0] = (5, (16, 8))  # a 6 on top: the cards no longer add up
    with pytest.raises(RuleViolation, match="add up to 88"):
        chk.after(s, False)
    s.pile[6] -= 1
    s.pile_n -= 1
    chk.after(s, False)
    s.pyr[0][0] = (2, (24, 24))  # the 4 on top moved into the row of 3s: cards still add up
    s.pile[4] += 1
    s.pile[3] -= 1
    with pytest.raises(RuleViolation, match="breaks the rules: row 2 has 3 cards"):
        chk.after(s, False)


def test_checker_notices_scores_and_the_figure_moving_without_a_cash(gd3):
    s = pos(gd3, [{1: 7}, {5: 7}, {6: 7}])
    chk = gd3.checker()
    chk.after(s, False)
    s.score[1] += 5
    with pytest.raises(RuleViolation, match="the scores changed without a cash"):
        chk.after(s, False)
    s.score[1] -= 5
    s.plateau = 2
    with pytest.raises(RuleViolation, match="the figure moved from plateau 1 to 2 without a cash"):
        chk.after(s, False)


def test_checker_notices_the_figure_off_the_track_and_an_early_end_card(gd3):
    s = pos(gd3, [{1: 7}, {5: 7}, {6: 7}])
    chk = gd3.checker()
    s.plateau = 12
    with pytest.raises(RuleViolation, match="off the track"):
        chk.conservation(s)
    s = pos(gd3, [{1: 7}, {5: 7}, {6: 7}], plateau=5)
    s.pile[END] += 1
    s.pile_n += 1
    s.end_out -= 1
    with pytest.raises(RuleViolation, match="End card is in the pile before the last plateau"):
        chk.conservation(s)


def test_checker_notices_a_hand_above_seven_out_of_turn(gd3):
    s = pos(gd3, [{1: 7}, {5: 7}, {6: 7}])
    s.hands[2][6] += 1
    s.hand_n[2] += 1
    s.pile[6] -= 1
    s.pile_n -= 1
    with pytest.raises(RuleViolation, match="seat 3 holds 8 cards out of turn"):
        gd3.checker().after(s, False)


def test_checker_notices_a_wrong_score(gd3, monkeypatch):
    s = pos(gd3, [{1: 7}, {5: 7}, {6: 7}], [[(2, [3, 2, 1])]], plateau=4)
    chk = gd3.checker()
    chk.plateau = 4
    chk.before(s, 0, CASH_ACT)
    monkeypatch.setattr("cardgen.rules.farao.state.pyramid_value", lambda pyr: 26)  # the engine scores wrong
    s.apply_action(CASH_ACT)
    with pytest.raises(RuleViolation, match="scored 26 for a pyramid worth 27"):
        chk.after(s, False)


def test_an_injected_rule_bug_is_reported_with_its_seed(gd3, monkeypatch):
    def no_collapse(self, action):  # a broken thief: the pyramid keeps its shape
        q, slot = self.target
        self.target = None
        base, rows = self.pyr[q][slot]
        row = (action - STEAL_ACT) // 2
        self.pyr[q][slot] = (base, rows[:row] + (rows[row] - 8,) + rows[row + 1:])
        self._gain(self.active, base + row)
        self._to_attack()

    monkeypatch.setattr(FaraoState, "_steal", no_collapse)
    bad = [out for seed in range(1, 40) if (out := play_game(gd3, GreedyAgent, seed, check_every=1)).status
           != "ok"]
    assert bad and bad[0].status == "failure", bad
    assert "breaks the rules" in bad[0].message or "pyramid" in bad[0].message, bad[0].message


# --------------------------------------------------------------------------- whole games
@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("kind", ["random", "greedy"])
def test_seeded_whole_games_pass_every_check(game, rules, players, kind):
    gd = rules.load(game, players)
    res = run_config(gd, rules.agents[kind], kind, True, 6, 1, check_every=1)
    assert res.failure_count == 0, res.failures[0].message
    assert res.completed == 6 and not res.nonterminating


@pytest.mark.parametrize("options", [
    FaraoOptions(cash_optional=False, min_rows_to_cash=2, thief_takes="random"),
    FaraoOptions(trade="none", one_attack_per_turn=False, pharaoh_blocks_each=False, final_cash="eligible"),
    FaraoOptions(jokers=True, trade_offers=1),
])
def test_every_option_plays_through_every_check(game, rules, options):
    gd = rules.load(game, 3, options=options)
    for kind in ("random", "greedy"):
        res = run_config(gd, rules.agents[kind], kind, True, 4, 100, check_every=1)
        assert res.failure_count == 0, (options, kind, res.failures[0].message)
        assert res.completed == 4


def test_jokers_are_played_as_wild_cards_of_their_row(game, rules):
    gd = with_options(game, rules, jokers=True)
    assert gd.total == 90 and gd.counts[JOKER] == 3
    s = pos(gd, [{3: 2, JOKER: 2}, {5: 7}, {6: 7}], display=[1, 1, 1])
    b = builds_of_after_draw(s)
    assert (NEW, 3, 2, 2) in b and (NEW, 3, 1, 1) in b
    assert not any(v == 4 for _, v, _, _ in b), "a Joker never stands alone in a row"
    s.apply_action(build_action(NEW, 3, 2, 1))
    assert s.pyr[0] == [(3, ((3 << 3) + 1,))] and pyramid_value(s.pyr[0][0]) == 3


def test_a_game_loaded_with_the_joker_variant_plays_its_jokers(game, rules):
    from types import SimpleNamespace

    assert rules.options(game).jokers is False
    with_variant = SimpleNamespace(data=game.data, variants=("jokers",))
    assert rules.options(with_variant).jokers is True


def builds_of_after_draw(s):
    draw_pile(s, 9)
    return builds_of(s)


def test_a_seed_replays_the_same_game(gd4):
    a = play_game(gd4, GreedyAgent, 42)
    b = play_game(gd4, GreedyAgent, 42)
    assert a.status == b.status == "ok" and (a.steps, a.length, a.winners) == (b.steps, b.length, b.winners)


def test_figures_report_scores_and_every_cashed_pyramid(gd3):
    rng = random.Random(7)
    s = gd3.new_initial_state()
    agents = [GreedyAgent(gd3, q) for q in range(3)]
    while not s.is_terminal():
        p = s.current_player()
        if p == CHANCE:
            s.apply_chance_run(rng)
        else:
            s.apply_action(agents[p].act(s.observation(p), s.legal_actions(), rng))
    f = s.figures()
    assert f["score"] == [float(x) for x in s.score]
    assert sum(f["pyramid_value"]) == sum(s.score), "every point comes from a cashed pyramid"
    assert f["pyramids_cashed"] == len(f["pyramid_value"]) >= 10, "ten cashes bring the figure to the last plateau"
    assert f["turns"] == s.turn > 0


def test_greedy_beats_random(gd3):
    def mixed(gd, seat):
        return GreedyAgent(gd, seat) if seat == 0 else RandomAgent(gd, seat)

    res = run_config(gd3, mixed, "mixed", True, 100, 1)
    assert res.failure_count == 0
    assert res.wins[0] > 0.55 * 100, res.wins  # a fair share would be a third


def test_greedy_builds_the_tallest_pyramid_its_hand_allows(gd3):
    s = pos(gd3, [{2: 3, 3: 2, 4: 1, 9: 1}, {5: 7}, {6: 7}], display=[1, 1, 1])
    g = GreedyAgent(gd3, 0)
    rng = random.Random(1)
    while s.active == 0 and s.phase != ATTACK:
        if s.current_player() == CHANCE:
            s.apply_action(1)
        else:
            s.apply_action(g.act(s.observation(0), s.legal_actions(), rng))
    assert s.pyr[0] == [(2, (24, 16, 8))], s.pyr[0]


def test_greedy_steals_from_the_most_valuable_pyramid_it_can_and_collapses_it(gd3):
    s = pos(gd3, [{THIEF: 1, 1: 6}, {5: 4}, {6: 4}], [[], [(2, [3, 2, 1]), (1, [1])], [(3, [4, 3, 2, 1])]],
            plateau=3, display=[1, 1, 1])
    g = GreedyAgent(gd3, 0)
    rng = random.Random(1)
    draw_pile(s, 9)
    go_to(s, ATTACK)
    a = g.act(s.observation(0), s.legal_actions(), rng)
    assert a == THIEF_ACT + 2 * 2, "seat 3's pyramid, worth 72, is the most valuable one a 5 or 6 robs"
    s.apply_action(a)
    s.apply_action(ALLOW)
    s.apply_action(6)
    a = g.act(s.observation(0), s.legal_actions(), rng)
    s.apply_action(a)
    assert s.collapses == 1 and s.pyr[2] == [] and s.hand_n[2] == 4 + 9


# --------------------------------------------------------------------------- the deck check (mutations)
def edit_data(folder: Path, pattern: str, repl: str) -> None:
    """Change one entry of the game's data by a regular expression that must match exactly
    once (entries may carry the kit's art fields after their count)."""
    path = folder / "game.yaml"
    text, n = re.subn(pattern, repl, path.read_text(encoding="utf-8"), flags=re.M)
    assert n == 1, f"{pattern!r} matched {n} time(s) in {path}"
    path.write_text(text, encoding="utf-8")


def test_static_spec_quantities_and_key_of_are_generic(scenario):
    """The StaticSpec extension on a game that is not O, Farao!: copies per key, keys
    computed from the fields, and where a wrong count points."""
    from cardgen.base.errors import Where
    from cardgen.rules.api import StaticSpec

    g = load_game(scenario("mini_game"))  # card-1, card-2, card-3 once each, joker twice

    def key_of(fields):
        return ("number", fields["n"]) if "n" in fields else ("joker",)

    def spec(quantities, where_of=None):
        return StaticSpec(component="cards", key_fields=(), expected=tuple(quantities), name=str,
                          expected_text="three numbers and jokers", quantities=quantities, key_of=key_of,
                          where_of=where_of)

    ok = check_static(g, spec({("number", 1): 1, ("number", 2): 1, ("number", 3): 1, ("joker",): 2}),
                      g.data_marks)
    assert ok.problems == [] and ok.passed[0].startswith("5 cards in deck 'cards'")
    bad = check_static(g, spec({("number", 1): 1, ("number", 2): 1, ("number", 3): 1, ("joker",): 3},
                               lambda key: Where("here.yaml", 7, 1)), g.data_marks)
    assert [str(p) for p in bad.problems] == ["here.yaml:7:1: card ('joker',) is printed 2 times as 'joker'"
                                              " (quantity 2); the rules need 3"]
    assert not bad.deck_ok


def test_mutation_the_shipped_data_passes(farao_copy):
    assert problems_of(farao_copy) == []


def test_mutation_a_deleted_value_is_named(farao_copy):
    edit_data(farao_copy, r"^ +- \{value: 9, count: 3\b.*\n", "")
    problems = problems_of(farao_copy)
    assert len(problems) == 1, problems
    assert re.match(r".*game\.yaml:\d+:\d+: card build-9 is missing from deck 'cards': the rules need 3 of it",
                    problems[0]), problems[0]


def test_mutation_a_changed_count_is_named(farao_copy):
    edit_data(farao_copy, r"\{value: 3, count: 11\b", "{value: 3, count: 10")
    problems = problems_of(farao_copy)
    assert len(problems) == 1, problems
    assert "card build-3 is printed 10 times as 'build-3' (quantity 10); the rules need 11" in problems[0]
    line = int(problems[0].split(":")[1])
    assert "{value: 3, count: 10" in (farao_copy / "game.yaml").read_text(encoding="utf-8").splitlines()[line - 1], \
        "it points at the count in the data"


def test_mutation_a_dropped_special_is_named(farao_copy):
    edit_data(farao_copy, r"^ +- \{id: pharaoh, count: 3\b.*\n", "")
    problems = problems_of(farao_copy)
    assert len(problems) == 1 and "card pharaoh is missing from deck 'cards': the rules need 3 of it" in problems[0]


def test_mutation_a_card_the_rules_do_not_know_is_named(farao_copy):
    edit_data(farao_copy, r"^( +)- (\{value: 9, count: 3\b.*\n)", r"\1- \2\1- {value: 10, count: 2}\n")
    problems = problems_of(farao_copy)
    assert len(problems) == 1 and "card 'build-10' (build-10) is not one the rules use" in problems[0]


def test_mutation_a_second_end_card_is_named(farao_copy):
    edit_data(farao_copy, r"\{id: end, count: 1\b", "{id: end, count: 2")
    problems = problems_of(farao_copy)
    assert len(problems) == 1 and "card 'end' is printed 2 times (quantity 2); the rules need end once" in problems[0]


@pytest.mark.parametrize("old,new,message", [
    ("plateaus: 11", "plateaus: 12", "board.plateaus is 12; the rules have 11 plateaus"),
    ("tall_only_from: 7", "tall_only_from: 3", "board.tall_only_from (3) must come after board.double_from (3)"),
    ("double_from: 3 ", "double_from: 1 ", "board.double_from must be a plateau from 2 to 10, found 1"),
    ("hand_limit: 7", "hand_limit: 8", "'hand_limit' is 8; the rules say 7"),
    ("display: 3 ", "display: 4 ", "'display' is 4; the rules say 3"),
    ("die: 6 ", "die: six ", "'die' must be the number of sides of the die (2 to 20), found 'six'"),
    ("trade: one_for_one", "trade: two_for_one", "rule option 'trade' must be one of one_for_one, none, found"
                                                 " 'two_for_one'"),
    ("cash_optional: true", "cash_optional: maybe", "rule option 'cash_optional' must be true or false"),
    ("min_rows_to_cash: 1", "min_rows_to_cash: 0", "rule option 'min_rows_to_cash' must be a whole number from 1 to 9"),
    ("joker: wild_in_row", "joker: anything", "rule option 'joker' must be one of wild_in_row"),
    ("final_cash: all", "final_cash: all\n    bribes: true", "unknown rule option 'bribes'"),
])
def test_mutation_board_and_house_rules_are_checked_at_their_line(farao_copy, old, new, message):
    edit_file(farao_copy / "game.yaml", old, new)
    problems = problems_of(farao_copy)
    assert len(problems) == 1 and message in problems[0], problems
    line = int(problems[0].split(":")[1])
    text = (farao_copy / "game.yaml").read_text(encoding="utf-8").splitlines()[line - 1]
    assert new.split("\n")[-1].strip().split(":")[0] in text, (line, text)


def test_mutation_jokers_on_without_variant_cards_is_named(farao_copy):
    edit_data(farao_copy, r"\{id: joker, ", "{id: jester, ")  # no joker left among the variant cards
    edit_file(farao_copy / "game.yaml", "final_cash: all", "final_cash: all\n    jokers: true")
    problems = problems_of(farao_copy)
    assert len(problems) == 1 and "rule option 'jokers' is on, but 'variant_cards' has no 'joker'" in problems[0]


def test_mutation_deck_problems_fail_validate_and_skip_the_games(farao_copy, cli):
    edit_data(farao_copy, r"\{id: thief, count: 5\b", "{id: thief, count: 4")
    r = cli("validate", farao_copy, "--games", "2")
    assert r.exit_code == 1
    assert "card thief is printed 4 times as 'thief' (quantity 4); the rules need 5" in r.stdout
    assert "Play: FAILED — the deck does not match the rules" in r.stdout


def test_cli_validate_farao_passes(cli):
    r = cli("validate", "farao", "--games", "3")
    assert r.exit_code == 0, r.stdout
    assert "87 cards in deck 'cards' = 76 building cards" in r.stdout
    assert re.search(r"standard\s+4\s+greedy\s+3\s+100%", r.stdout), r.stdout


def test_house_rule_steal_compulsory_or_optional(game, rules, gd3):
    """Step 5: after a roll higher than the pyramid's height the Thief *may* steal a card
    (the Dutch text says "mag"). Our default house rule (steal: compulsory) always takes
    one; steal: optional lets the Thief's player take nothing, and the checker holds each
    reading."""
    s = thief_at(gd3, (2, [3, 2, 1]), 4)
    assert PASS not in s.legal_actions()
    with pytest.raises(RuleViolation, match="house rules make the theft compulsory"):
        gd3.checker().before(s, 0, PASS)
    free = with_options(game, rules, steal="optional")
    s = thief_at(free, (2, [3, 2, 1]), 4)
    assert s.phase == STEAL and s.legal_actions()[0] == PASS
    free.checker().before(s, 0, PASS)
    s.apply_action(PASS)
    assert s.pyr[1] == [(2, (24, 16, 8))] and s.thefts == 0 and s.phase != STEAL


def test_house_rule_steal_optional_needs_the_thiefs_player_to_choose(tmp_path, cli):
    from conftest import copy_shipped, edit_file

    folder = copy_shipped("farao", tmp_path)
    edit_file(folder / "game.yaml", "steal: compulsory", "steal: optional")
    edit_file(folder / "game.yaml", "thief_takes: any", "thief_takes: random")
    r = cli("validate", folder, "--games", 1, "--jobs", 1)
    assert r.exit_code == 1 and "'steal: optional' needs 'thief_takes: any'" in r.stdout, r.output
