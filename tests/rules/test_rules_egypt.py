"""The Egypt rules engine: one test per rule of the rulebook (a constructed position
where the rule decides the outcome), our named choices where the rulebook is silent,
hidden information, the checker, the agents, seeded whole games, and the deck check
against mutated copies of the game's data."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
import yaml
from conftest import edit_file, problems_of

from cardgen.load.game import load_game
from cardgen.rules import CHANCE, TERMINAL, RuleViolation, rules_for
from cardgen.rules.api import RandomAgent, player_rng
from cardgen.rules.egypt import rulebook
from cardgen.rules.egypt.agents import GreedyAgent
from cardgen.rules.egypt.bits import CBIT, CSIG, counts_tuple, mask_cards
from cardgen.rules.egypt.checker import EgyptChecker
from cardgen.rules.egypt.codec import (
    COMBO,
    DISCARD_BASE,
    PASS,
    VICTIM_BASE,
    combo_action,
    decode_discard,
    decode_meld,
    discard_action,
    meld_action,
)
from cardgen.rules.egypt.figures import play_statistics
from cardgen.rules.egypt.game import EgyptGame
from cardgen.rules.egypt.spec import (
    COMBO_IDS,
    CONTROL,
    COPIES,
    DISCARD,
    DRAW,
    DYNASTY,
    EV_COMBO,
    EV_CONTROL,
    EV_MELD,
    EV_RESHUFFLE,
    EV_STEAL,
    EV_TURN,
    N_CARDS,
    NTYPES,
    OVER,
    STEAL,
    TURNS,
    TYPE_IDS,
    VICTIM,
    EgyptOptions,
)
from cardgen.rules.egypt.state import EgyptState
from cardgen.validation.simulate import play_game, run_config
from cardgen.validation.static import check_static

T = {tid: k for k, tid in enumerate(TYPE_IDS)}
HIE, SLA, NIL, TEM, CHA, PHA, PYR, GOD, ANK = range(9)


@pytest.fixture(scope="module")
def game():
    return load_game("egypt")


@pytest.fixture(scope="module")
def rules():
    return rules_for("egypt")


@pytest.fixture(scope="module")
def gd2(game, rules):
    return rules.load(game, 2)


@pytest.fixture(scope="module")
def gd3(game, rules):
    return rules.load(game, 3)


class Cards:
    """Hands out distinct copies of each type for constructed positions."""

    def __init__(self):
        self.next = [0] * NTYPES

    def __call__(self, *types: int) -> list[int]:
        out = []
        for t in types:
            assert self.next[t] < COPIES, f"more than 7 cards of type {t}"
            out.append(t * COPIES + self.next[t])
            self.next[t] += 1
        return out


def meld(t: int, nat: int, ank: int = 0) -> int:
    return meld_action(t, nat, ank)


def reveal_all(s: EgyptState, *actions: int) -> None:
    """Apply each seat's reveal in turn (seats without any meld are skipped by the engine)."""
    for a in actions:
        if s.phase != CONTROL:
            break
        assert a in s.legal_actions(), (s.player, EgyptGame.describe(s.g, a), s.legal_actions())
        s.apply_action(a)


def drain_chance(s: EgyptState, seed: int = 1) -> None:
    rng = random.Random(seed)
    while s.current_player() == CHANCE:
        s.apply_action(s.sample_chance(rng))


def dealt(gd) -> tuple[EgyptState, EgyptChecker]:
    """A state after the first deal and a checker that has checked it in full once."""
    s = gd.new_initial_state()
    drain_chance(s)
    chk = gd.checker()
    chk.conservation(s)
    return s, chk


# --------------------------------------------------------------------------- the deck
def test_rule_the_deck_is_nine_types_of_seven_with_the_rulebook_values(game, rules):
    spec = rules.static_spec(game, game.data_marks)
    assert len(spec.expected) == 63 == 9 * 7
    values = {ty["id"]: ty["value"] for ty in game.data["types"]}
    assert values == {"hieroglyph": 0, "slaves": 1, "nile": 2, "temples": 3, "chariots": 4, "pharaohs": 5,
                      "pyramid": 6, "gods": 7, "ankh": "wild"}
    assert game.component("cards").count == 63
    res = check_static(game, spec, game.data_marks)
    assert res.ok, res.problems


def test_rule_the_hieroglyph_cards_each_show_a_different_hieroglyph(game):
    hier = next(ty for ty in game.data["types"] if ty["id"] == "hieroglyph")
    glyphs = [v["glyph"] for v in hier["variants"]]
    assert len(set(glyphs)) == 7
    assert {f"U+{ord(g):05X}" for g in glyphs} == {"U+1313F", "U+13153", "U+13191", "U+1308B", "U+13079",
                                                  "U+131A3", "U+131F3"}  # GAME_FACTS "Hieroglyphs"


# --------------------------------------------------------------------------- draw
def test_rule_draw_fills_every_hand_to_seven(gd3):
    s = gd3.new_initial_state()
    assert s.current_player() == CHANCE
    drain_chance(s)
    assert s.phase == CONTROL and s.hand_n == [7, 7, 7] and len(s.deck) == 63 - 21


def test_rule_draw_refills_only_what_is_missing(gd2):
    c = Cards()
    s = EgyptState.from_position(gd2, [c(GOD, GOD), c(HIE, SLA, NIL, TEM, CHA)], phase=DRAW,
                                   discard=c(PHA, PHA), turn=3)
    drain_chance(s)
    assert s.hand_n == [7, 7] and len(s.deck) == 63 - 14 - 2


def test_rule_when_the_deck_runs_out_the_discard_is_shuffled_into_a_new_deck(gd2):
    c = Cards()
    hands = [c(GOD, GOD), c(HIE, SLA, NIL, TEM, CHA)]
    deck = c(PYR, PYR)
    discard = [x for x in range(63) if x not in {*hands[0], *hands[1], *deck}]
    s = EgyptState.from_position(gd2, hands, phase=DRAW, deck=deck, discard=discard, turn=4)
    drain_chance(s)
    assert s.hand_n == [7, 7]
    assert (EV_RESHUFFLE, len(discard)) in s.events
    assert s.discard == 0 and len(s.deck) == 63 - 14 and s.reshuffles == 1
    assert set(mask_cards(s.hand[0])) >= set(deck)  # the old deck went first


