"""The Horus rules engine: one test per rule (a constructed position where the rule
decides), the rulebook's examples 3, 6 and 7 rebuilt as positions, our choices
where the rulebook is silent, the checker, seeded whole games, the debug picture and
the deck check against mutated copies of the game's data."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from conftest import copy_shipped, edit_file, problems_of
from PIL import Image

from cardgen.load.game import load_game
from cardgen.rules import CHANCE, TERMINAL, RuleViolation, rules_for
from cardgen.rules.horus.checker import HorusChecker
from cardgen.rules.horus.codec import (
    BOAT_BASE,
    CARD_BASE,
    DRAW_TILE_BASE,
    FROM_BASE,
    KIND_MASK,
    NECRO_BASE,
    NILE_ACTION,
    NO_STONE,
    P_BAG,
    P_BOATCHOICE,
    P_BOATPLACE,
    P_CARD,
    P_DRAW,
    P_FROM,
    P_PLACE,
    P_RIVERPLACE,
    P_RN,
    P_STACK,
    P_STONE,
    RIVER_BASE,
    STONE_BASE,
    TO_BASE,
    parse_board,
)
from cardgen.rules.horus.geometry import code, xy
from cardgen.rules.horus.scratch import NBR_XY, scratch_frontier, scratch_islands, scratch_regions, scratch_scores
from cardgen.rules.horus.spec import BOAT, NECRO, PYRAMID, RIVER, TEMPLE, WATER
from cardgen.rules.horus.state import HorusState
from cardgen.validation.simulate import play_game, run_config

D, HL, F, S = 0, 1, 2, 3
LETTERS = {"D": D, "H": HL, "F": F, "S": S, "~": RIVER, "B": BOAT, "P": PYRAMID, "N": NECRO, "T": TEMPLE, "X": NECRO}


@pytest.fixture(scope="module")
def horus_dir(tmp_path_factory) -> Path:
    return copy_shipped("horus", tmp_path_factory.mktemp("module"))


@pytest.fixture(scope="module")
def game(horus_dir):
    return load_game(horus_dir)


@pytest.fixture(scope="module")
def rules():
    return rules_for("horus")


@pytest.fixture(scope="module")
def g2(game, rules):
    return rules.load(game, 2)


@pytest.fixture(scope="module")
def g4(game, rules):
    return rules.load(game, 4)


def board(g, picture: str, stones=(), turn=None) -> HorusState:
    return HorusState.from_position(g, parse_board(picture, LETTERS), stones, turn=turn)


def region_sizes(s: HorusState) -> list[int]:
    return sorted(len(m) for m in s.reg_members.values())


def kind_at(s, x, y) -> int:
    return s.kind[s.at[code(x, y)]]


def places(actions, base=0) -> set[tuple[int, int]]:
    """The places the actions name (placing no stone names none)."""
    return {xy(a - base) for a in actions if a != NO_STONE}


def scratch(s):
    tiles = {xy(c): s.kind[slot] for slot, c in enumerate(s.pos)}
    stones = {xy(s.pos[slot]): p for slot, p in s.stone_at.items()}
    return tiles, stones


# --------------------------------------------------------------------------- geometry
def test_a_tile_may_touch_by_a_full_or_a_half_edge_never_by_a_corner_alone(g2):
    s = board(g2, """
        DD
        DD
    """)
    legal = places(s.place_options(HL))
    assert (2, 0) in legal and (0, 2) in legal  # full edges
    assert (2, 1) in legal and (2, -1) in legal and (1, 2) in legal and (-1, -2) in legal  # half edges
    assert (2, 2) not in legal and (-2, -2) not in legal  # a corner alone
    assert (1, 1) not in legal and (0, 0) not in legal and (1, 0) not in legal  # overlaps
    assert (3, 0) not in legal and (2, 3) not in legal  # apart
    assert len(legal) == 12  # each neighbour place on the half-tile lattice


def test_placing_a_tile_updates_the_free_places_incrementally(g2):
    s = board(g2, "DD\nDD")
    s._put(-1, HL, code(2, 1))
    assert {xy(c) for c in s.frontier} == scratch_frontier(scratch(s)[0])


# --------------------------------------------------------------------------- regions
EXAMPLE_3 = """
    HHHHFFFFFF..
    HHHHFFFFFF..
    HHHH~~TTDDFF
    HHHH~~TTDDFF
    ....~~NN....
    ....~~NN....
