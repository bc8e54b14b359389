"""The Hâpy Families rules engine: one test per rule of the rulebook, layouts, hidden
information, the checker, the agents, and seeded whole games."""

from __future__ import annotations

import gc
import random

import pytest

from cardgen.load.game import load_game
from cardgen.rules import CHANCE, TERMINAL, RuleViolation, rules_for
from cardgen.rules.api import RandomAgent, observation_leak
from cardgen.rules.hapy.agents import GreedyAgent
from cardgen.rules.hapy.codec import EV_REQUEST, EV_REVEAL, EV_SKIP, EV_TAKE, KEEP_BASE, PASS, REQUEST_BASE
from cardgen.rules.hapy.masks import mask_cards
from cardgen.rules.hapy.spec import HIDDEN, KEEP, N_CARDS, REQUEST, SETUPS, TAKE
from cardgen.rules.hapy.state import HapyState
from cardgen.validation.simulate import play_game


@pytest.fixture(scope="module")
def game():
    return load_game("hapy")


@pytest.fixture(scope="module")
def rules():
    return rules_for("hapy")


@pytest.fixture(scope="module")
def gd2(game, rules):
    return rules.load(game, 2, "pyramid")


@pytest.fixture(scope="module")
def gd3(game, rules):
    return rules.load(game, 3, "pyramid")


@pytest.fixture(scope="module")
def gd4(game, rules):
    return rules.load(game, 4, "pyramid")


def card(gd, name: str) -> int:
    return gd.card_index(name)


def cards(gd, *names: str) -> list[int]:
    return [card(gd, n) for n in names]


def family(gd, fam: str) -> list[int]:
    return cards(gd, *(f"{fam}-{n}" for n in range(1, 7)))


def dealt(gd, seed: int = 1) -> HapyState:
    rng = random.Random(seed)
    s = gd.new_initial_state()
    while s.current_player() == CHANCE:
        s.apply_action(s.sample_chance(rng))
    return s


def position(gd, layout, hands, revealed=(), player=0, last_request=-1) -> HapyState:
    """A constructed position: ``layout`` maps places to cards; every card named nowhere
    is spread over the other seats, then laid in the layout (see :func:`spread`)."""
    hands = [list(h) for h in hands] + [[] for _ in range(gd.num_players - len(hands))]
    revealed = [list(r) for r in revealed] + [[] for _ in range(gd.num_players - len(revealed))]
    layout = dict(layout)
    used = set(layout.values()) | {c for h in hands for c in h} | {c for r in revealed for c in r}
    spread(gd, [c for c in range(N_CARDS) if c not in used], hands, revealed, layout, watched=player)
    return HapyState.from_position(gd, layout, hands, revealed, player, last_request)