# --------------------------------------------------------------------------- control
def test_rule_a_meld_is_two_or_more_cards_of_one_type_with_ankhs_wild(gd2):
    c = Cards()
    s = EgyptState.from_position(gd2, [c(GOD, GOD, HIE, ANK, SLA, NIL, TEM), c(CHA, CHA)])
    legal = s.legal_actions()
    assert PASS in legal  # revealing nothing is allowed
    assert {meld(GOD, 2), meld(GOD, 1, 1), meld(GOD, 2, 1), meld(HIE, 1, 1), meld(SLA, 1, 1)} <= set(legal)
    assert meld(GOD, 1) not in legal and meld(HIE, 2) not in legal  # one card is no meld
    assert all(decode_meld(a)[1] + decode_meld(a)[2] >= 2 for a in legal if a != PASS)


def test_rule_control_the_meld_with_most_cards_wins(gd2):
    """The rulebook's second example: three Hieroglyphs (0) beat two Gods (7)."""
    c = Cards()
    s = EgyptState.from_position(gd2, [c(HIE, HIE, HIE, SLA, NIL, TEM, CHA), c(GOD, GOD, PHA, PYR, ANK, SLA, NIL)])
    reveal_all(s, meld(HIE, 3), meld(GOD, 2))
    assert s.controller == 0


def test_rule_control_equal_sizes_the_higher_value_wins(gd2):
    """The rulebook's first example: two Gods (7) beat two Hieroglyphs (0)."""
    c = Cards()
    s = EgyptState.from_position(gd2, [c(HIE, HIE, SLA, NIL, TEM, CHA, PHA), c(GOD, GOD, SLA, NIL, TEM, CHA, PYR)])
    reveal_all(s, meld(HIE, 2), meld(GOD, 2))
    assert s.controller == 1


def test_control_compares_points_of_any_size_after_the_cards():
    """The control ranking holds whatever an all-Ankh meld is worth: more cards first, then
    points, a tie at the top for nobody."""
    g = EgyptGame(3, EgyptOptions(all_ankh_meld=500))
    ankhs, niles, pharaohs = meld(ANK, 0, 3), meld(NIL, 3), meld(PHA, 2, 1)
    assert g.control_winner((ankhs, niles, PASS)) == 0  # 1,500 points against 6
    assert g.control_winner((niles, niles, pharaohs)) == 2  # 15 points against 6 and 6
    assert g.control_winner((niles, niles, PASS)) == -1
    assert g.control_winner((PASS,) * 3) == -1
    assert g.control_winner((meld(NIL, 4), ankhs, PASS)) == 0  # 4 cards beat 3 of any value


def test_rule_control_a_full_tie_means_nobody_wins_and_the_last_controller_stays(gd3):
    c = Cards()
    hands = [c(TEM, TEM, SLA, NIL, CHA, PHA, PYR), c(TEM, TEM, SLA, NIL, CHA, PHA, PYR),
             c(SLA, SLA, HIE, NIL, CHA, GOD, PYR)]
    s = EgyptState.from_position(gd3, hands, controller=2)
    reveal_all(s, meld(TEM, 2), meld(TEM, 2), meld(SLA, 2))
    assert s.controller == 2, "a tie at the top beats nobody, even though a lower meld was shown"
    assert s.changes == 0


def test_rule_control_nobody_reveals_the_last_controller_stays(gd3):
    c = Cards()
    hands = [c(TEM, TEM, SLA, NIL, CHA, PHA, PYR), c(GOD, GOD, SLA, NIL, CHA, PHA, PYR),
             c(SLA, SLA, HIE, NIL, CHA, GOD, PYR)]
    s = EgyptState.from_position(gd3, hands, controller=1)
    reveal_all(s, PASS, PASS, PASS)
    assert s.controller == 1 and s.phase in (VICTIM, STEAL)


def test_rule_control_with_no_controller_yet_the_turn_skips_the_dynasty_phase(gd2):
    c = Cards()
    s = EgyptState.from_position(gd2, [c(TEM, TEM, SLA, NIL, CHA, PHA, PYR), c(GOD, GOD, SLA, NIL, CHA, PHA, PYR)])
    reveal_all(s, PASS, PASS)
    assert s.controller == -1
    assert s.phase == DISCARD, "no Dynasty phase; on to the End phase (our reading of 'the turn ends')"
    assert not any(ev[0] in (EV_STEAL, EV_MELD) for ev in s.events)
    assert s.score == [0, 0]


def test_choice_no_controller_next_turn_skips_the_end_phase_too(game, rules):
    gd = rules.load(game, 2, options=EgyptOptions(no_controller="next_turn"))
    c = Cards()
    s = EgyptState.from_position(gd, [c(TEM, TEM, SLA, NIL, CHA, PHA, PYR), c(TEM, TEM, SLA, NIL, CHA, PHA, PYR)])
    reveal_all(s, meld(TEM, 2), meld(TEM, 2))
    assert s.controller == -1 and s.turn == 1 and s.phase == DRAW
    assert s.discard.bit_count() == 4, "the revealed melds were cleared"


def test_rule_reveals_are_simultaneous_a_choice_stays_hidden_until_all_have_chosen(gd3):
    c = Cards()
    hands = [c(TEM, TEM, SLA, NIL, CHA, PHA, PYR), c(GOD, GOD, SLA, NIL, CHA, PHA, PYR),
             c(SLA, SLA, HIE, NIL, CHA, GOD, PYR)]
    a = EgyptState.from_position(gd3, hands)
    b = a.clone()
    a.apply_action(meld(TEM, 2))
    b.apply_action(PASS)
    assert a.player == b.player == 1
    seen_a, seen_b = a.observation(1).public(), b.observation(1).public()
    assert seen_a == seen_b, "seat 2 cannot tell what seat 1 chose"
    assert seen_a["revealed"] == () and a.observation(0).my_reveal == meld(TEM, 2)
    reveal_all(a, PASS, PASS)
    assert a.observation(2).revealed == (meld(TEM, 2), PASS, PASS)