"""


def test_example_3_regions_are_touching_tiles_of_one_type(g2):
    s = board(g2, EXAMPLE_3)
    hill = s.reg[s.at[code(0, 0)]]
    field_b = s.reg[s.at[code(4, 0)]]
    assert len(s.reg_members[hill]) == 4  # (A) four Hill tiles
    assert len(s.reg_members[field_b]) == 3  # (B) three Field tiles …
    assert s.reg[s.at[code(10, 2)]] != field_b  # … the Desert (C) cuts off the Field (D)
    assert region_sizes(s) == [1, 1, 3, 4]
    for x, y in ((4, 2), (6, 2), (6, 4)):  # River, Temple, Necropolis: never part of a region
        assert s.reg[s.at[code(x, y)]] == -1
    assert set(map(frozenset, s.reg_members.values())) != set()
    assert {frozenset(xy(s.pos[m]) for m in ms) for ms in s.reg_members.values()} == \
        set(scratch_regions(scratch(s)[0], 4))


def test_regions_join_through_half_edges_and_merge_when_a_tile_links_them(g2):
    s = board(g2, """
        HH..HH
        HH..HH
        ......
    """)
    assert region_sizes(s) == [1, 1]
    s._put(-1, HL, code(2, 1))  # half an edge against each
    assert region_sizes(s) == [3]
    s._put(-1, NECRO, code(0, 3))
    s._put(-1, NECRO, code(2, 3))
    assert region_sizes(s) == [3]  # Necropolis tiles never form a region


def test_stones_follow_regions_when_they_merge(g2):
    s = board(g2, "HH..HH\nHH..HH", stones=[(0, 0, 0), (4, 0, 1)])
    s._put(-1, HL, code(2, 0))
    (rid,) = s.reg_members
    assert s.reg_stones[rid] == [1, 1]


# --------------------------------------------------------------------------- islands
RING = """
    ..~~..
    ..~~..
    ~~DD~~
    ~~DD~~
    ..~~..
    ..~~..
"""


def test_a_tile_enclosed_by_water_is_an_island_and_scores_double(g2):
    s = board(g2, RING, stones=[(2, 2, 0)])
    assert len(s.islands()) == 1
    assert s.scores() == [2, 0]
    assert set(scratch_islands(scratch(s)[0])) == {frozenset({(2, 2)})}


def test_an_edge_facing_empty_table_is_no_island(g2):
    s = board(g2, """
        ..~~..
        ..~~..
        ~~DD~~
        ~~DD~~
        ...~~.
        ...~~.
    """, stones=[(2, 2, 0)])  # the lower River tile is half a tile aside: half an edge faces the table
    assert s.islands() == [] and s.scores() == [1, 0]
    s._put(-1, RIVER, code(1, 4))  # closes the gap under the Desert's left half
    assert len(s.islands()) == 1 and s.scores() == [2, 0]


def test_an_island_may_hold_several_regions_and_land_tiles(g2):
    s = board(g2, """
        ..~~~~..
        ..~~~~..
        ~~DDNN~~
        ~~DDNN~~
        ..~~~~..
        ..~~~~..
    """, stones=[(2, 2, 1)])
    assert len(s.islands()) == 1 and s.scores() == [0, 2]


# --------------------------------------------------------------------------- Temple
EXAMPLE_6 = """
    ..DD....DD......
    ..DD....DD......
    ~~TTFFFFFFFF....
    ~~TTFFFFFFFF....
    ..HHHHHHHHHHHH..
    ..HHHHHHHHHHHH..