def spread(gd, rest: list[int], hands, revealed, layout: dict[int, int], watched: int) -> None:
    """Place leftover cards as a real game could: up to two of a family in each other
    seat's hand, then sets of three revealed by the other seats (never a second set of
    a family to one seat, never enough to win), then the layout from its top down."""
    others = [q for q in range(gd.num_players) if q != watched]
    left = []
    for c in rest:
        f = c // 6
        seat = next((q for q in others if sum(1 for x in hands[q] if x // 6 == f) < 2), None)
        if seat is None:
            left.append(c)
        else:
            hands[seat].append(c)
    by_family: dict[int, list[int]] = {}
    for c in left:
        by_family.setdefault(c // 6, []).append(c)
    left = []
    for f, cs in sorted(by_family.items()):
        while len(cs) >= 3:
            seat = next((q for q in others if len(revealed[q]) // 3 < gd.win_sets - 1
                         and not any(x // 6 == f for x in revealed[q])), None)
            if seat is None:
                break
            revealed[seat] += cs[:3]
            cs[:] = cs[3:]
        left += cs
    free = [p for p in range(N_CARDS) if p not in layout]
    assert len(left) <= len(free)
    layout.update(zip(free, left))


def last_request(s: HapyState) -> tuple:
    return [e for e in s.events if e[0] == EV_REQUEST][-1]


def request(gd, target: int, name: str) -> int:
    return REQUEST_BASE + 100 * target + card(gd, name)


# --------------------------------------------------------------------------- setup
def test_setup_pyramid_eight_rows_apex_god_side_up_alternating(gd2):
    lay = gd2.layout
    assert lay.rows == (1, 2, 3, 4, 5, 6, 7, 8) and lay.places == 36
    start = 0
    for r, size in enumerate(lay.rows):
        assert all(lay.face_up[p] == (r % 2 == 0) for p in range(start, start + size)), f"row {r + 1}"
        start += size
    assert not lay.face_up[35], "the 8-card base row lies Mummy side up"


def test_setup_each_pyramid_card_is_partly_covered_by_two_of_the_row_below(gd2):
    lay = gd2.layout
    start = 0
    for size in lay.rows[:-1]:
        for k in range(size):
            below = start + size + k  # the same index and the next one in the row below
            assert list(lay.covered_by[start + k]) == [below, below + 1]
        start += size
    assert lay.initially_available() == list(range(28, 36))


def test_deal_is_seeded_and_uses_each_card_once(gd2):
    a, b, c = dealt(gd2, 7), dealt(gd2, 7), dealt(gd2, 8)
    assert sorted(a.slot_card) == list(range(36))
    assert a.slot_card == b.slot_card and a.slot_card != c.slot_card
    assert a.current_player() == 0 and a.phase == TAKE
    assert a.legal_actions() == list(range(28, 36))


@pytest.mark.parametrize("setup", ["pyramid", "mastaba"])
def test_the_fast_deal_draws_exactly_like_the_step_by_step_deal(game, rules, setup):
    gd = rules.load(game, 3, setup)
    rng_a, rng_b = random.Random(5), random.Random(5)
    a = gd.new_initial_state()
    while a.current_player() == CHANCE:
        a.apply_action(a.sample_chance(rng_a))
    b = gd.new_initial_state()
    assert len(b.apply_chance_run(rng_b)) == 36 and b.apply_chance_run(rng_b) == []
    assert (a.slot_card, a.faces, a.avail, a.phase, a.steps) == (b.slot_card, b.faces, b.avail, b.phase, b.steps)
    assert rng_a.random() == rng_b.random()


def test_chance_outcomes_are_uniform_over_the_cards_left(gd2):
    s = gd2.new_initial_state()
    assert s.current_player() == CHANCE and s.is_chance_node()
    outcomes = s.chance_outcomes()
    assert [a for a, _ in outcomes] == list(range(36)) and abs(sum(p for _, p in outcomes) - 1) < 1e-9
    s.apply_action(5)
    assert 5 not in [a for a, _ in s.chance_outcomes()] and len(s.chance_outcomes()) == 35


# --------------------------------------------------------------------------- 1. taking a God
def test_rule_a_card_is_available_only_when_no_card_covers_it(gd2):
    s = dealt(gd2)
    assert 27 not in s.legal_actions()  # row 7's last card lies under places 34 and 35
    s.apply_action(35)
    s.apply_action(PASS)  # seat 1 now
    assert 27 not in s.legal_actions(), "still partly covered by place 34"
    s.apply_action(34)
    s.apply_action(PASS)
    assert 27 in s.legal_actions()


def test_rule_take_adds_the_card_to_the_hand_and_a_mummy_card_stays_secret(gd2):
    s = dealt(gd2)
    secret = s.slot_card[35]
    s.apply_action(35)
    assert secret in s.observation(0).hand
    other = s.observation(1).public()
    assert other["hand_sizes"] == (1, 0)
    assert other["events"][-1] == (EV_TAKE, 0, 35, -1), "the others see a Mummy card taken, not which"
    assert secret not in other["hand"] and secret not in other["faces"]


def test_rule_a_god_side_up_card_taken_is_known_to_be_in_that_hand(gd2, game, rules):
    gd = rules.load(game, 3, "temple")  # the right colonnade lies God side up: its bottom row is available
    s = dealt(gd, 3)
    place = next(p for p in s.legal_actions() if gd.face_up[p])
    c = s.slot_card[place]
    assert s.observation(1).faces[place] == c, "everyone sees a God-up card in the layout"
    s.apply_action(place)
    assert s.observation(2).events[-1] == (EV_TAKE, 0, place, c)
    greedy = GreedyAgent(gd, 1)
    greedy._update(s.observation(1))
    assert greedy.holder[c] == 0


def test_rule_take_is_skipped_when_the_layout_is_empty(gd4):
    s = position(gd4, {}, [family(gd4, "jackal")[:2] + family(gd4, "cat")[:2]])
    assert s.pyr == 0
    assert s.phase == REQUEST and s.current_player() == 0
    assert s.events[-1] == (EV_SKIP, 0)
    assert PASS in s.legal_actions() and not [a for a in s.legal_actions() if a < PASS]


# --------------------------------------------------------------------------- 2. requesting a God
def test_rule_request_is_optional_and_a_held_card_must_be_given(gd4):
    s = position(gd4, {}, [cards(gd4, "cat-1", "bull-1"), cards(gd4, "jackal-2")])
    assert s.phase == REQUEST and PASS in s.legal_actions()
    sizes = list(s.hand_n)
    s.apply_action(request(gd4, 1, "jackal-2"))
    assert card(gd4, "jackal-2") in s.observation(0).hand
    assert s.hand_n == [sizes[0] + 1, sizes[1] - 1] + sizes[2:]
    assert last_request(s) == (EV_REQUEST, 0, 1, card(gd4, "jackal-2"), 1)


def test_rule_a_request_for_a_card_not_held_gives_nothing(gd4):
    gd = gd4
    s = position(gd, {}, [cards(gd, "cat-1", "bull-1"), cards(gd, "cat-2"), cards(gd, "jackal-2")], player=0)
    sizes = list(s.hand_n)
    s.apply_action(request(gd, 1, "jackal-2"))
    assert s.hand_n == sizes and last_request(s) == (EV_REQUEST, 0, 1, card(gd, "jackal-2"), 0)


def test_rule_the_card_the_previous_player_requested_cannot_be_requested(gd4):
    gd = gd4
    s = position(gd, {}, [cards(gd, "cat-1"), cards(gd, "cat-2")])
    checker = gd.checker()  # it keeps its own record of the requests it sees
    checker.before(s, 0, request(gd, 2, "jackal-4"))
    s.apply_action(request(gd, 2, "jackal-4"))  # seat 1 asks seat 3
    checker.after(s, True)
    assert s.current_player() == 1
    forbidden = card(gd, "jackal-4")
    assert all((a - REQUEST_BASE) % 100 != forbidden for a in s.legal_actions() if a >= REQUEST_BASE)
    with pytest.raises(RuleViolation, match="previous player requested"):
        checker.before(s, 1, request(gd, 0, "jackal-4"))
    s.apply_action(PASS)  # seat 2 passes: seat 3 may ask for any card again
    assert s.current_player() == 2 and request(gd, 0, "jackal-4") in s.legal_actions()


def test_rule_revealed_cards_cannot_be_requested(gd4):
    cats = family(gd4, "cat")
    s = position(gd4, {}, [cards(gd4, "bull-1")], revealed=[[], cats[:3]])
    assert s.phase == REQUEST
    for c in cats[:3]:
        assert REQUEST_BASE + 100 + c not in s.legal_actions()
    assert REQUEST_BASE + 100 + cats[3] in s.legal_actions()
    with pytest.raises(RuleViolation, match="revealed"):
        gd4.checker().before(s, 0, REQUEST_BASE + 100 + cats[0])


# --------------------------------------------------------------------------- 3. revealing Gods
def test_rule_a_set_of_three_of_a_family_must_be_revealed(gd2):
    cat1, cat2, cat3 = cards(gd2, "cat-1", "cat-2", "cat-3")
    hand0 = [cat1, cat2]
    s = position(gd2, {35: cat3}, [hand0])
    s.apply_action(35)
    assert s.phase == REQUEST, "revealing comes after the request step"
    s.apply_action(PASS)
    assert s.rev[0] == (1 << cat1) | (1 << cat2) | (1 << cat3) and s.hand[0] == 0
    assert s.events[-1] == (EV_REVEAL, 0, tuple(sorted((cat1, cat2, cat3))))
    assert s.current_player() == 1


def test_rule_two_sets_in_one_turn_are_both_revealed(gd2):
    hand0 = cards(gd2, "cat-1", "cat-2", "bull-1", "bull-2")
    cat3, bull3 = cards(gd2, "cat-3", "bull-3")
    s = position(gd2, {35: cat3}, [hand0, [bull3]])
    s.apply_action(35)
    s.apply_action(request(gd2, 1, "bull-3"))
    assert s.rev_sets[0] == 2 and s.hand[0] == 0
    assert bull3 in mask_cards(s.rev[0]) and cat3 in mask_cards(s.rev[0])


def test_rule_with_four_of_a_family_the_player_keeps_one_and_reveals_three(gd2):
    hand0 = cards(gd2, "cat-1", "cat-2")
    cat3, cat4 = cards(gd2, "cat-3", "cat-4")
    s = position(gd2, {35: cat3}, [hand0, [cat4]])
    s.apply_action(35)
    s.apply_action(request(gd2, 1, "cat-4"))
    assert s.phase == KEEP and s.current_player() == 0
    assert sorted(s.legal_actions()) == sorted(KEEP_BASE + c for c in hand0 + [cat3, cat4])
    s.apply_action(KEEP_BASE + cat4)
    assert s.hand[0] == 1 << cat4 and s.rev_sets[0] == 1 and s.current_player() == 1


# --------------------------------------------------------------------------- end of the game
def test_rule_a_whole_family_revealed_wins_at_once(gd2):
    cats = family(gd2, "cat")
    s = position(gd2, {35: cats[5]}, [cats[3:5]], revealed=[cats[:3]])
    s.apply_action(35)
    s.apply_action(PASS)
    assert s.is_terminal() and s.current_player() == TERMINAL
    assert s.winner == 0 and s.returns() == [1.0, 0.0] and s.rev_sets[0] == 2
    gd2.checker().at_end(s)


@pytest.mark.parametrize("players,needed", [(2, 5), (3, 4), (4, 3)])
def test_rule_enough_sets_of_three_win_at_once(game, rules, players, needed):
    gd = rules.load(game, players, "pyramid")
    fams = ["jackal", "cat", "crocodile", "falcon", "hippopotamus", "bull"]
    revealed = [c for f in fams[: needed - 1] for c in family(gd, f)[:3]]
    last = family(gd, fams[needed - 1])
    s = position(gd, {35: last[2]}, [last[:2]], revealed=[revealed])
    s.apply_action(35)
    s.apply_action(PASS)
    assert s.is_terminal() and s.winner == 0 and s.rev_sets[0] == needed
    gd.checker().at_end(s)


@pytest.mark.parametrize("players,needed", [(2, 5), (3, 4), (4, 3)])
def test_rule_one_set_short_of_the_target_does_not_win(game, rules, players, needed):
    gd = rules.load(game, players, "pyramid")
    fams = ["jackal", "cat", "crocodile", "falcon", "hippopotamus", "bull"]
    revealed = [c for f in fams[: needed - 2] for c in family(gd, f)[:3]]
    last = family(gd, fams[needed - 1])
    s = position(gd, {35: last[2]}, [last[:2]], revealed=[revealed])
    s.apply_action(35)
    s.apply_action(PASS)
    assert not s.is_terminal() and s.rev_sets[0] == needed - 1 and s.current_player() == 1


def test_rule_play_goes_clockwise(game, rules):
    gd = rules.load(game, 4, "pyramid")
    s = dealt(gd, 2)
    seen = []
    for _ in range(8):
        seen.append(s.current_player())
        s.apply_action(s.legal_actions()[0])
        s.apply_action(PASS)
    assert seen == [0, 1, 2, 3, 0, 1, 2, 3]


# --------------------------------------------------------------------------- the exploration layouts
def test_layouts_each_hold_36_places(game, rules):
    for setup in SETUPS:
        gd = rules.load(game, 2, setup)
        assert gd.layout.places == 36, setup
        s = dealt(gd, 5)
        assert sorted(s.slot_card) == list(range(36)), setup
        assert s.legal_actions(), setup


def test_layout_mastaba_starts_with_the_six_number_1_gods_god_side_up(game, rules):
    gd = rules.load(game, 2, "mastaba")
    assert gd.layout.rows == (6, 8, 10, 12)
    for seed in range(5):
        s = dealt(gd, seed)
        first = s.slot_card[:6]
        assert sorted(gd.card_names[c] for c in first) == sorted(f"{f}-1" for f in gd.families)
        assert all(gd.face_up[p] for p in range(6))


def test_layout_temple_is_one_mummy_design_and_one_god_design(game, rules):
    lay = rules.load(game, 2, "temple").layout
    assert lay.face_up[:18] == (False,) * 18 and lay.face_up[18:] == (True,) * 18
    assert not any(u >= 18 for p in range(18) for u in lay.covered_by[p]), "the two designs do not overlap"


def test_layout_tomb_grows_from_one_mummy_card_in_the_middle(game, rules):
    lay = rules.load(game, 2, "tomb").layout
    assert not lay.face_up[0] and lay.rows[0] == 1
    assert list(lay.covered_by[0]) == [1, 2, 3, 4], "the first ring covers the centre card"
    assert lay.xs[0] == (min(lay.xs) + max(lay.xs)) / 2


def test_layout_giza_is_three_separate_pyramids_of_15_15_and_6(game, rules):
    lay = rules.load(game, 2, "giza").layout
    groups = [range(0, 15), range(15, 30), range(30, 36)]
    for g in groups:
        for p in g:
            assert all(u in g for u in lay.covered_by[p]), "no card covers another pyramid's card"
    assert [sum(1 for p in g if not lay.covered_by[p]) for g in groups] == [5, 5, 3], "their base rows are free"


# --------------------------------------------------------------------------- hidden information
def test_observation_reveals_only_public_information_and_the_own_hand(gd2):
    s = dealt(gd2, 11)
    s.apply_action(35)  # seat 1 takes a Mummy card
    s.apply_action(PASS)
    obs = s.observation(1).public()
    secret_layout = [s.slot_card[p] for p in range(36) if s.slot_card[p] >= 0 and not gd2.face_up[p]]
    secret_hand = mask_cards(s.hand[0])
    flat = repr(obs)
    shown = set(obs["faces"]) | set(obs["hand"])
    for c in secret_layout + secret_hand:
        assert c not in shown
    assert all(obs["events"][i][3] == -1 for i in range(len(obs["events"])) if obs["events"][i][0] == EV_TAKE)
    assert "slot_card" not in flat


def test_observations_agree_for_states_that_differ_only_in_hidden_cards(gd2):
    a = dealt(gd2, 4)
    a.apply_action(35)  # seat 1 takes a Mummy-up card: a secret
    b = a.clone()
    secret = mask_cards(b.hand[0])[0]
    place = next(p for p in range(36) if not gd2.face_up[p] and b.slot_card[p] >= 0)
    # b: seat 1's secret card and a Mummy-up card of the layout trade places
    b.slot_card[place], b.hand[0] = secret, 1 << b.slot_card[place]
    gd2.checker().conservation(b)
    assert a.observation(1).public() == b.observation(1).public(), "seat 2 cannot tell the two apart"
    assert a.observation(0).public() != b.observation(0).public(), "seat 1 can: it holds the card"


def test_clone_is_independent(gd2):
    s = dealt(gd2, 9)
    c = s.clone()
    c.apply_action(35)
    assert s.phase == TAKE and 35 in s.legal_actions() and s.hand_n == [0, 0]


# --------------------------------------------------------------------------- checker and agents
def test_checker_rejects_a_covered_card_and_notices_a_lost_card(gd2):
    s = dealt(gd2)
    chk = gd2.checker()
    with pytest.raises(RuleViolation, match="still covers it"):
        chk.before(s, 0, 27)
    s.hand[0] |= 1 << s.slot_card[35]  # a card in two places at once
    s.hand_n[0] += 1
    with pytest.raises(RuleViolation):
        chk.after(s, True)


def test_checker_notices_a_missed_win(gd2):
    cats = family(gd2, "cat")
    s = position(gd2, {35: cats[5]}, [cats[3:5]], revealed=[cats[:3]])
    chk = gd2.checker()
    s.apply_action(35)
    s.apply_action(PASS)
    s.phase, s.winner = TAKE, -1  # as if the engine forgot the win
    s.player = 1
    with pytest.raises(RuleViolation, match="win condition"):
        chk.after(s, False)


def test_greedy_asks_for_a_card_it_saw_taken_god_side_up(gd4):
    gd = gd4
    cat1, cat2, cat3 = cards(gd, "cat-1", "cat-2", "cat-3")
    # seat 2 takes cat-3 from a God-up place (the apex, alone in the layout)
    s = position(gd, {0: cat3}, [[cat1, cat2]], player=1)
    assert s.pyr == 1 and s.legal_actions() == [0]
    s.apply_action(0)
    s.apply_action(PASS)
    for _ in range(2):  # seats 3 and 4 pass
        s.apply_action(PASS)
    agent = GreedyAgent(gd, 0)
    assert agent.act(s.observation(0), s.legal_actions(), random.Random(1)) == request(gd, 1, "cat-3")


def test_greedy_takes_a_god_card_of_a_family_it_collects(gd2):
    cat1, cat2, cat3, bull1, jackal1 = cards(gd2, "cat-1", "cat-2", "cat-3", "bull-1", "jackal-1")
    agent = GreedyAgent(gd2, 0)
    # place 27 (row 7, God side up) is free once row 8 is gone; place 28 lies Mummy side up
    s = position(gd2, {27: cat3, 28: jackal1}, [[cat1, cat2]])
    assert {27, 28} <= set(s.legal_actions())
    assert agent.act(s.observation(0), [27, 28], random.Random(1)) == 27
    s = position(gd2, {27: bull1, 28: jackal1}, [[cat1, cat2]])
    assert GreedyAgent(gd2, 0).act(s.observation(0), [27, 28], random.Random(1)) == 28, \
        "a secret card beats a God-up card of a family it does not collect"


def test_greedy_beats_random(game, rules):
    gd = rules.load(game, 2, "pyramid")
    wins = 0
    n = 200
    for seed in range(n):
        out = play_game(gd, lambda g, seat: (GreedyAgent if seat == 0 else RandomAgent)(g, seat), seed)
        assert out.status == "ok", out.message
        wins += out.winners == (0,)
    assert wins / n > 0.6


# --------------------------------------------------------------------------- whole games
@pytest.mark.parametrize("setup", SETUPS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_seeded_whole_games_pass_every_check(game, rules, setup, players):
    gd = rules.load(game, players, setup)
    for kind in ("random", "greedy"):
        for seed in range(10):
            out = play_game(gd, rules.agents[kind], seed, check_every=1)
            assert out.status == "ok", f"{setup} {players} {kind} seed {seed}: {out.message}"
            assert len(out.winners) == 1


def test_a_seed_replays_the_same_game(gd2, rules):
    log_a, log_b = [], []
    play_game(gd2, rules.agents["greedy"], 42, trace=lambda *a: log_a.append(a))
    play_game(gd2, rules.agents["greedy"], 42, trace=lambda *a: log_b.append(a))
    assert log_a == log_b and len(log_a) > 36
    fast = play_game(gd2, rules.agents["greedy"], 42)  # no trace: the deal takes the fast path
    traced = play_game(gd2, rules.agents["greedy"], 42, trace=lambda *a: None)
    assert (fast.steps, fast.length, fast.winners) == (traced.steps, traced.length, traced.winners)
    steps = [a for a in log_a if a[1] >= CHANCE]  # not the outcome lines (-2) nor the end (TERMINAL)
    assert fast.steps == len(steps) and log_a[-1][1] == TERMINAL


# --------------------------------------------------------------------------- the fast paths
@pytest.mark.parametrize("players", [2, 3, 4])
def test_legal_requests_are_every_nameable_card_from_every_other_seat(game, rules, players):
    """The request list built from lookup tables is the rule's list, in its order."""
    gd = rules.load(game, players, "pyramid")
    rng = random.Random(players)
    for seed in range(5):
        s = dealt(gd, seed)
        while not s.is_terminal():
            legal = s.legal_actions()
            if s.phase == REQUEST:
                p = s.player
                nameable = [c for c in range(N_CARDS) if not (s.rev_all >> c & 1) and c != s.last_request]
                want = [PASS] + [REQUEST_BASE + 100 * t + c for t in range(players) if t != p for c in nameable]
                assert legal == want
            s.apply_action(legal[int(rng.random() * len(legal))])


def test_an_observation_is_a_copy_that_cannot_reach_the_state(gd2):
    s = dealt(gd2, 3)
    obs = s.observation(0)
    before = obs.public()
    s.apply_action(35)
    assert obs.public() == before, "a copy: it shows the moment it was made"
    now = s.observation(0)
    assert now.hand_sizes == (1, 0) and now.phase == "request"
    assert now.own_revealed == 0 and now.request_view == (s.hand[0], 0, 0, -1)
    with pytest.raises(AttributeError):
        obs.hand_mask = 0  # immutable
    assert not hasattr(obs, "__dict__") and not hasattr(obs, "_s")
    assert observation_leak(obs) is None
    reachable = gc.get_referents(obs)
    assert not any(x is s or x is s.events or x is s.hand for x in reachable)


def test_full_check_compares_the_layout_with_the_checkers_own_record(gd2):
    s = dealt(gd2, 6)
    chk = gd2.checker()
    chk.after(s, True)  # the end of the deal: the record starts, checked from scratch
    chk.before(s, 0, 35)
    s.apply_action(35)
    chk.after(s, True)
    a, b = 30, 31  # two cards of the Mummy-up base row trade places: every count still holds
    s.slot_card[a], s.slot_card[b] = s.slot_card[b], s.slot_card[a]
    with pytest.raises(RuleViolation, match=f"place {a} holds"):
        chk.after(s, True)
    s.slot_card[a], s.slot_card[b] = s.slot_card[b], s.slot_card[a]
    chk.after(s, True)
    s.faces[a] = s.slot_card[a]  # a Mummy-up card shown
    with pytest.raises(RuleViolation, match="Mummy-up place"):
        chk.after(s, True)
    s.faces[a] = HIDDEN
    s.avail.append(27)  # still covered by place 34
    with pytest.raises(RuleViolation, match="available places"):
        chk.after(s, True)


def test_a_take_the_record_did_not_expect_is_a_violation(gd2):
    s = dealt(gd2, 6)
    chk = gd2.checker()
    chk.after(s, True)
    s.slot_card[34], s.slot_card[35] = s.slot_card[35], s.slot_card[34]  # the engine moved a card unseen
    with pytest.raises(RuleViolation, match="was laid there"):
        chk.before(s, 0, 35)


def test_figures_of_a_finished_game_agree_with_its_log(gd3):
    """The per-game figures the report pools are read from the game itself."""
    for seed in range(1, 6):
        out = play_game(gd3, GreedyAgent, seed)
        assert out.status == "ok" and out.figures is not None
        figs = out.figures
        assert len(figs["sets_revealed"]) == 3
        w = out.winners[0]
        whole = figs["won_by_whole_family_%"] == 100.0
        assert whole or figs["sets_revealed"][w] >= gd3.win_sets
        assert 0 <= figs["requests_found_%"] <= 100 and figs["requests"] >= 1
        assert 0 <= figs["left_in_layout"] <= N_CARDS - 3 * sum(figs["sets_revealed"])


def test_the_checker_works_out_the_cover_graph_itself(game, rules):
    """An engine whose cover graph is wrong (here: no card covers another, so covered
    cards may be taken) is caught: the checker works out which card covers which from
    the layout's positions, by the rulebook, never from the engine's graph."""
    from dataclasses import replace

    from cardgen.validation.simulate import run_config

    gd = rules.load(game, 3, "pyramid")
    nothing = ((),) * N_CARDS
    gd.layout = replace(gd.layout, covers=nothing, covered_by=nothing)  # the engine's reading of the layout, wrong
    gd.covers, gd.covered_by = nothing, nothing
    gd.cover_count = (0,) * N_CARDS
    gd.initial_avail = tuple(range(N_CARDS))
    res = run_config(gd, rules.agents["random"], "random", False, 3, 1, 4)
    assert res.failure_count == 3
    # at the end of the deal only the pyramid's base row (places 28-35) is free
    assert res.failures[0].message.endswith("should be [28, 29, 30, 31, 32, 33, 34, 35]")


# --------------------------------------------------------------------------- re-deals
def greedy_positions(gd, seed: int):
    """(state, seat to move) at every decision of a seeded game of greedy players (who ask
    for cards they know about, so cards change hands publicly)."""
    rng = random.Random(seed)
    s = gd.new_initial_state()
    agents = [GreedyAgent(gd, q) for q in range(gd.num_players)]
    while True:
        p = s.current_player()
        if p == TERMINAL:
            return
        if p == CHANCE:
            s.apply_action(s.sample_chance(rng))
            continue
        yield s, p
        s.apply_action(agents[p].act(s.observation(p), s.legal_actions(), rng))


def public_record(events, n: int) -> tuple[dict[int, int], list[set[int]]]:
    """What the log tells every seat: the holder of each card taken God side up or given on
    request (until it moves publicly again or is revealed), and the cards each seat was asked
    for in vain since its last secret (Mummy side up) take."""
    holder: dict[int, int] = {}
    lacks: list[set[int]] = [set() for _ in range(n)]
    for ev in events:
        if ev[0] == EV_TAKE and ev[3] != HIDDEN:
            holder[ev[3]] = ev[1]
        elif ev[0] == EV_TAKE:
            lacks[ev[1]].clear()
        elif ev[0] == EV_REQUEST and ev[4]:
            holder[ev[3]] = ev[1]
            lacks[ev[2]].discard(ev[3])
        elif ev[0] == EV_REQUEST:
            lacks[ev[2]].add(ev[3])
        elif ev[0] == EV_REVEAL:
            for c in ev[2]:
                holder.pop(c, None)
    return holder, lacks


def test_a_re_deal_leaves_every_publicly_known_card_with_its_holder(gd3):
    """A card every seat saw go into a hand (taken God side up, given on request) is known to
    be there until it moves publicly again: a re-deal of what a seat cannot see must leave it
    there, or a player that plans on re-deals forgets what every opponent remembers."""
    checked = 0
    for seed in (1, 2):
        for k, (s, p) in enumerate(greedy_positions(gd3, seed)):
            if k % 3:
                continue
            holder, _ = public_record(s.events, gd3.num_players)
            pinned = [(c, q) for c, q in holder.items() if q != p]
            for r in range(4):
                twin = s.scrambled(p, random.Random(r))
                for c, q in pinned:
                    assert twin.hand[q] >> c & 1, (seed, k, gd3.card_names[c], q)
                assert twin.hand_n == s.hand_n and [h.bit_count() for h in twin.hand] == \
                    [h.bit_count() for h in s.hand]
                checked += len(pinned)
    assert checked > 100


def test_a_re_deal_gives_no_seat_a_card_it_was_asked_for_in_vain(gd3):
    """A seat asked in vain for a card does not hold it, and can only come by it unseen by a
    Mummy side up take (a card given to it on request is known to be in its hand): a re-deal
    must not put the card there before."""
    checked = 0
    for seed in (1, 2):
        for k, (s, p) in enumerate(greedy_positions(gd3, seed)):
            if k % 3:
                continue
            holder, lacks = public_record(s.events, gd3.num_players)
            for r in range(4):
                twin = s.scrambled(p, random.Random(r))
                for q in range(gd3.num_players):
                    if q != p:
                        for c in lacks[q] - {c for c, h in holder.items() if h == q}:
                            assert not twin.hand[q] >> c & 1, (seed, k, gd3.card_names[c], q)
                            checked += 1
    assert checked > 20