def test_choice_a_revealed_meld_is_played_it_scores_nothing_and_goes_to_the_discard(gd2):
    c = Cards()
    hands = [c(GOD, GOD, GOD, SLA, NIL, TEM, CHA), c(HIE, HIE, SLA, NIL, TEM, CHA, PYR)]
    s = EgyptState.from_position(gd2, hands)
    reveal_all(s, meld(GOD, 3), meld(HIE, 2))
    assert s.controller == 0 and s.score == [0, 0]
    assert s.hand_n == [4, 5] and s.table.bit_count() == 5, "both revealed melds lie on the table"
    drain_chance(s)  # the steal
    while s.phase == DYNASTY:
        s.apply_action(PASS)
    assert s.table == 0 and s.discard.bit_count() == 5, "the End phase put them in the discard"
    assert s.score == [0, 0]


def test_choice_returned_reveals_go_back_to_the_hand_and_may_be_played(game, rules):
    gd = rules.load(game, 2, options=EgyptOptions(control_meld="returned"))
    c = Cards()
    hands = [c(GOD, GOD, GOD, SLA, NIL, TEM, CHA), c(HIE, HIE, SLA, NIL, TEM, CHA, PYR)]
    s = EgyptState.from_position(gd, hands)
    reveal_all(s, meld(GOD, 3), meld(HIE, 2))
    assert s.controller == 0 and s.hand_n == [7, 7] and s.table == 0
    drain_chance(s)
    s.apply_action(meld(GOD, 3))
    assert s.score[0] == 21


# --------------------------------------------------------------------------- dynasty
def test_rule_the_controller_takes_one_random_card_from_another_players_hand(gd2):
    c = Cards()
    hands = [c(GOD, GOD, SLA, NIL, TEM, CHA, PHA), c(HIE, HIE, SLA, NIL, TEM, CHA, PYR)]
    s = EgyptState.from_position(gd2, hands)
    reveal_all(s, meld(GOD, 2), meld(HIE, 2))
    assert s.phase == STEAL and s.victim == 1, "with two players the other hand is the only choice"
    outcomes = s.chance_outcomes()
    assert sorted(card for card, _ in outcomes) == sorted(mask_cards(s.hand[1]))
    assert all(abs(p - 1 / 5) < 1e-12 for _, p in outcomes), "uniform over the victim's 5 cards left"
    card = outcomes[2][0]
    s.apply_action(card)
    assert s.hand[0] & CBIT[card] and not s.hand[1] & CBIT[card]
    assert s.hand_n == [6, 4] and s.phase == DYNASTY


def test_rule_the_controller_chooses_which_player_to_take_from(gd3):
    c = Cards()
    hands = [c(GOD, GOD, SLA, NIL, TEM, CHA, PHA), c(HIE, HIE, SLA, NIL, TEM, CHA, PYR),
             c(SLA, SLA, HIE, NIL, CHA, GOD, PYR)]
    s = EgyptState.from_position(gd3, hands)
    reveal_all(s, meld(GOD, 2), PASS, PASS)
    assert s.phase == VICTIM and s.current_player() == 0
    assert s.legal_actions() == [VICTIM_BASE + 1, VICTIM_BASE + 2]
    s.apply_action(VICTIM_BASE + 2)
    assert s.phase == STEAL and s.victim == 2


def test_rule_a_meld_earns_the_sum_of_its_cards_values(gd2):
    """The rulebook's example: 4 Chariots score 16 and 3 Pharaohs 15."""
    c = Cards()
    s = EgyptState.from_position(gd2, [c(CHA, CHA, CHA, CHA, PHA, PHA, PHA), c(HIE)], phase=DYNASTY,
                                   controller=0)
    s.apply_action(meld(CHA, 4))
    s.apply_action(meld(PHA, 3))
    assert s.score == [31, 0]
    assert s.phase == DISCARD, "nothing left to play: the End phase follows"


def test_rule_the_controller_may_play_several_melds_or_none(gd2):
    c = Cards()
    s = EgyptState.from_position(gd2, [c(CHA, CHA, PHA, PHA, HIE), c(HIE)], phase=DYNASTY, controller=0)
    assert PASS in s.legal_actions()
    s.apply_action(PASS)
    assert s.score == [0, 0] and s.phase == DISCARD and s.hand_n[0] == 5


def test_rule_only_the_controller_plays_melds(gd2):
    c = Cards()
    s = EgyptState.from_position(gd2, [c(CHA, CHA, PHA, PHA, HIE), c(GOD, GOD)], phase=DYNASTY, controller=0)
    with pytest.raises(RuleViolation, match="without controlling Egypt"):
        gd2.checker().before(s, 1, meld(GOD, 2))


def test_rule_special_meld_pyramid_builders_is_worth_12(gd2):
    c = Cards()
    s = EgyptState.from_position(gd2, [c(PHA, SLA, PYR), c(HIE)], phase=DYNASTY, controller=0)
    assert combo_action(0) in s.legal_actions()
    s.apply_action(combo_action(0))
    assert s.score[0] == 12 and s.hand_n[0] == 0


def test_rule_special_meld_priests_is_worth_10(gd2):
    c = Cards()
    s = EgyptState.from_position(gd2, [c(TEM, HIE, GOD, GOD), c(SLA)], phase=DYNASTY, controller=0)
    assert combo_action(1) in s.legal_actions()
    s.apply_action(combo_action(1))
    assert s.score[0] == 10 and counts_tuple(s.sig[0])[GOD] == 1


def test_rule_a_special_meld_needs_all_three_types(gd2):
    c = Cards()
    s = EgyptState.from_position(gd2, [c(PHA, PHA, SLA, SLA, TEM, GOD), c(HIE)], phase=DYNASTY, controller=0)
    legal = s.legal_actions()
    assert not any(COMBO <= a < VICTIM_BASE for a in legal)