"""


def test_example_6_regions_touching_the_temple_double_up_to_ten(g2):
    s = board(g2, EXAMPLE_6, stones=[(2, 0, 0), (8, 0, 0), (4, 2, 0), (2, 4, 0)])
    temple = s.temple_regions()
    value = {xy(s.pos[ms[0]]): s.region_value(rid, temple) for rid, ms in s.reg_members.items()}
    assert value[(2, 0)] == 2  # the Desert (F) by the Temple: 1 × 2
    assert value[(8, 0)] == 1  # the other Desert (E)
    assert value[(4, 2)] == 8  # the Field (D): 4 × 2
    assert value[(2, 4)] == 10  # the Hills (C): 6 × 2 = 12, but 10 at most
    assert s.scores() == [21, 0]


def test_the_temple_goes_next_to_the_river_away_from_region_and_necropolis_tiles(g2):
    s = board(g2, """
        ..NN....
        ..NN....
        ~~~~PP~~
        ~~~~PP~~
        ..DD....
        ..DD....
    """)
    legal = places(s.place_options(TEMPLE))
    assert legal and all(any(kind_at(s, x + dx, y + dy) in WATER for dx, dy in NBR_XY
                             if code(x + dx, y + dy) in s.at) for x, y in legal)
    assert (0, 4) not in legal and (4, 4) not in legal and (6, 4) in legal  # the first two touch the Desert
    assert (4, 0) not in legal and (-2, 2) in legal and (6, 0) in legal  # (4, 0) touches the Necropolis


def test_a_temple_without_a_legal_place_is_removed(g2):
    s = board(g2, """
        DDDDDD
        DDDDDD
        DD~~DD
        DD~~DD
        DDDDDD
        DDDDDD
    """)
    assert s.place_options(TEMPLE) == []
    temple = next(t for t, k in enumerate(g2.tile_kind) if k == TEMPLE)
    s.queue = [("place",)]
    s.tile, s.face = temple, TEMPLE
    s._advance()
    assert s.removed == [temple] and s.temple_removed


# --------------------------------------------------------------------------- scoring
def test_example_7_majorities_ties_score_in_full(g4):
    B, K, Dm, P = range(4)
    tiles = []
    tiles += [(x, 0, HL) for x in range(0, 12, 2)]                 # a: Hills 6
    tiles += [(x, 2, F) for x in range(0, 6, 2)]                   # c: Field 3
    tiles += [(x, 2, S) for x in range(6, 16, 2)]                  # d: Swamp 5
    tiles += [(x, 4, D) for x in range(0, 8, 2)]                   # b: Desert 4
    tiles += [(20, 8, S), (24, 8, S)]                              # h1, h2: Swamp 1 each
    tiles += [(30, 0, TEMPLE)]
    tiles += [(x, 0, F) for x in range(32, 40, 2)]                 # e: Field 4 by the Temple
    tiles += [(x, 2, HL) for x in range(30, 42, 2)]                # g: Hills 6 by the Temple
    tiles += [(50, 0, D), (48, 0, RIVER), (52, 0, RIVER), (50, -2, RIVER), (50, 2, RIVER)]  # f: island
    tiles += [(60, 0, BOAT), (62, 0, PYRAMID), (64, 0, BOAT)]
    stones = [(0, 0, B), (2, 0, K), (4, 0, P),                   # a: 6 each to B, K, P
              (0, 4, B), (2, 4, Dm),                             # b: 4 to B, D
              (0, 2, B), (2, 2, K), (4, 2, P),                   # c: 3 to B, K, P
              (6, 2, B), (8, 2, Dm),                             # d: 5 to B, D
              (32, 0, B), (34, 0, P),                            # e: 8 to B, P
              (50, 0, K),                                        # f: 2 to K
              (30, 2, K), (32, 2, Dm),                           # g: 10 to K, D
              (20, 8, K), (24, 8, P)]                            # h1 to K, h2 to P
    s = HorusState.from_position(g4, tiles, stones)
    assert s.scores() == [26, 22, 19, 18]  # Barbara, Kathrin, Dominique, Peter
    t, st = scratch(s)
    assert scratch_scores(t, st, 4, 4, 10)[0] == [26, 22, 19, 18]
    assert s.returns() == [26.0, 22.0, 19.0, 18.0]


def test_the_cap_of_ten_holds_for_island_and_temple_together(g2):
    s = board(g2, """
        ..~~~~..
        ..~~~~..
        ~~DDTT~~
        ~~DDTT~~
        ..~~~~..
        ..~~~~..
    """, stones=[(2, 2, 0)])
    assert len(s.islands()) == 1 and s.temple_regions()
    assert s.scores() == [4, 0]  # 1 × 2 (Temple) × 2 (island)
    big = board(g2, "DDDDDD\nDDDDDD", stones=[(0, 0, 1)])  # 3 tiles: no doubling
    assert big.scores() == [0, 3]
    many = HorusState.from_position(g2, [(x, 0, D) for x in range(0, 24, 2)], [(0, 0, 0)])
    assert many.scores() == [10, 0]  # twelve tiles, ten points at most


def test_a_region_without_stones_scores_for_nobody_and_the_majority_takes_it(g2):
    s = board(g2, "DDDDDD\nDDDDDD", stones=[(0, 0, 0), (2, 0, 0), (4, 0, 1)])
    assert s.scores() == [3, 0]
    assert board(g2, "DDDD\nDDDD").scores() == [0, 0]


# --------------------------------------------------------------------------- Kingdom Stones
def hand_with(g, s, seat, *card_ids):
    kinds = {cid: k for k, (cid, _, _) in enumerate(g.card_kinds)}
    phys = []
    for cid in card_ids:
        k = kinds[cid]
        phys.append(next(c for c, kk in enumerate(g.card_of) if kk == k and c not in phys))
    s.hands[seat] = phys


def play_card_and_place(s, card_id, at):
    g = s.g
    k = next(k for k, (cid, _, _) in enumerate(g.card_kinds) if cid == card_id)
    s.apply_action(CARD_BASE + k)
    if s.phase == P_STACK:
        s.apply_action(s.legal_actions()[0])
    assert s.phase == P_PLACE
    s.apply_action(code(*at))


STONES = """
    DD..HHHH..FFFFFFFFFFFF
    DD..HHHH..FFFFFFFFFFFF
    ..~~PP~~..............
    ..BBPPBB..............
"""


def test_a_stone_goes_on_an_empty_tile_of_a_region_of_exactly_the_cards_size(g2):
    s = HorusState.from_position(g2, parse_board(STONES.replace("BB", "~~"), LETTERS), [(4, 0, 1)])
    hand_with(g2, s, 0, "swamp-2")
    play_card_and_place(s, "swamp-2", (22, 0))
    assert s.phase == P_STONE
    legal = places(s.legal_actions(), STONE_BASE)
    assert legal == {(6, 0)}  # the Hills: two tiles, one already taken
    assert NO_STONE in s.legal_actions()  # Action 4: a stone *may* be placed: none is a choice too
    # a size the table lacks: the stone is skipped
    s2 = HorusState.from_position(g2, parse_board(STONES.replace("BB", "~~"), LETTERS))
    hand_with(g2, s2, 0, "hill-4")
    play_card_and_place(s2, "hill-4", (22, 0))
    assert s2.phase != P_STONE and s2.stone_at == {}


def test_in_the_first_round_every_card_counts_as_one(g2):
    s = HorusState.from_position(g2, parse_board(STONES.replace("BB", "~~"), LETTERS), turn=1)
    assert s.round_one
    hand_with(g2, s, 0, "hill-2")
    play_card_and_place(s, "hill-2", (22, 0))
    assert places(s.legal_actions(), STONE_BASE) == {(0, 0), (22, 0)}  # the two single tiles


def test_regions_of_six_or_more_are_closed_even_to_question_mark_cards(g2):
    s = HorusState.from_position(g2, parse_board(STONES.replace("BB", "~~"), LETTERS))
    hand_with(g2, s, 0, "desert-any")
    play_card_and_place(s, "desert-any", (0, 2))  # the Desert grows to two
    legal = places(s.legal_actions(), STONE_BASE)
    assert legal == {(0, 0), (0, 2), (4, 0), (6, 0)}  # sizes 1–5; the six Fields are closed
    assert not any(x >= 10 for x, _ in legal)


# --------------------------------------------------------------------------- the River
START = """
    ..........
    BB~~PP~~BB
    BB~~PP~~BB
    ..........
"""


def bag_river(s):
    river = next(t for t, k in enumerate(s.g.tile_kind) if k == RIVER and not s.g.tile_double[t])
    s.queue = [("card",)]
    s.bag = [river]
    s.phase = P_BAG
    s.apply_action(DRAW_TILE_BASE + river)
    return river


def test_a_river_tile_from_the_bag_replaces_a_boat_which_moves_next_to_it_then_the_stack_tile(g2):
    s = HorusState.from_position(g2, parse_board(START, LETTERS))
    river = bag_river(s)
    assert s.phase == P_BOATCHOICE and s.legal_actions() == [BOAT_BASE, BOAT_BASE + 1]
    s.apply_action(BOAT_BASE + 1)
    assert kind_at(s, 8, 1) == RIVER and s.phys[s.at[code(8, 1)]] == river
    assert s.phase == P_BOATPLACE
    legal = places(s.legal_actions())
    assert legal and all(any((x - 8, y - 1) == d for d in NBR_XY) for x, y in legal)
    s.apply_action(code(10, 1))
    assert kind_at(s, 10, 1) == BOAT and s.boats[1] == s.at[code(10, 1)]
    # then one River / Necropolis tile from the stack, either side up or replacing a Boat
    assert s.phase == P_RN and len(s.stacks[g2.river_stack]) == 15
    acts = s.legal_actions()
    assert any(a >> 20 == RIVER_BASE >> 20 for a in acts) and any(a >> 20 == NECRO_BASE >> 20 for a in acts)
    assert BOAT_BASE in acts and BOAT_BASE + 1 in acts
    rivers = places([a for a in acts if a & ~KIND_MASK == RIVER_BASE], RIVER_BASE)
    assert all(code(x, y) in s.adj_water for x, y in rivers)  # next to the River
    necros = places([a for a in acts if a & ~KIND_MASK == NECRO_BASE], NECRO_BASE)
    assert necros >= rivers  # a Necropolis goes anywhere a tile may go (here: every place touches water)


def test_a_stack_river_tile_replacing_a_boat_lets_the_boat_go_next_to_any_river_tile(g2):
    s = HorusState.from_position(g2, parse_board(START, LETTERS))
    s.tile = s.stacks[g2.river_stack].pop()
    s.face = RIVER
    s.queue = [("rnchoice",)]
    s._advance()
    s.apply_action(BOAT_BASE + 0)
    legal = places(s.legal_actions())
    assert (2, -1) in legal and (6, 3) in legal  # next to the River far from the Boat's old place


BLOCK = """
    DDDDDDDDDD
    DDDDDDDDDD
    DDBB~~PPDD
    DDBB~~PPDD
    DD....DDDD
    DD....DDDD
    DDDDXXDDDD
    DDDDXXDDDD
"""


def test_no_tile_may_block_the_rivers_way_on_from_a_boat(g2):
    shut = HorusState.from_position(g2, parse_board(BLOCK.replace("X", "D"), LETTERS))
    assert shut.escape(code(2, 2)) is None  # an enclosed Boat has no way on (a position, not a game)
    s = HorusState.from_position(g2, parse_board(BLOCK.replace("X", "."), LETTERS) + [(20, 0, BOAT)])
    assert s.escape(code(2, 2)) is not None  # down through the gap at (4, 6)
    legal = places(s.place_options(HL))
    assert (4, 6) not in legal and (3, 4) not in legal and (4, 4) not in legal  # each closes the way
    assert (10, 0) in legal  # this leaves it open
    # the way runs over free table only: once (2, 4) is taken the Boat could only reach the
    # pocket through the River tile beside it, which is no way on (it would let the Boat be boxed in)
    assert (2, 4) not in legal
    # a River tile blocks like any other: the way never runs through water
    assert (3, 4) not in places(s.place_options(RIVER))


def test_a_tile_may_not_take_the_last_open_table_from_a_boat_even_away_from_its_way(g2):
    """Open table is a free place with no tile within three half-cells. Inside a closed
    ring of Deserts an 8 × 8 lake keeps a few open places; one tile can spoil them all
    without touching the Boat's way itself."""
    ring = [(x, 0, D) for x in range(0, 12, 2)] + [(x, 10, D) for x in range(0, 12, 2)]
    ring += [(0, y, D) for y in range(2, 10, 2)] + [(10, y, D) for y in range(2, 10, 2)]
    s = HorusState.from_position(g2, ring + [(2, 2, BOAT)])
    assert s.escape(code(2, 2)) is not None
    legal = places(s.place_options(HL))
    assert (4, 2) in legal  # open places remain, e.g. (6, 6)
    assert (3, 4) not in legal  # every place of the lake then has a tile within three half-cells
    assert (4, 3) not in legal  # the same, though it lies on no place of the Boat's shortest way
    assert s.escape(code(2, 2), code(4, 3)) is None
    assert not any(abs(xy(q)[0] - 4) <= 1 and abs(xy(q)[1] - 3) <= 1 for q in s.escape(code(2, 2)))
    chk = HorusChecker(g2)
    chk._init(s)
    s.tile, s.face, s.phase = next(t for t, k in enumerate(g2.tile_kind) if k == HL), HL, P_PLACE
    for p in ((3, 4), (4, 3)):
        with pytest.raises(RuleViolation, match="blocks the River"):
            chk.before(s, 0, code(*p))
    chk.before(s, 0, code(4, 2))  # the checker agrees the other one is fine