# --------------------------------------------------------------------------- our choices (ASSUMED)
def test_assumed_an_ankh_takes_the_type_and_value_of_its_meld(gd2, game, rules):
    c = Cards()
    hands = [c(GOD, GOD, ANK), c(HIE)]
    s = EgyptState.from_position(gd2, hands, phase=DYNASTY, controller=0)
    s.apply_action(meld(GOD, 2, 1))
    assert s.score[0] == 21
    zero = rules.load(game, 2, options=EgyptOptions(ankh_value="zero"))
    s = EgyptState.from_position(zero, hands, phase=DYNASTY, controller=0)
    s.apply_action(meld(GOD, 2, 1))
    assert s.score[0] == 14


def test_assumed_an_ankh_raises_a_meld_for_control(gd2):
    c = Cards()
    hands = [c(HIE, HIE, ANK, SLA, NIL, TEM, CHA), c(GOD, GOD, GOD, SLA, NIL, TEM, PYR)]
    s = EgyptState.from_position(gd2, hands)
    reveal_all(s, meld(HIE, 2, 1), meld(GOD, 2))
    assert s.controller == 0, "three cards (one an Ankh) beat two"


def test_assumed_an_all_ankh_meld_is_allowed_and_worth_zero(gd2, game, rules):
    c = Cards()
    hands = [c(ANK, ANK, ANK, SLA, NIL, TEM, CHA), c(HIE, HIE, HIE, SLA, NIL, TEM, PYR)]
    s = EgyptState.from_position(gd2, hands)
    assert meld(ANK, 0, 3) in s.legal_actions()
    reveal_all(s, meld(ANK, 0, 3), meld(HIE, 3))
    assert s.controller == -1, "three Ankhs (0) tie three Hieroglyphs (0): nobody wins"
    d = EgyptState.from_position(gd2, [c(ANK, ANK), c(GOD)], phase=DYNASTY, controller=0)
    d.apply_action(meld(ANK, 0, 2))
    assert d.score[0] == 0
    forbidden = rules.load(game, 2, options=EgyptOptions(all_ankh_meld=None))
    s = EgyptState.from_position(forbidden, hands)
    assert not any(decode_meld(a)[0] == ANK for a in s.legal_actions() if a != PASS)


def test_assumed_an_ankh_may_fill_one_slot_of_a_special_meld(gd2, game, rules):
    c = Cards()
    hands = [c(PHA, SLA, ANK, ANK), c(HIE)]
    s = EgyptState.from_position(gd2, hands, phase=DYNASTY, controller=0)
    combos = [a for a in s.legal_actions() if a >= COMBO]
    assert combos == [combo_action(0, 0b100)], "the Ankh stands in for the Pyramid (slot 3)"
    s.apply_action(combos[0])
    assert s.score[0] == 12 and counts_tuple(s.sig[0])[ANK] == 1
    two = EgyptState.from_position(gd2, [c(PHA, ANK, ANK), c(GOD)], phase=DYNASTY, controller=0)
    assert not any(a >= COMBO for a in two.legal_actions()), "two Ankhs may not fill two slots"
    none = rules.load(game, 2, options=EgyptOptions(ankhs_in_combo=0))
    s = EgyptState.from_position(none, hands, phase=DYNASTY, controller=0)
    assert not any(a >= COMBO for a in s.legal_actions())


# --------------------------------------------------------------------------- end phase
def test_rule_end_phase_melds_go_to_the_discard(gd2):
    c = Cards()
    s = EgyptState.from_position(gd2, [c(CHA, CHA, PHA, PHA, HIE), c(SLA, NIL)], phase=DYNASTY, controller=0)
    s.apply_action(meld(CHA, 2))
    assert s.table.bit_count() == 2 and s.phase == DYNASTY
    s.apply_action(PASS)
    assert s.table == 0 and s.discard.bit_count() == 2 and s.phase == DISCARD


def test_rule_end_phase_discard_up_to_three_and_down_to_five(gd3):
    def discards(n_cards: int) -> set[int]:
        c = Cards()
        types = [HIE, SLA, NIL, TEM, CHA, PHA, PYR, GOD][:n_cards]
        s = EgyptState.from_position(gd3, [c(*types), c(SLA), c(NIL)], phase=DISCARD)
        assert s.player == 0
        return {len(decode_discard(a)) for a in s.legal_actions()}

    assert discards(8) == {3}, "8 cards: down to 5 means exactly 3"
    assert discards(7) == {2, 3}
    assert discards(6) == {1, 2, 3}
    assert discards(4) == {0, 1, 2, 3}, "never more than 3, even when it is allowed to keep all"


def test_rule_end_phase_every_player_discards_then_the_next_turn_draws(gd2):
    c = Cards()
    s = EgyptState.from_position(gd2, [c(HIE, SLA, NIL, TEM, CHA, PHA, PYR), c(GOD, GOD, SLA, NIL, TEM, CHA)],
                                   phase=DISCARD, turn=2)
    s.apply_action(discard_action([HIE, SLA]))
    assert s.player == 1 and s.hand_n[0] == 5
    s.apply_action(discard_action([]))
    assert s.hand_n == [5, 6] and s.turn == 3 and s.phase == DRAW


def test_checker_rejects_a_fourth_discard_and_a_hand_of_six(gd2):
    c = Cards()
    s = EgyptState.from_position(gd2, [c(HIE, SLA, NIL, TEM, CHA, PHA, PYR), c(GOD)], phase=DISCARD)
    chk = gd2.checker()
    with pytest.raises(RuleViolation, match="at most 3 may go"):
        chk.before(s, 0, discard_action([HIE, SLA, NIL, TEM]))
    with pytest.raises(RuleViolation, match="at most 5 may stay"):
        chk.before(s, 0, discard_action([HIE]))
    chk.before(s, 0, discard_action([HIE, SLA]))


# --------------------------------------------------------------------------- end of game
def test_rule_the_game_lasts_exactly_ten_turns_and_the_most_tribute_wins(gd2):
    s = gd2.new_initial_state()
    rng = random.Random(5)
    agents = [GreedyAgent(gd2, 0), RandomAgent(gd2, 1)]
    while not s.is_terminal():
        if s.current_player() == CHANCE:
            s.apply_chance_run(rng)
        else:
            p = s.current_player()
            s.apply_action(agents[p].act(s.observation(p), s.legal_actions(), rng))
    assert s.turn == 10 and s.current_player() == TERMINAL
    assert sum(1 for ev in s.events if ev[0] == EV_TURN) == 10
    best = max(s.score)
    assert s.returns() == [1.0 if x == best else 0.0 for x in s.score]