def test_a_bag_river_tile_with_no_boat_able_to_move_goes_next_to_the_river(g2):
    picture = """
        DDDDDDDDDDDD
        DDDDDDDDDDDD
        DDBB~~PPBBDD
        DDBB~~PPBBDD
        DDDD....DDDD
        DDDD....DDDD
        DDDDDD..DDDD
        DDDDDD..DDDD
    """
    s = HorusState.from_position(g2, parse_board(picture, LETTERS))
    # a constructed position play never reaches now: a way on runs over free table only, so
    # these Boats are shut in (the way past the Step Pyramid through the River does not count)
    assert s.escape(code(2, 2)) is None
    assert s.movable_boats(True) == []  # neither Boat has a free place next to it: the fallback
    bag_river(s)
    assert s.phase == P_RIVERPLACE
    assert (4, 4) in places(s.legal_actions(), RIVER_BASE)


# --------------------------------------------------------------------------- the Nile card
NILE = """
    DDDD..HH..
    DDDD..HH..
    ~~~~PP~~~~
    BB~~PP~~BB
    ....FF....
    ....FF....
"""


def test_the_nile_card_places_two_tiles_then_moves_a_stone_between_regions_by_the_river(g2):
    s = HorusState.from_position(g2, parse_board(NILE.replace("BB", "~~"), LETTERS) +
                                   [(-2, 3, BOAT), (10, 3, BOAT)],
                                   stones=[(0, 0, 0), (2, 0, 0), (6, 0, 1)])
    hand_with(g2, s, 0, "desert-1")
    assert NILE_ACTION in s.legal_actions()
    left = len(s.stacks[g2.river_stack])
    s.apply_action(NILE_ACTION)
    for _ in range(2):
        assert s.phase == P_RN
        s.apply_action(next(a for a in s.legal_actions() if a & ~KIND_MASK == NECRO_BASE))
    assert len(s.stacks[g2.river_stack]) == left - 2
    assert s.phase == P_FROM
    assert places(s.legal_actions(), FROM_BASE) == {(0, 0), (2, 0)}  # own stones only
    s.apply_action(FROM_BASE + code(0, 0))
    targets = places(s.legal_actions(), TO_BASE)
    assert targets == {(4, 4)}  # the Field by the River; not the Hill's taken tile, not the same Desert
    s.apply_action(TO_BASE + code(4, 4))
    assert {xy(s.pos[k]): v for k, v in s.stone_at.items()} == {(2, 0): 0, (4, 4): 0, (6, 0): 1}
    assert not s.nile[0] and s.hands[0]  # played once; the Horus card stays in hand
    assert s.current_player() in (CHANCE, 1)


# --------------------------------------------------------------------------- stacks and the end
def test_an_empty_stack_makes_every_hand_drop_its_cards_and_draw_again(g2):
    s = g2.new_initial_state()
    rng = random.Random(3)
    s.apply_chance_run(rng)
    hill = g2.stack_ids.index("hill")
    s.stacks[hill] = [s.stacks[hill][0]]
    hand_with(g2, s, 0, "hill-1", "hill-2", "desert-1")
    hand_with(g2, s, 1, "hill-3", "field-1")
    s.phase = P_CARD
    s.queue = []
    s.apply_action(CARD_BASE + [cid for cid, _, _ in g2.card_kinds].index("hill-1"))
    assert s.stacks[hill] == []
    assert not any(g2.card_kinds[g2.card_of[c]][1] == hill for h in s.hands for c in h)
    s.apply_action(s.legal_actions()[0])  # place the last Hill tile
    while s.current_player() == CHANCE:
        s.apply_action(s.sample_chance(rng))
    assert all(len(h) == 5 for h in s.hands)
    assert not any(g2.card_kinds[g2.card_of[c]][1] == hill for h in s.hands for c in h)


def test_an_empty_draw_pile_takes_the_discards_without_cards_of_empty_stacks(g2):
    s = HorusState.from_position(g2, parse_board(START, LETTERS))
    hill = g2.stack_ids.index("hill")
    s.stacks[hill] = []
    names = [cid for cid, _, _ in g2.card_kinds]
    hill_cards = [c for c in range(g2.ncards) if g2.card_kinds[g2.card_of[c]][1] == hill]
    other = [c for c in range(g2.ncards) if c not in hill_cards]
    s.deck = []
    s.discard = hill_cards[:3] + other[:6]
    s.hands[0] = []
    s.draw_seats = [0]
    s.queue = []
    assert s._refill_ready() and s.phase == P_DRAW
    assert sorted(s.deck) == sorted(other[:6]) and s.discard == hill_cards[:3]
    rng = random.Random(1)
    while s.phase == P_DRAW:
        s.apply_action(s.sample_chance(rng))
    assert len(s.hands[0]) == 5 and not set(s.hands[0]) & set(hill_cards)
    assert "hill-1" in names