def test_rule_players_tied_for_the_most_tribute_share_the_victory(gd3):
    c = Cards()
    s = EgyptState.from_position(gd3, [c(HIE), c(SLA), c(NIL)], phase=DISCARD, scores=[40, 40, 12], turn=9)
    for _ in range(3):
        s.apply_action(discard_action([]))
    assert s.is_terminal() and s.returns() == [1.0, 1.0, 0.0] and s.winners() == (0, 1)


def test_a_shared_victory_is_reported_as_a_draw(gd2):
    res = run_config(gd2, RandomAgent, "random", True, 60, 1)
    assert res.completed == 60 and sum(res.wins) + res.draws == 60
    assert res.draws > 0, "random players end level now and then"


# --------------------------------------------------------------------------- the engine
def test_the_fast_chance_path_draws_exactly_like_the_step_by_step_path(gd3):
    for seed in range(5):
        a, b = gd3.new_initial_state(), gd3.new_initial_state()
        ra, rb = random.Random(seed), random.Random(seed)
        agents = [RandomAgent(gd3, q) for q in range(3)]
        for _ in range(400):
            if a.is_terminal():
                break
            if a.current_player() == CHANCE:
                a.apply_chance_run(ra)
                while b.current_player() == CHANCE:
                    b.apply_action(b.sample_chance(rb))
            else:
                p = a.current_player()
                act = agents[p].act(a.observation(p), a.legal_actions(), ra)
                assert agents[p].act(b.observation(p), b.legal_actions(), rb) == act
                a.apply_action(act)
                b.apply_action(act)
            assert a.hand == b.hand and sorted(a.deck) == sorted(b.deck) and a.score == b.score


def test_chance_outcomes_are_uniform_over_the_deck(gd2):
    s = gd2.new_initial_state()
    out = s.chance_outcomes()
    assert len(out) == 63 and abs(sum(p for _, p in out) - 1) < 1e-9


def test_clone_is_independent(gd2):
    s = gd2.new_initial_state()
    drain_chance(s)
    p, hands = s.player, list(s.hand)
    t = s.clone()
    t.apply_action(t.legal_actions()[-1])
    assert s.phase == CONTROL and s.player == p and s.pending == [PASS, PASS] and s.hand == hands
    assert (t.phase, t.player, t.pending, t.shown) != (s.phase, s.player, s.pending, s.shown)


def test_a_seat_without_any_meld_reveals_nothing_without_a_decision(gd2):
    c = Cards()
    s = EgyptState.from_position(gd2, [c(HIE, SLA, NIL, TEM, CHA, PHA, PYR), c(GOD, GOD, SLA, NIL, TEM, CHA, PHA)])
    assert s.player == 1, "seat 1 holds seven different types and no Ankh: nothing to choose"


def test_checker_follows_a_run_of_chance_steps_through_a_control_phase_without_decisions(gd2):
    """Nobody can reveal a meld: the draw, the Control phase and the steal are one run of
    chance steps; the checker checks each phase change (the hands after the draw
    recomputed from after the steal) instead of taking the 8 cards for a bad draw."""
    c = Cards()
    hands = [c(HIE, SLA, NIL, TEM, CHA, PHA, PYR), c(SLA, NIL, TEM, CHA, PHA, PYR, GOD)]
    s = EgyptState.from_position(gd2, hands, phase=DRAW, controller=0)
    assert s.phase == STEAL and s.shown == (PASS, PASS)
    chk = gd2.checker()
    chk.last_controller = 0
    s.apply_chance_run(random.Random(3))
    assert s.hand_n == [8, 6] and s.phase in (DYNASTY, DISCARD)
    chk.after(s, True)
    # the same run with one card too many taken is caught
    s = EgyptState.from_position(gd2, hands, phase=DRAW, controller=0)
    s.apply_chance_run(random.Random(3))
    card = mask_cards(s.hand[1])[0]
    s.hand[1] ^= CBIT[card]
    s.sig[1] -= CSIG[card]
    s.hand_n[1] -= 1
    s.hand[0] |= CBIT[card]
    s.sig[0] += CSIG[card]
    s.hand_n[0] += 1
    chk = gd2.checker()
    chk.last_controller = 0
    with pytest.raises(RuleViolation, match="cards after the Draw phase"):
        chk.after(s, True)


def test_checker_accepts_idle_turns_under_next_turn(game, rules):
    """With ``no_controller: next_turn``, nobody in control and nobody able to reveal a meld,
    the full hands never change: the rest of the game passes in one run of chance steps."""
    gd = rules.load(game, 2, options=EgyptOptions(no_controller="next_turn"))
    c = Cards()
    hands = [c(HIE, SLA, NIL, TEM, CHA, PHA, PYR), c(SLA, NIL, TEM, CHA, PHA, PYR, GOD)]
    s = EgyptState.from_position(gd, hands, phase=DRAW)
    assert s.phase == OVER and s.turn == TURNS
    chk = gd.checker()
    chk.after(s, True)
    chk.at_end(s)


def test_seeds_whose_control_phase_needs_no_decision_pass(gd2, rules):
    """Seeds that once failed the checker: a Control phase without any decision, then the steal."""
    for seed in (1356, 1810):
        out = play_game(gd2, rules.agents["random"], seed)
        assert out.status == "ok", (seed, out.message)


# --------------------------------------------------------------------------- the checker
def test_checker_notices_a_lost_card(gd2):
    s = gd2.new_initial_state()
    drain_chance(s)
    chk = gd2.checker()
    chk.after(s, True)
    s.deck.pop()
    with pytest.raises(RuleViolation, match="add up to"):
        chk.after(s, True)


def test_checker_notices_a_card_in_two_places(gd2):
    s = gd2.new_initial_state()
    drain_chance(s)
    chk = gd2.checker()
    card = mask_cards(s.hand[0])[0]
    s.hand[1] |= CBIT[card]
    s.hand_n[1] += 1
    s.deck.remove(s.deck[0])
    with pytest.raises(RuleViolation, match="two places at once|lost"):
        chk.conservation(s)


def test_checker_notices_a_card_twice_in_the_deck_and_a_card_outside_the_deck(gd2):
    s, chk = dealt(gd2)
    twice = s.clone()
    twice.deck[0] = twice.deck[1]  # one card twice, another lost, the count unchanged
    with pytest.raises(RuleViolation, match="twice in the deck"):
        chk.conservation(twice)
    foreign = s.clone()
    foreign.deck[0] = N_CARDS  # no such card
    with pytest.raises(RuleViolation, match="twice in the deck"):
        chk.conservation(foreign)


def test_checker_notices_counts_per_type_that_disagree_with_the_cards(gd3):
    s, chk = dealt(gd3)
    t = next(t for t in range(NTYPES) if counts_tuple(s.sig[2])[t])
    s.sig[2] += (1 << (8 * ((t + 1) % NTYPES))) - (1 << (8 * t))  # a card counted under the next type
    with pytest.raises(RuleViolation, match="seat 3's counts per type"):
        chk.conservation(s)


def test_checker_notices_reveals_shown_before_every_seat_has_chosen(gd3, monkeypatch):
    s, chk = dealt(gd3)
    assert s.phase == CONTROL
    honest = EgyptState.observation
    # an engine whose views show the choices made so far during the Control phase
    monkeypatch.setattr(EgyptState, "observation",
                        lambda self, p: honest(self, p)._replace(revealed=tuple(self.pending)))
    with pytest.raises(RuleViolation, match="sees the reveals before every seat has chosen"):
        chk.conservation(s)


def three_hieroglyphs_against_two_gods(gd2):
    """Two seats right after the reveal (seat 1: three Hieroglyphs, seat 2: two Gods),
    with a checker that saw the Control phase start at 7 cards each."""
    c = Cards()
    s = EgyptState.from_position(gd2, [c(HIE, HIE, HIE, SLA, NIL, TEM, CHA), c(GOD, GOD, PHA, PYR, ANK, SLA, NIL)])
    chk = gd2.checker()
    chk.phase, chk.start_sizes = CONTROL, [7, 7]
    reveal_all(s, meld(HIE, 3), meld(GOD, 2))
    return s, chk


def test_checker_notices_a_revealed_meld_left_in_the_hand(gd2):
    s, chk = three_hieroglyphs_against_two_gods(gd2)
    gods = s.table & (0xFF << (8 * GOD))  # a broken engine: seat 2's revealed meld went back to the hand
    s.table ^= gods
    s.hand[1] |= gods
    s.hand_n[1] += 2
    with pytest.raises(RuleViolation, match="seat 2 holds 7 cards after revealing 2 of 7; 5 should be left"):
        chk.after(s, False)


def test_checker_notices_four_cards_discarded_from_a_hand_of_seven(gd2):
    c = Cards()
    s = EgyptState.from_position(gd2, [c(HIE, SLA, NIL, TEM, CHA, PHA, PYR), c(GOD, GOD)], phase=DISCARD, turn=2)
    chk = gd2.checker()
    chk.phase, chk.turn, chk.end_sizes = DISCARD, 2, [7, 2]
    s.apply_action(discard_action([HIE, SLA, NIL, TEM]))  # 4 cards, down to 3: the rules allow 3
    s.apply_action(discard_action([]))
    with pytest.raises(RuleViolation, match="seat 1 discarded 4 cards in the End phase"):
        chk.after(s, False)


def test_checker_notices_a_wrong_controller(gd2):
    s, chk = three_hieroglyphs_against_two_gods(gd2)
    s.controller = 1  # a broken engine: the higher value beat the bigger meld
    with pytest.raises(RuleViolation, match="seat 2 controls Egypt after the reveal; the rules give it to seat 1"):
        chk.after(s, False)


def test_checker_rejects_a_meld_the_player_does_not_hold(gd2):
    c = Cards()
    s = EgyptState.from_position(gd2, [c(GOD, GOD, SLA, NIL, TEM, CHA, PHA), c(HIE, HIE, SLA, NIL, TEM, CHA, PYR)])
    with pytest.raises(RuleViolation, match="without holding them"):
        gd2.checker().before(s, 0, meld(GOD, 3))
    with pytest.raises(RuleViolation, match="a meld is 2 or more"):
        gd2.checker().before(s, 0, meld(GOD, 1))


def test_checker_notices_tribute_that_does_not_match_the_meld(gd2, monkeypatch):
    c = Cards()
    s = EgyptState.from_position(gd2, [c(CHA, CHA, CHA), c(HIE)], phase=DYNASTY, controller=0)
    chk = gd2.checker()
    chk.phase = DYNASTY
    monkeypatch.setitem(gd2._points, meld(CHA, 3), 13)  # a scoring bug
    try:
        chk.before(s, 0, meld(CHA, 3))
        s.apply_action(meld(CHA, 3))
        with pytest.raises(RuleViolation, match="scored 13 for a meld worth 12"):
            chk.after(s, False)
    finally:
        gd2._points.pop(meld(CHA, 3), None)


def test_an_injected_rule_bug_is_reported_with_its_seed(gd2, monkeypatch):
    original = EgyptState._discard

    def keep_everything(self, action):  # a broken End phase: nobody discards
        return original(self, DISCARD_BASE)

    monkeypatch.setattr(EgyptState, "_discard", keep_everything)
    out = play_game(gd2, GreedyAgent, 3)
    assert out.status == "failure" and out.seed == 3, out
    assert "cards after the End phase" in out.message, out.message


# --------------------------------------------------------------------------- agents and whole games
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("kind", ["random", "greedy"])
def test_seeded_whole_games_pass_every_check(game, rules, players, kind):
    gd = rules.load(game, players)
    res = run_config(gd, rules.agents[kind], kind, True, 25, 1, check_every=1)
    assert res.failure_count == 0, res.failures[0].message
    assert res.completed == 25 and set(res.lengths) == {10}


@pytest.mark.parametrize("options", [EgyptOptions(control_meld="returned"), EgyptOptions(ankh_value="zero"),
                                     EgyptOptions(all_ankh_meld=None, ankhs_in_combo=3),
                                     EgyptOptions(no_controller="next_turn", ankhs_in_combo=0)])