def test_the_temple_from_the_bag_goes_next_to_the_river(g2):
    s = HorusState.from_position(g2, parse_board(START, LETTERS))
    temple = next(t for t, k in enumerate(g2.tile_kind) if k == TEMPLE)
    s.queue = [("card",)]
    s.bag = [temple]
    s.phase = P_BAG
    s.apply_action(DRAW_TILE_BASE + temple)
    assert s.phase == P_PLACE and s.face == TEMPLE
    legal = places(s.legal_actions())
    assert legal == places(s.place_options(TEMPLE)) and (4, 3) in legal
    s.apply_action(code(4, 3))
    assert kind_at(s, 4, 3) == TEMPLE and s.phase == P_CARD


def test_the_game_ends_when_a_second_stack_runs_out_after_that_players_turn(g2):
    s = g2.new_initial_state()
    rng = random.Random(5)
    s.apply_chance_run(rng)
    desert, hill = g2.stack_ids.index("desert"), g2.stack_ids.index("hill")
    s.stacks[desert] = []
    s.stacks[hill] = [s.stacks[hill][0]]
    # the tiles taken away go to the "removed" pile so that the count stays 120
    hand_with(g2, s, 0, "hill-1")
    s.phase = P_CARD
    s.queue = []
    s.apply_action(CARD_BASE + [cid for cid, _, _ in g2.card_kinds].index("hill-1"))
    assert not s.is_terminal()  # the player finishes the turn
    s.apply_action(s.legal_actions()[0])
    while not s.is_terminal() and s.current_player() == 0:
        s.apply_action(s.legal_actions()[0])
    assert s.is_terminal() and s.current_player() == TERMINAL and s.player == 0


# --------------------------------------------------------------------------- checker
def test_the_checker_rejects_an_illegal_stone_and_a_corrupted_region(g2):
    s = HorusState.from_position(g2, parse_board(STONES.replace("BB", "~~"), LETTERS))
    chk = HorusChecker(g2)
    hand_with(g2, s, 0, "field-3")
    s.apply_action(CARD_BASE + [cid for cid, _, _ in g2.card_kinds].index("field-3"))
    s.apply_action(code(22, 0))
    s.phase = P_STONE
    with pytest.raises(RuleViolation, match="region of 2 tiles with a card of size 3"):
        chk.before(s, 0, STONE_BASE + code(4, 0))
    chk2 = HorusChecker(g2)
    t = HorusState.from_position(g2, parse_board(STONES.replace("BB", "~~"), LETTERS))
    chk2._init(t)
    chk2.groups(t)  # as built: the same
    rid = t.reg[t.at[code(4, 0)]]
    t.reg_members[rid].pop()  # an incremental region that lost a tile
    with pytest.raises(RuleViolation, match="regions differ"):
        chk2.groups(t)


def test_the_checker_rejects_a_tile_that_touches_nothing_or_blocks_a_boat(g2):
    s = HorusState.from_position(g2, parse_board(START, LETTERS))
    s.tile = next(t for t, k in enumerate(g2.tile_kind) if k == D)
    s.face = D
    s.phase = P_PLACE
    chk = HorusChecker(g2)
    chk._init(s)
    with pytest.raises(RuleViolation, match="shares no edge"):
        chk.before(s, 0, code(14, 1))  # four half-cells from the last Boat
    with pytest.raises(RuleViolation, match="overlaps"):
        chk.before(s, 0, code(1, 1))


# --------------------------------------------------------------------------- whole games
@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("kind", ["random", "greedy"])
def test_seeded_whole_games_pass_every_check(game, rules, n, kind):
    res = run_config(rules.load(game, n), rules.agents[kind], kind, True, 6, 11, check_every=4)
    assert res.failure_count == 0, res.failures
    assert res.completed == 6
    assert all(20 <= x <= 45 for x in res.lengths), res.lengths


def test_a_clone_plays_on_exactly_like_its_original(game, rules):
    gd = rules.load(game, 3)
    s = gd.new_initial_state()
    rng = random.Random(4)
    agents = [rules.agents["greedy"](gd, i) for i in range(3)]

    def play(state, rng, steps=10 ** 6):
        views = [state.observation(i) for i in range(3)]
        while steps and not state.is_terminal():
            p = state.current_player()
            if p == CHANCE:
                state.apply_chance_run(rng)
            else:
                state.apply_action(agents[p].act(views[p], state.legal_actions(), rng))
            steps -= 1

    play(s, rng, 120)
    c = s.clone()
    c.stacks[0].append(-99)  # the clone's lists are its own
    assert -99 not in s.stacks[0]
    c.stacks[0].pop()
    play(s, random.Random(99))
    play(c, random.Random(99))
    assert (s.scores(), s.turn, s.pos) == (c.scores(), c.turn, c.pos)


def test_every_step_cross_checked_from_scratch(game, rules, monkeypatch):
    """With the from-scratch recomputation at every step, the incremental regions,
    islands and free places still agree with it all game long."""
    monkeypatch.setattr(HorusChecker, "SCRATCH_EVERY", 1)
    calls = []
    groups = HorusChecker.groups
    monkeypatch.setattr(HorusChecker, "groups", lambda self, s, final=False: calls.append(1) or groups(self, s, final))
    for n, kind, seed in ((2, "greedy", 3), (4, "random", 8)):
        calls.clear()
        out = play_game(rules.load(game, n), rules.agents[kind], seed, check_every=1)
        assert out.status == "ok", out.message
        assert len(calls) >= out.steps // 2  # every decision step and every run of chance steps