def test_every_option_plays_through_every_check(game, rules, options):
    for n in (2, 4):
        gd = rules.load(game, n, options=options)
        for kind in ("random", "greedy"):
            res = run_config(gd, rules.agents[kind], kind, True, 15, 100, check_every=1)
            assert res.failure_count == 0, (options, kind, res.failures[0].message)


def test_a_seed_replays_the_same_game(gd3):
    a = play_game(gd3, GreedyAgent, 42)
    b = play_game(gd3, GreedyAgent, 42)
    assert (a.steps, a.winners) == (b.steps, b.winners)


def test_greedy_beats_random(gd2):
    def mixed(gd, seat):
        return GreedyAgent(gd, seat) if seat == 0 else RandomAgent(gd, seat)

    res = run_config(gd2, mixed, "mixed", True, 200, 1)
    assert res.wins[0] > 0.7 * 200, res.wins


def test_greedy_plays_its_best_tribute_and_reveals_cheap_melds(gd2):
    c = Cards()
    g = GreedyAgent(gd2, 0)
    s = EgyptState.from_position(gd2, [c(CHA, CHA, CHA, CHA, PHA, PHA, PHA), c(HIE)], phase=DYNASTY, controller=0)
    while s.phase == DYNASTY:
        s.apply_action(g.act(s.observation(0), s.legal_actions(), random.Random(1)))
    assert s.score[0] == 31, "all four Chariots and all three Pharaohs"
    s = EgyptState.from_position(gd2, [c(HIE, HIE, HIE, GOD, GOD, GOD, SLA), c(TEM, TEM, NIL, NIL, PYR, PYR, SLA)])
    a = g.act(s.observation(0), s.legal_actions(), random.Random(1))
    assert a == meld(HIE, 3), "under 'discarded' it spends its three Hieroglyphs, not its Gods"


def rulebook_tribute(action: int) -> int:
    """A meld's tribute by the rulebook (the default options: Ankhs count as the meld's type,
    an all-Ankh meld scores nothing): each card the type's value; a special meld its own."""
    if action >= COMBO:
        return rulebook.COMBOS[COMBO_IDS[(action - COMBO) // 10]][1]
    t, nat, ank = decode_meld(action)
    return (nat + ank) * (rulebook.VALUES[TYPE_IDS[t]] or 0)


def test_play_statistics_count_what_the_seeded_games_did(gd3):
    """The figures are those of the games ``cardgen validate`` plays with the same seeds, and
    they say what happened in them: the test replays each game, reads its public log and
    counts for itself each seat's tribute (every meld at its rulebook value), the melds, the
    changes of controller and the turns with a controller. An engine that scores a meld
    wrongly or miscounts any of them changes the figures."""
    games = 30
    f = play_statistics(gd3, GreedyAgent, games, 1)
    tribute: list[int] = []
    changes = controlled = melds = 0
    for i in range(games):
        rng = random.Random(1 + i)
        seats = [player_rng(1 + i, q) for q in range(3)]
        agents = [GreedyAgent(gd3, q) for q in range(3)]
        s = gd3.new_initial_state()
        steps = 0
        while not s.is_terminal():
            p = s.current_player()
            if p == CHANCE:
                steps += len(s.apply_chance_run(rng))
            else:
                s.apply_action(agents[p].act(s.observation(p), s.legal_actions(), seats[p]))
                steps += 1
        validated = play_game(gd3, GreedyAgent, 1 + i)  # the game of this seed as validate plays it
        assert (validated.status, validated.steps) == ("ok", steps)
        assert validated.winners == tuple(q for q, r in enumerate(s.returns()) if r == 1.0)
        score = [0, 0, 0]
        controller = -1
        for ev in s.events:
            if ev[0] in (EV_MELD, EV_COMBO):
                seat, action, points = ev[1:]
                assert points == rulebook_tribute(action), (ev, "the log's tribute is the rulebook's")
                score[seat] += points
                melds += 1
            elif ev[0] == EV_CONTROL:
                c = ev[1]
                controlled += c >= 0
                changes += controller >= 0 and c != controller
                controller = c
        assert score == s.score
        tribute += score
    assert f["games"] == games and f["players"] == 3
    assert f["tribute_per_seat"]["mean"] == round(sum(tribute) / len(tribute), 2)
    assert (f["tribute_per_seat"]["min"], f["tribute_per_seat"]["max"]) == (min(tribute), max(tribute))
    assert f["melds_per_game"] + f["special_melds_per_game"] == pytest.approx(melds / games, abs=0.011)
    assert f["control_changes_per_game"]["mean"] == round(changes / games, 2)
    assert f["turns_with_a_controller"]["mean"] == round(controlled / games, 2)
    assert changes > 0 and melds > 0, "the games saw control change hands and melds played"


# --------------------------------------------------------------------------- the deck check (mutations)
CARDS_ENTRY = '''    cards:
      # 9 types × copies 1–7; each copy takes its art from the type's variants
      - id: "{type.id}-{copy}"
        for_each:
          type: types
          copy: {range: [1, 7]}
'''


def explicit_cards(folder: Path, edit) -> None:
    """Rewrite the deck as one entry per card, let ``edit`` change the list of
    (id, type id, copy, quantity), and write it back."""
    game_file = folder / "game.yaml"
    types = {t["id"]: t for t in yaml.safe_load(game_file.read_text(encoding="utf-8"))["data"]["types"]}
    entries = [[f"{tid}-{k}", tid, k, 1] for tid in types for k in range(1, 8)]
    edit(entries)
    lines = ["    cards:"]
    for cid, tid, k, qty in entries:
        ty = {key: types[tid][key] for key in ("id", "value", "colour", "emblem")}
        lines.append(f"      - {{id: {json.dumps(cid)}, quantity: {qty},"
                     f" fields: {{type: {json.dumps(ty, ensure_ascii=False)}, copy: {k}}}}}")
    edit_file(game_file, CARDS_ENTRY, "\n".join(lines) + "\n")


def test_mutation_the_explicit_deck_passes(egypt_copy):
    explicit_cards(egypt_copy, lambda e: None)
    assert problems_of(egypt_copy) == []


def test_mutation_a_deleted_card_is_named(egypt_copy):
    explicit_cards(egypt_copy, lambda e: e.remove(["nile-3", "nile", 3, 1]))
    problems = problems_of(egypt_copy)
    assert len(problems) == 1, problems
    assert re.match(r".*game\.yaml:\d+:\d+: card nile-3 is missing from deck 'cards': the rules need 9 types"
                    r" × copies 1–7, each once$", problems[0]), problems[0]


def test_mutation_a_duplicated_card_is_named(egypt_copy):
    explicit_cards(egypt_copy, lambda e: e.append(["gods-7-bis", "gods", 7, 1]))
    problems = problems_of(egypt_copy)
    assert len(problems) == 1 and "card gods-7 is in deck 'cards' 2 times (cards 'gods-7', 'gods-7-bis')" \
        in problems[0], problems


def test_mutation_a_card_printed_twice_is_named(egypt_copy):
    edit_file(egypt_copy / "game.yaml", "          copy: {range: [1, 7]}\n",
              "          copy: {range: [1, 7]}\n        quantity: 2\n")
    problems = problems_of(egypt_copy)
    assert len(problems) == 63 and all("is printed 2 times (quantity 2)" in p for p in problems)


def test_mutation_an_eighth_copy_is_named(egypt_copy):
    edit_file(egypt_copy / "game.yaml", "copy: {range: [1, 7]}", "copy: {range: [1, 8]}")
    problems = problems_of(egypt_copy)
    assert sorted(re.findall(r"card '(\w+-8)'", "\n".join(problems))) == sorted(f"{t}-8" for t in TYPE_IDS)


def test_mutation_a_wrong_value_is_named_at_its_line(egypt_copy):
    edit_file(egypt_copy / "game.yaml", "    - id: pyramid\n      value: 6\n", "    - id: pyramid\n      value: 5\n")
    problems = problems_of(egypt_copy)
    assert len(problems) == 1, problems
    assert "card type 'pyramid' has value 5; the rules give Pyramid cards 6 points" in problems[0]
    line = int(problems[0].split(":")[1])
    assert "value: 5" in (egypt_copy / "game.yaml").read_text(encoding="utf-8").splitlines()[line - 1]


def test_mutation_an_ankh_with_a_value_is_named(egypt_copy):
    edit_file(egypt_copy / "game.yaml", "      value: wild", "      value: 8")
    assert any("card type 'ankh' has value 8; the rules make Ankh cards wild" in p for p in problems_of(egypt_copy))


def test_mutation_a_translation_missing_in_one_language_is_named(egypt_copy, cli, tmp_path):
    edit_file(egypt_copy / "locales" / "nl.yaml", "  chariots: {name: Strijdwagens}\n", "  chariots: {}\n")
    r = cli("validate", egypt_copy, "--games", "2")
    assert r.exit_code == 0, r.output  # an unfinished language is no error of the game
    assert "language nl is unfinished: 1 string(s) not translated yet" in r.stdout
    r = cli("build", egypt_copy, "--lang", "nl", "--out", tmp_path)
    assert r.exit_code == 1
    assert "locales/nl.yaml: missing 1 translation(s): type.chariots.name (unfinished: or build it" in r.stderr


def test_mutation_a_type_named_in_no_language_is_named_for_each(egypt_copy):
    for lang in ("en", "fr", "nl"):
        path = egypt_copy / "locales" / f"{lang}.yaml"
        text = path.read_text(encoding="utf-8")
        path.write_text(re.sub(r"\n  chariots: \{name: [^}]+\}", "\n  chariots: {}", text, count=1), encoding="utf-8")
    problems = problems_of(egypt_copy)
    assert sorted(p.split(": ", 1)[1] for p in problems) == sorted(
        f"card type 'chariots' has no card name in '{lang}' (string 'type.chariots.name')" for lang in ("en", "fr", "nl"))
    assert all(f"locales/{lang}.yaml" in p for lang, p in zip(("en", "fr", "nl"), sorted(problems)))


def test_mutation_two_hieroglyph_cards_with_the_same_sign_are_named(egypt_copy):
    edit_file(egypt_copy / "game.yaml", '{key: owl, glyph: "\\U00013153"', '{key: owl, glyph: "\\U0001313F"')
    problems = problems_of(egypt_copy)
    assert len(problems) == 1 and "a different hieroglyph on each of the 7 Hieroglyph cards" in problems[0]
    assert "U+1313F is used twice" in problems[0]


def test_mutation_a_special_meld_that_disagrees_with_the_rules_is_named(egypt_copy):
    edit_file(egypt_copy / "game.yaml", "types: [pharaohs, slaves, pyramid], points: 12",
              "types: [pharaohs, slaves, pyramid], points: 11")
    problems = problems_of(egypt_copy)
    assert len(problems) == 1 and "special meld 'builders' is worth 12 by the rules, not 11" in problems[0]


def test_mutation_a_bad_rule_option_is_named(egypt_copy):
    edit_file(egypt_copy / "game.yaml", "control_meld: discarded", "control_meld: scored")
    problems = problems_of(egypt_copy)
    assert len(problems) == 1
    assert "rule option 'control_meld' must be one of discarded, returned, found 'scored'" in problems[0]


def test_mutation_deck_problems_fail_validate_and_skip_the_games(egypt_copy, cli):
    explicit_cards(egypt_copy, lambda e: e.remove(["ankh-7", "ankh", 7, 1]))
    r = cli("validate", egypt_copy, "--games", "2")
    assert r.exit_code == 1
    assert "card ankh-7 is missing from deck 'cards'" in r.stdout
    assert "Play: FAILED — the deck does not match the rules" in r.stdout


def test_cli_validate_egypt_passes(cli):
    r = cli("validate", "egypt", "--games", "3")
    assert r.exit_code == 0, r.stdout
    assert "63 cards in deck 'cards' = 9 types × copies 1–7, each exactly once" in r.stdout
    assert "a card name in en, fr and nl" in r.stdout
    assert re.search(r"standard\s+6\s+greedy\s+3\s+100%\s+10\s+10", r.stdout), r.stdout