def test_a_seed_replays_the_same_game(g2, rules):
    outs = [play_game(g2, rules.agents["greedy"], 42, 16) for _ in range(2)]
    assert outs[0] == outs[1] and outs[0].status == "ok"


def test_the_final_state_conserves_tiles_and_stones_and_gives_figures(g4, rules):
    final = []
    out = play_game(g4, rules.agents["random"], 9, 1, final=final)
    assert out.status == "ok", out.message
    s = final[0]
    held = 1 if s.tile >= 0 else 0
    assert len(s.bag) + sum(map(len, s.stacks)) + len(s.kind) + len(s.removed) + held == 120
    assert len(s.stone_at) + sum(s.stones_left) == 80
    fig = s.figures()
    assert len(fig["score"]) == 4 and fig["score"] == [float(x) for x in s.scores()]
    terrain_tiles = sum(1 for k in s.kind if k < 4)
    assert sum(fig["region_size"]) == terrain_tiles
    assert fig["islands"] == len(scratch_islands(scratch(s)[0]))
    assert sum(1 for st in s.stacks if not st) >= 2


def test_greedy_players_use_the_nile_card_to_move_stones(game, rules):
    gd = rules.load(game, 3)
    lines: list[str] = []
    for seed in range(1, 6):
        out = play_game(gd, rules.agents["greedy"], seed, trace=lambda step, p, text: lines.append(text))
        assert out.status == "ok", out.message
    played = sum("plays the Nile card" in t for t in lines)
    moved = sum("moves it to" in t for t in lines)
    assert 0 < moved <= played <= 15  # at most once per seat and game


def test_a_greedy_player_beats_random_players_more_often_than_not(game, rules):
    gd = rules.load(game, 2)

    def mixed(gamedef, seat):
        return (rules.agents["greedy"] if seat == 0 else rules.agents["random"])(gamedef, seat)

    res = run_config(gd, mixed, "mixed", True, 20, 100)
    assert res.failure_count == 0
    assert res.wins[0] > res.wins[1], res.wins


# --------------------------------------------------------------------------- the picture
def test_draw_writes_the_final_table_of_one_seed(horus_dir, cli, tmp_path):
    out = tmp_path / "table.png"
    r = cli("validate", horus_dir, "--seed", 7, "--players", 3, "--agents", "greedy", "--draw", out)
    assert r.exit_code == 0, r.output
    assert "drew seed 7 (3 players, greedy" in r.stdout
    with Image.open(out) as img:
        assert img.width > 300 and img.height > 300
        colours = {c for _, c in img.getcolors(1 << 16)}
    assert (0x3d, 0x7f, 0xd6) in colours  # water is drawn


def test_draw_needs_a_seed_and_a_game_that_can_draw(horus_dir, cli, tmp_path):
    r = cli("validate", horus_dir, "--draw", tmp_path / "x.png")
    assert r.exit_code == 2 and "--draw draws one game: say which with --seed S" in r.output
    r = cli("validate", "egypt", "--seed", 3, "--draw", tmp_path / "x.png")
    assert r.exit_code == 1
    assert r.stderr.strip().splitlines() == \
        ["error: the rules of 'egypt' cannot draw a game (their state has no draw method)"]
    assert not (tmp_path / "x.png").exists()


def test_validate_horus_passes_on_the_shipped_data(horus_dir, cli):
    r = cli("validate", horus_dir, "--games", 2)
    assert r.exit_code == 0, r.output
    assert "120 cards in deck 'tiles'" in r.stdout and "80 cards in deck 'stones'" in r.stdout
    assert "Result: OK" in r.stdout


# --------------------------------------------------------------------------- deck mutations
def line_of(folder: Path, problem: str) -> str:
    m = re.search(r"game\.yaml:(\d+)", problem)
    assert m, problem
    return (folder / "game.yaml").read_text(encoding="utf-8").splitlines()[int(m.group(1)) - 1]


def test_mutation_the_shipped_data_has_no_problem(horus_copy):
    assert problems_of(horus_copy) == []


def test_mutation_a_miscounted_tile_is_named_at_its_line(horus_copy):
    edit_file(horus_copy / "game.yaml", "{id: hill-bag, front: hill, back: tan, where: bag, count: 12}",
              "{id: hill-bag, front: hill, back: tan, where: bag, count: 11}")
    problems = problems_of(horus_copy)
    data = [p for p in problems if "tile 'hill-bag': 11 hill tile with a tan back in the bag; the rules need 12"
            " (20 hill tiles in all: 12 in the bag, 8 in the hill stack)" in p]
    assert len(data) == 1, problems
    assert "hill-bag" in line_of(horus_copy, data[0])
    assert any("card hill tile with a tan back in the bag is printed 11 times as 'hill-bag' (quantity 11);"
               " the rules need 12" in p for p in problems), problems


def test_mutation_a_deleted_tile_is_named(horus_copy):
    edit_file(horus_copy / "game.yaml",
              "    - {id: temple, front: temple, back: tan, where: bag, count: 1}             # RULES\n", "")
    problems = problems_of(horus_copy)
    assert any(re.search(r"game\.yaml:\d+:\d+: no temple tile with a tan back in the bag: the rules need 1$", p)
               for p in problems), problems
    assert any("card temple tile with a tan back in the bag is missing from deck 'tiles'" in p for p in problems)


def test_mutation_a_duplicated_tile_entry_is_named(horus_copy):
    edit_file(horus_copy / "game.yaml",
              "    - {id: boat, front: boat, back: silver, where: start, count: 2}",
              "    - {id: boat, front: boat, back: silver, where: start, count: 2}\n"
              "    - {id: boat-2, front: boat, back: silver, where: start, count: 2}")
    problems = problems_of(horus_copy)
    hit = [p for p in problems if "tile 'boat-2': 2 + 2 boat tile with a silver back on the table at the start;"
           " the rules need 2" in p]
    assert hit and "boat-2" in line_of(horus_copy, hit[0]), problems


def test_mutation_a_horus_card_too_many_and_a_wrong_size_are_named(horus_copy):
    edit_file(horus_copy / "game.yaml", "{id: any-any, tile: any, size: any, count: 1}",
              "{id: any-any, tile: any, size: 6, count: 2}")
    problems = problems_of(horus_copy)
    assert any("'horus_cards' count 51 cards; the rules have 50" in p for p in problems), problems
    size = [p for p in problems if "Horus card 'any-any': size 6 is not 1–5" in p]
    assert size and "size: 6" in line_of(horus_copy, size[0])


def test_mutation_stones_and_nile_cards_are_counted(horus_copy):
    edit_file(horus_copy / "game.yaml", "{id: gold, shape: star, count: 20,", "{id: gold, shape: star, count: 19,")
    edit_file(horus_copy / "game.yaml", '      - id: nile\n        quantity: "{nile_cards}"',
              "      - id: nile\n        quantity: 3")
    problems = problems_of(horus_copy)
    gold = [p for p in problems if "stone colour 'gold' has 19 stones; the rules give each player 20" in p]
    assert gold and "gold" in line_of(horus_copy, gold[0])
    assert any("card stone-gold is printed 19 times as 'stone-gold' (quantity 19); the rules need 20" in p
               for p in problems), problems
    nile = [p for p in problems if "card Nile card is printed 3 times as 'nile' (quantity 3); the rules need 4" in p]
    assert nile and "id: nile" in line_of(horus_copy, nile[0])


def test_mutation_a_shared_stone_shape_and_a_missing_stack_are_named(horus_copy):
    edit_file(horus_copy / "game.yaml", "{id: blue, shape: square, count: 20,", "{id: blue, shape: circle, count: 20,")
    edit_file(horus_copy / "game.yaml", "stacks: [desert, hill, field, swamp, river]", "stacks: [desert, hill, field, swamp]")
    problems = problems_of(horus_copy)
    assert any("stone colours 'white' and 'blue' share the shape 'circle'" in p for p in problems), problems
    assert any("the rules have five face-up stacks" in p and "stacks" in line_of(horus_copy, p) for p in problems)


def test_mutation_bad_counts_stop_the_games_with_a_clear_message(horus_copy, cli):
    edit_file(horus_copy / "game.yaml", "{id: swamp-stack, front: swamp, back: purple, where: swamp, count: 8}",
              "{id: swamp-stack, front: swamp, back: purple, where: swamp, count: 9}")
    r = cli("validate", horus_copy, "--games", 1)
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert "Play: FAILED — the deck does not match the rules" in r.stdout
    assert "swamp-stack" in r.stdout


def test_action_4_the_player_may_place_no_kingdom_stone(g2):
    """Action 4 says a Kingdom Stone *may* be placed in a region of the card's size: the
    player may also place none, and the turn goes on to Action 5 with the stone kept."""
    s = HorusState.from_position(g2, parse_board(STONES.replace("BB", "~~"), LETTERS), [(4, 0, 1)])
    hand_with(g2, s, 0, "swamp-2")
    play_card_and_place(s, "swamp-2", (22, 0))
    assert s.phase == P_STONE and NO_STONE in s.legal_actions()
    left = s.stones_left[0]
    chk = HorusChecker(g2)
    chk._init(s)
    chk.before(s, 0, NO_STONE)  # the checker allows it
    s.apply_action(NO_STONE)
    assert s.stones_left[0] == left and all(p != 0 for p in s.stone_at.values())
    assert s.phase != P_STONE


@pytest.mark.parametrize("seed", [3, 8])
def test_what_a_seat_sees_is_always_the_table_as_it_is_now(game, rules, seed):
    """A seat's observation shows the table of this very step (its regions, lands, free
    places, Boats and stones), even where the state reuses what it copied earlier: at every
    step it equals the observation of a fresh copy of the state, made from the state alone."""
    gd = rules.load(game, 3)
    s = gd.new_initial_state()
    rng = random.Random(seed)
    agents = [rules.agents["greedy"](gd, i) for i in range(3)]
    steps = 0
    while not s.is_terminal():
        p = s.current_player()
        if p == CHANCE:
            s.apply_chance_run(rng)
            continue
        fresh = s.clone()
        fresh._tiles_public = fresh._public = None  # nothing copied earlier: made from the state alone
        for seat in range(3):
            seen, made = s.observation(seat), fresh.observation(seat)
            assert seen == made, f"step {steps}, seat {seat + 1}"
            assert list(seen.board.touch) == list(made.board.touch)  # in the same order too: a player may walk it
        s.apply_action(agents[p].act(s.observation(p), s.legal_actions(), rng))
        steps += 1
    assert steps > 50
