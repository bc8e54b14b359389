"""The independent checker of every Horus step (:class:`HorusChecker`): the rules
judged on its own copy of the table, then the engine compared with it.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Collection
from typing import TYPE_CHECKING

from ..api import RuleViolation, check_offered
from . import rulebook
from .checker_record import Before, CardRecord, TurnRecord, public_outcome, public_view, stones_in_supply
from .codec import (
    BOAT_BASE,
    CARD_BASE,
    KIND_MASK,
    NECRO_BASE,
    NILE_ACTION,
    NO_STONE,
    OFF,
    P_BOATCHOICE,
    P_BOATPLACE,
    P_CARD,
    P_FROM,
    P_PLACE,
    P_RIVERPLACE,
    P_RN,
    P_STACK,
    P_STONE,
    P_TO,
    PHASE_NAMES,
    RIVER_BASE,
    STACK_BASE,
    W,
    code,
)
from .scratch import (
    K_AROUND,
    K_CROWD,
    K_CROWDSET,
    K_NBR,
    K_NBRSET,
    K_OFF,
    K_OVERSET,
    K_W,
    cells_of,
    frontier_of,
    islands_of,
    k_around,
    key_of_code,
    key_xy,
    regions_of,
    scores_of,
)
from .spec import ANY, BOAT, NECRO, PYRAMID, RIVER, TEMPLE, WATER

if TYPE_CHECKING:  # for annotations only
    from .spec import HorusSpec
    from .state import HorusState


class HorusChecker:
    """Judges every action by the rules on its own copy of the table (places as ints
    of its own coding, see :func:`.scratch.key`; groups by breadth-first search), never with
    the engine's move lists or incremental groups; then checks the engine against it.

    Every step: the action's rule (a tile on free table, touching a tile by at least
    half an edge, River side next to water, the Temple next to water and away from
    region and Necropolis tiles, no Boat left without its way on; a stone on an
    empty region tile of the card's size, first round 1, never in a closed region;
    a Nile move between regions touching the River; a card from the hand) and the
    counts (120 tiles, 80 stones). Every ``full`` step: each physical tile and card
    exactly once, the stones and the Boats where the rules put them. Every
    ``SCRATCH_EVERY``-th full step and at the end (the expensive part, sampled): the
    whole table, no overlap, the free places next to the table, and every region
    and island recomputed from scratch and compared with the engine's incremental
    ones. At the end: two stacks empty (or nothing left to do), each Boat's way on
    searched afresh, the scores recomputed from scratch."""

    def __init__(self, game: HorusSpec):
        self.g = game
        self.started = False  # the own table is made from the state at the first step seen
        self.tiles: dict[int, int] = {}
        # the places a tile would overlap one at, kept as tiles are added (never taken away),
        # so that the way-on search asks one set instead of four half-cells
        self.overlapped: set[int] = set()
        # places found to have a tile's place within three half-cells (never open table again)
        self.crowded: set[int] = set()
        self.stones: dict[int, int] = {}
        self.boats: list[int | None] = [None, None]
        self.expect: tuple | None = None
        self.removed = 0
        self.total_stones = sum(game.stones_each)
        self.lifted: tuple = (-1, None)
        self.ways: dict[int, tuple[list, int]] = {}  # Boat -> (free places, end) of its way
        self.every_tile = list(range(game.total_tiles))  # each physical tile once, in order
        self.every_card = list(range(game.ncards))
        # the checker's own count of turns (a turn is a run of one seat's decisions), for the
        # first round, in which every card counts as size 1 (not the engine's flag)
        self.turns_seen = 0
        self.actor = -1
        self.fulls = 0  # full checks so far
        self.scratches = 0  # of which with every group recomputed from scratch
        self.bbox = (1 << 30, -(1 << 30), 1 << 30, -(1 << 30))  # of the places, in offset coordinates
        self.move_from: int | None = None
        # the checker's own record of what each seat did: the Nile cards played (once a game
        # each), the stones placed, and a Kingdom Stone step due but not yet offered this turn
        self.nile_played: set[int] = set()
        self.placed = [0] * game.num_players
        self.stone_due: tuple[int, int] | None = None  # (seat, the size its card asks)
        self.stone_steps = 0  # the stone decisions seen: every STONE_SAMPLE-th is compared in full
        self.place_steps = 0  # and the placement decisions, every PLACE_SAMPLE-th
        self.every_step_full = True  # every step so far checked in full: the deep pass
        self.card_steps = 0  # and the card decisions
        # the checker's record of the cards' places and of the turns (made with its table); the
        # step before was checked in full (every step in the deep pass): every list, the views
        # and the outcome text are compared at this one
        self.cards: CardRecord | None = None
        self.turns: TurnRecord | None = None
        self.prev_full = True
        self.turn_card = -1  # the Horus card kind played this turn (-2: the Nile card; -1: none yet)
        self.outcome_from: Before | None = None

    # -- the checker's own table ---------------------------------------------------
    def _init(self, s: HorusState) -> None:
        self.started = True
        self.turns_seen = s.turn  # a constructed position starts at its turn
        self.tiles = {}
        for slot, c in enumerate(s.pos):
            self._add(key_of_code(c), s.kind[slot])
        for slot, p in s.stone_at.items():
            self.stones[key_of_code(s.pos[slot])] = p
        self.boats = [key_of_code(s.pos[b]) if b is not None else None for b in s.boats]
        self.removed = len(s.removed)
        self.cards = CardRecord(self.g, s)
        self.turns = TurnRecord(self.g, s)
        self.turns.drawn_this_turn = True  # the first turn's tile was drawn before the record began
        # a constructed position may start after this turn's card was played: the board shows it to all
        self.turn_card = s.observation(0).board.card

    def _add(self, q: int, kind: int) -> None:
        self.tiles[q] = kind
        self.overlapped.update(range(q - K_W - 1, q - K_W + 2), range(q - 1, q + 2), range(q + K_W - 1, q + K_W + 2))
        qx = q // K_W
        qy = q - qx * K_W
        x0, x1, y0, y1 = self.bbox
        self.bbox = (min(x0, qx), max(x1, qx + 1), min(y0, qy), max(y1, qy + 1))

    def _is_free(self, q: int) -> bool:
        """No tile overlaps place ``q``: two tiles overlap when their places are within
        one half-cell along both axes."""
        return q not in self.overlapped

    def _touching(self, q: int) -> list[int]:
        """The kinds of the tiles touching place ``q``."""
        return [k for k in map(self.tiles.get, K_AROUND.get(q) or k_around(q)) if k is not None]

    def _crowded(self, q: int) -> bool:
        """Has place ``q`` a tile's place within three half-cells? A yes is remembered:
        tiles are never taken away, and the search asks about the same places again
        and again."""
        if q in self.crowded:
            return True
        if self.tiles.keys().isdisjoint(map(q.__add__, K_CROWD)):
            return False
        self.crowded.add(q)
        return True

    def _boat_open(self, b: int, extra: int | None, water: bool = False, placed: bool = False) -> bool:
        """Can the River go on from a Boat at ``b``: a chain of places, each touching the
        one before, each free table, from ``b`` to an open place (free,
        no tile within a tile's width)? ``extra``: a tile about to be placed there
        (a water tile if ``water``). Searched outwards first; the way found is kept,
        and a later tile that lands neither on its free places nor near its end
        leaves it open without a new search. ``placed``: ``extra`` is the tile being
        placed (so a way found with it stays true on the table)."""
        keep = extra is None or placed
        known = self.ways.get(b)
        over = K_OVERSET
        if known is not None and extra is not None:
            free, end = known
            if end - extra not in K_CROWDSET:
                # untouched by the new tile: the way is still open
                if all(f - extra not in over for f in free):
                    return True
        x0, x1, y0, y1 = self.bbox
        tiles = self.tiles
        overlapped = self.overlapped
        crowded = self.crowded
        crowd = K_CROWDSET
        ex = extra if extra is not None else -(1 << 40)  # far from everything
        parent: dict[int, int | None] = {b: None}
        heap = [(0, b)]
        pop = heapq.heappop
        push = heapq.heappush
        around = K_AROUND
        while heap:
            q = pop(heap)[1]
            for r in around.get(q) or k_around(q):
                if r in parent:
                    continue
                parent[r] = q
                if r == extra or r in tiles:  # the rulebook: Boats may not be blocked; our reading:
                    continue  # a way over free table only, never through the River to its other end
                # free, then open
                elif r in overlapped or r - ex in over:
                    continue
                elif r - ex not in crowd and r not in crowded and not self._crowded(r):
                    free = []
                    end = r
                    back: int | None = r
                    while back is not None and back != b:
                        if back not in tiles and back != extra:
                            free.append(back)
                        back = parent[back]
                    if keep:
                        self.ways[b] = (free, end)
                    return True
                rx = r // K_W
                ry = r - rx * K_W
                push(heap, (min(rx - x0, x1 - rx, ry - y0, y1 - ry), r))
        if keep:
            self.ways.pop(b, None)
        return False

    def _region(self, q: int) -> set[int]:
        kind = self.tiles[q]
        get = self.tiles.get
        seen = {q}
        todo = [q]
        while todo:
            for r in k_around(todo.pop()):
                if r not in seen and get(r) == kind:
                    seen.add(r)
                    todo.append(r)
        return seen

    def _region_touches_water(self, reg: Collection[int]) -> bool:
        return any(k in WATER for q in reg for k in self._touching(q))

    # -- per action ---------------------------------------------------------------
    def before(self, s: HorusState, player: int, action: int) -> None:
        if not self.started:
            self._init(s)
        if player != s.player:
            raise RuleViolation(f"seat {player + 1} acts in seat {s.player + 1}'s turn")
        turns = self.turns
        assert turns is not None  # made with the table
        if self.actor >= 0 and (player != self.actor or s.turn != turns.turn):
            turns.new_turn(s, player)
            self.turn_card = -1
        turns.bag_drawn(s)
        if self.prev_full:  # what every seat sees, and the outcome text of this step
            public_view(s, player, self.turn_card)
            self.outcome_from = Before(s)
        if player != self.actor:
            if self.actor >= 0:
                self._turn_over(s, self.actor)
            self.actor = player
            self.turns_seen += 1
        ph = s.phase
        base = action & ~KIND_MASK
        arg = action & KIND_MASK
        self.expect = None
        if ph in (P_PLACE, P_RIVERPLACE, P_RN, P_BOATCHOICE, P_BOATPLACE):
            self._placements_offered(s, ph)
        if ph in (P_PLACE, P_RIVERPLACE, P_BOATPLACE) or (ph == P_RN and base in (RIVER_BASE, NECRO_BASE)):
            self._tile_placed(s, ph, base, arg)
        elif base == BOAT_BASE and ph in (P_BOATCHOICE, P_RN):
            self._boat_lifted(s, ph, arg)
        elif ph == P_CARD:
            self._card_played(s, player, action)
        elif ph == P_STACK:
            self._stack_chosen(s, arg)
        elif ph == P_STONE:
            self._stone_placed(s, player, action, arg)
        elif ph == P_FROM:
            self._nile_from(player, arg)
        elif ph == P_TO:
            self._nile_to(s, arg)
        else:
            raise RuleViolation(f"action {action} in phase {PHASE_NAMES[ph]}")

    # The rulebook's actions, one method each: what the action must satisfy.
    def _tile_placed(self, s: HorusState, ph: int, base: int, arg: int) -> None:
        """Actions 1 and 3, a tile placed: the tile in hand, as the kind it may be placed as
        (Extending the River: a bag River tile replaces a Boat when one can move), by the
        Tile Placement Rules."""
        g = self.g
        if s.tile < 0:
            raise RuleViolation("a tile is placed, but none is in hand")
        front = g.tile_kind[s.tile]
        if ph == P_PLACE:
            kind = front
            if kind in WATER or kind == NECRO:
                raise RuleViolation(f"a {g.kind_name(kind)} tile placed as an ordinary tile")
        elif ph == P_BOATPLACE:
            kind = BOAT
            if front != BOAT:
                raise RuleViolation("a Boat is put down, but the tile in hand is not a Boat")
        elif ph == P_RIVERPLACE:
            kind = RIVER
            if front != RIVER:
                raise RuleViolation("a River place for a tile that is not River")
        else:
            kind = RIVER if base == RIVER_BASE else NECRO
            if not g.tile_double[s.tile]:
                raise RuleViolation("a River / Necropolis choice for a tile that is not double-sided")
        if ph == P_RIVERPLACE and self._a_boat_can_move():
            raise RuleViolation("a bag River tile is placed without replacing a Boat, although one could move")
        q = key_of_code(arg)
        self._check_place(s, q, kind)
        self.expect = ("tile", q, kind)

    def _boat_lifted(self, s: HorusState, ph: int, b: int) -> None:
        """The River Changes Course: a Boat on the table is lifted, a River tile takes its place."""
        if b not in (0, 1):
            raise RuleViolation(f"Boat {b + 1} is not on the table")
        q = self.boats[b]
        if q is None:
            raise RuleViolation(f"Boat {b + 1} is not on the table")
        if ph == P_BOATCHOICE and self.g.tile_kind[s.tile] != RIVER:
            raise RuleViolation("only a River tile replaces a Boat")
        self.tiles[q] = RIVER
        self.boats[b] = None
        self.ways.pop(q, None)
        self.lifted = (b, q if ph == P_BOATCHOICE else None)

    def _card_played(self, s: HorusState, player: int, action: int) -> None:
        """Action 2: a Horus card from the hand, or the Nile card (once a game, with River /
        Necropolis tiles left); Action 4 is then due."""
        g = self.g
        self.card_steps += 1
        if self.prev_full or not self.card_steps % self.STONE_SAMPLE:
            self._cards_offered(s, player)
        assert self.cards is not None  # made with the table
        self.turn_card = -2 if action == NILE_ACTION else action - CARD_BASE
        if action != NILE_ACTION:
            self.cards.play(player, action)
        if action == NILE_ACTION:
            if not s.nile[player] or player in self.nile_played:
                raise RuleViolation(f"seat {player + 1} plays a Nile card it no longer has: the Nile card"
                                    " is played once a game")
            self.nile_played.add(player)
            if not s.stacks[g.river_stack]:
                raise RuleViolation("the Nile card is played with the River / Necropolis stack empty")
        else:
            k = action - CARD_BASE
            if k not in [g.card_of[c] for c in s.hands[player]]:
                raise RuleViolation(f"seat {player + 1} plays card {k}, which is not in its hand")
            # Action 4 follows: the first round counts every card as 1
            self.stone_due = (player, 1 if self.turns_seen <= g.num_players else g.card_kinds[k][2])

    def _stack_chosen(self, s: HorusState, arg: int) -> None:
        """Action 3 with a '?' card: any stack that has tiles."""
        g = self.g
        if s.card < 0 or g.card_kinds[s.card][1] != ANY:
            raise RuleViolation("a stack is chosen without a '?' card")
        if not (0 <= arg < len(s.stacks)) or not s.stacks[arg]:
            raise RuleViolation(f"stack {arg} is empty")
        want = {STACK_BASE + k for k, st in enumerate(s.stacks) if st}  # any stack, River / Necropolis included
        check_offered(set(s.legal_actions()), want, f"seat {s.player + 1}'s '?' stack step", s.action_to_string)

    def _stone_placed(self, s: HorusState, player: int, action: int, arg: int) -> None:
        """Action 4: a Kingdom Stone may be placed (so none is allowed too) on an empty tile of a
        region of the card's size (1 in the first round), never in a closed region."""
        g = self.g
        self._stone_offered(s, player)
        if action == NO_STONE:
            return
        q = key_of_code(arg)
        kind = self.tiles.get(q)
        if kind is None or kind >= g.nterr:
            raise RuleViolation(f"a Kingdom Stone on {key_xy(q)}, which is not a region tile")
        if q in self.stones:
            raise RuleViolation(f"a second Kingdom Stone on the tile at {key_xy(q)}")
        if s.stones_left[player] <= 0 or self.placed[player] >= rulebook.STONES:
            raise RuleViolation(f"seat {player + 1} has no Kingdom Stone left")
        size = len(self._region(q))
        want = 1 if self.turns_seen <= g.num_players else g.card_kinds[s.card][2]
        if size >= rulebook.CLOSED:
            raise RuleViolation(f"a Kingdom Stone in a closed region of {size} tiles")
        if want != ANY and size != want:
            raise RuleViolation(f"a Kingdom Stone in a region of {size} tiles with a card of size {want}")
        self.stones[q] = player
        self.placed[player] += 1

    def _nile_from(self, player: int, arg: int) -> None:
        """The Nile card: an own stone, in a region touching the River."""
        q = key_of_code(arg)
        if self.stones.get(q) != player:
            raise RuleViolation(f"seat {player + 1} moves a stone at {key_xy(q)} that is not its own")
        if not self._region_touches_water(self._region(q)):
            raise RuleViolation("the Nile card moves a stone from a region away from the River")
        self.move_from = q

    def _nile_to(self, s: HorusState, arg: int) -> None:
        """The Nile card: onto an empty tile of another region touching the River (the tile
        itself need not touch it)."""
        g = self.g
        src = self.move_from
        if src is not None:
            want = {q for reg in regions_of(self.tiles, g.nterr) if src not in reg and self._region_touches_water(reg)
                    for q in reg if q not in self.stones}
            have = {key_of_code(a & KIND_MASK) for a in s.legal_actions()}
            check_offered(have, want, f"seat {s.player + 1}'s Nile card target step", key_xy)
        q = key_of_code(arg)
        kind = self.tiles.get(q)
        if kind is None or kind >= g.nterr or q in self.stones:
            raise RuleViolation(f"the Nile card moves a stone to {key_xy(q)}, not an empty region tile")
        reg = self._region(q)
        src = self.move_from
        if src is None:
            raise RuleViolation("the Nile card moves a stone, but none was chosen to move")
        if src in reg:
            raise RuleViolation("the Nile card moves a stone within one region")
        if not self._region_touches_water(reg):
            raise RuleViolation("the Nile card moves a stone to a region away from the River")
        self.stones[q] = self.stones.pop(src)

    def _check_place(self, s: HorusState, q: int, kind: int) -> None:
        problem = self._place_problem(s.phase, q, kind, placed=True)
        if problem is not None:
            raise RuleViolation(problem)

    def _place_problem(self, ph: int, q: int, kind: int, placed: bool = False,
                       risks: dict[int, set[int]] | None = None) -> str | None:
        """What the Tile Placement Rules say against a ``kind`` tile at ``q`` in phase ``ph``
        (None: nothing). ``placed``: the tile is being placed, so the Boats' ways found
        with it are kept; else the table's record is left as it was. ``risks``: per Boat
        place, the only places a tile could block its kept way from (see :meth:`_way_risks`)."""
        g = self.g
        if not self._is_free(q):
            return f"a {g.kind_name(kind)} tile at {key_xy(q)} overlaps a tile"
        near = self._touching(q)
        if not near:
            return f"a {g.kind_name(kind)} tile at {key_xy(q)} shares no edge (full or half) with a tile"
        if kind == RIVER and ph != P_BOATPLACE and not any(k in WATER for k in near):
            return f"a River tile at {key_xy(q)} is not next to the River"
        if kind == TEMPLE:
            if not any(k in WATER for k in near):
                return f"the Temple at {key_xy(q)} is not next to the River"
            if any(k < g.nterr or k == NECRO for k in near):
                return f"the Temple at {key_xy(q)} touches a region or Necropolis tile"
        if kind == BOAT:
            b, old = self.lifted
            if old is not None and q - old not in K_NBRSET:
                return f"Boat {b + 1} at {key_xy(q)} does not touch the River tile that replaced it"
            if old is None and not any(k in WATER for k in near):
                return f"Boat {b + 1} at {key_xy(q)} is not next to the River"
            kept = self.ways.pop(q, None)  # a way kept for an earlier Boat there may be stale
            open_ = self._boat_open(q, q, True, placed=placed)
            if not placed and kept is not None:
                self.ways[q] = kept
            if not open_:
                return f"Boat {b + 1} at {key_xy(q)} has no way out to open table: the River is blocked"
        for b, bq in enumerate(self.boats):
            if bq is None or (risks is not None and bq in risks and q not in risks[bq]):
                continue
            if not self._boat_open(bq, q, kind in WATER, placed=placed):
                return (f"a {g.kind_name(kind)} tile at {key_xy(q)} blocks the River: Boat {b + 1} at {key_xy(bq)}"
                        " has no way out to open table")
        return None

    def _way_risks(self) -> dict[int, set[int]]:
        """Per Boat with a kept way, the places where a tile could touch that way (lie on
        or next to its free places, or crowd its end): a tile anywhere else leaves the way
        open, as :meth:`_boat_open` would find without a search."""
        out: dict[int, set[int]] = {}
        for bq in self.boats:
            known = self.ways.get(bq) if bq is not None else None
            if bq is not None and known is not None:
                free, end = known
                out[bq] = {end - c for c in K_CROWDSET}.union(*({f - o for o in K_OVERSET} for f in free))
        return out

    # -- the placement steps offered, from the checker's own table ---------------------
    # every 32nd placement decision of the quick pass (about 360 of Horus's 11,500 a pass, so
    # a place missing in one position in twenty is found but once in 10^8 passes), and every
    # one of the deep pass: the list costs a search of every free place
    PLACE_SAMPLE = 32

    def _placements_offered(self, s: HorusState, ph: int) -> None:
        """The places (and Boats) a placement step offers are exactly the rulebook's, on
        sampled steps: Action 1 and 3's tile, a bag River tile's Boat or place, a stack
        River / Necropolis tile's side, place or Boat, and a lifted Boat's new place."""
        self.place_steps += 1
        if self.place_steps % self.PLACE_SAMPLE and not self.every_step_full:
            return
        g = self.g
        want: set[int] = set()
        if ph == P_PLACE:
            want = {code(*key_xy(q)) for q in self._tile_places(ph, g.tile_kind[s.tile])}
        elif ph == P_RIVERPLACE:
            want = {RIVER_BASE + code(*key_xy(q)) for q in self._tile_places(ph, RIVER)}
        elif ph == P_RN:
            want = {RIVER_BASE + code(*key_xy(q)) for q in self._tile_places(ph, RIVER)}
            want |= {NECRO_BASE + code(*key_xy(q)) for q in self._tile_places(ph, NECRO)}
            want |= {BOAT_BASE + b for b in (0, 1) if self._boat_can_move(b, near_own=False)}
        elif ph == P_BOATCHOICE:
            want = {BOAT_BASE + b for b in (0, 1) if self._boat_can_move(b, near_own=True)}
        elif ph == P_BOATPLACE:
            want = {code(*key_xy(q)) for q in self._tile_places(ph, BOAT)}
        step = {P_PLACE: "tile", P_RIVERPLACE: "River tile", P_RN: "River / Necropolis tile",
                P_BOATCHOICE: "Boat choice", P_BOATPLACE: "Boat"}[ph]
        check_offered(set(s.legal_actions()), want, f"seat {s.player + 1}'s {step} step", s.action_to_string)

    def _tile_places(self, ph: int, kind: int) -> list[int]:
        """Every place the rulebook lets a ``kind`` tile go now (a Boat: the lifted one)."""
        if kind == BOAT and self.lifted[1] is not None:
            cands: Collection[int] = [q for q in map(self.lifted[1].__add__, K_NBR) if self._is_free(q)]
        else:
            cands = frontier_of(self.tiles)
        risks = self._way_risks()
        return [q for q in cands if self._place_problem(ph, q, kind, risks=risks) is None]

    def _boat_can_move(self, b: int, near_own: bool) -> bool:
        """May a River tile replace Boat ``b``: could it then be put down (touching its old
        place for a bag River tile, next to any water for a stack one) with a way out, and
        blocking the other Boat nowhere?"""
        bq = self.boats[b]
        if bq is None:
            return False
        other = self.boats[1 - b]
        cands = map(bq.__add__, K_NBR) if near_own else frontier_of(self.tiles)
        for r in cands:
            if not self._is_free(r) or not (near_own or any(k in WATER for k in self._touching(r))):
                continue
            if self._boat_open(r, r, True) and (other is None or self._boat_open(other, r, True)):
                return True
        return False

    def after(self, s: HorusState, full: bool) -> None:
        g = self.g
        if not self.started:
            self._init(s)
            self._check_start(s)
        if self.expect is not None:
            _, q, kind = self.expect
            self._add(q, kind)
            if kind == BOAT:
                b = self.lifted[0]
                self.boats[b] = q
            slot = s.at.get(code(*key_xy(q)))
            if slot is None or s.kind[slot] != kind:
                raise RuleViolation(f"the engine did not put the {g.kind_name(kind)} tile at {key_xy(q)}")
            self.expect = None
        if len(s.removed) != self.removed:
            if self._temple_places():
                raise RuleViolation("the Temple was removed although it had a legal place")
            self.removed = len(s.removed)
        held = 1 if s.tile >= 0 else 0
        total = len(s.bag) + sum(map(len, s.stacks)) + len(s.kind) + len(s.removed) + held
        if total != g.total_tiles:
            raise RuleViolation(f"{total} tiles in bag, stacks, table and hand; the game has {g.total_tiles}")
        if len(s.kind) != len(self.tiles):
            raise RuleViolation(f"the engine has {len(s.kind)} tiles on the table, the rules {len(self.tiles)}")
        if len(s.stone_at) + sum(s.stones_left) != self.total_stones or len(s.stone_at) != len(self.stones):
            raise RuleViolation(f"{len(s.stone_at)} stones on the table and {sum(s.stones_left)} in supply;"
                                f" the players have {self.total_stones}")
        assert self.cards is not None  # made with the table
        self.cards.compare(s)
        stones_in_supply(s, self.placed)
        if self.outcome_from is not None:
            public_outcome(g, self.outcome_from, s, self.turn_card)
            self.outcome_from = None
        self.prev_full = full
        self.every_step_full = self.every_step_full and full
        for p, hand in enumerate(s.hands):
            if len(hand) > rulebook.HAND:
                raise RuleViolation(f"seat {p + 1} holds {len(hand)} Horus cards; the hand is {rulebook.HAND}")
        if full:
            self.cards.compare_piles(s)
            self._no_cards_of_empty_stacks(s)
            self.full(s)

    # -- the compulsory steps, from the checker's own record --------------------------
    STONE_SAMPLE = 4  # every 4th stone decision: the engine's stone places against the checker's

    def _stone_places(self, want: int) -> set[int]:
        """Where the rulebook lets a Kingdom Stone go for a card of size ``want`` (ANY: 1 to 5):
        an empty tile of a region of that size, never one of six tiles or more."""
        sizes = rulebook.ANY_SIZES if want == ANY else (want,)
        out: set[int] = set()
        for reg in regions_of(self.tiles, self.g.nterr):
            if len(reg) in sizes and len(reg) < rulebook.CLOSED:
                out.update(q for q in reg if q not in self.stones)
        return out

    def _stone_offered(self, s: HorusState, player: int) -> None:
        """Action 4 is offered: on sampled steps the engine's places are exactly the rulebook's."""
        due = self.stone_due
        self.stone_due = None
        self.stone_steps += 1
        # every '?' card's step (any size: the rare region sizes are met there), else a sample
        if due is None or (self.stone_steps % self.STONE_SAMPLE and not self.prev_full and due[1] != ANY):
            return
        legal = s.legal_actions()
        have = {key_of_code(a & KIND_MASK) for a in legal if a != NO_STONE}
        want = self._stone_places(due[1])
        if NO_STONE not in legal:
            raise RuleViolation(f"seat {player + 1} is not offered to place no Kingdom Stone; Action 4 says may")
        check_offered(have, want, f"seat {player + 1}'s Kingdom Stone step", key_xy,
                      detail=" (a '?' card: any size)" if due[1] == ANY else f" (card size {due[1]})")

    def _cards_offered(self, s: HorusState, player: int) -> None:
        """Action 2 offers exactly each kind of Horus card in the hand, and the Nile card while
        the seat has not played it and the River / Necropolis stack has tiles."""
        g = self.g
        want = {CARD_BASE + g.card_of[c] for c in s.hands[player]}
        if g.nile and player not in self.nile_played and s.stacks[g.river_stack]:
            want.add(NILE_ACTION)
        check_offered(set(s.legal_actions()), want, f"seat {player + 1}'s card step", s.action_to_string)

    def _turn_over(self, s: HorusState, prev: int) -> None:
        """Seat ``prev``'s turn is over: its Kingdom Stone step happened when a stone fitted,
        and its hand was refilled to five (unless no card is left to draw)."""
        due = self.stone_due
        self.stone_due = None
        if due is not None and due[0] == prev and self.placed[prev] < rulebook.STONES and self._stone_places(due[1]):
            raise RuleViolation(f"seat {prev + 1}'s turn skipped Action 4: a Kingdom Stone fitted a region of"
                                f" {due[1] if due[1] != ANY else '1 to 5'} tile(s) and none was offered")
        for q, hand in enumerate(s.hands):  # a stack that ran out refilled every hand too
            n = len(hand)
            if n < rulebook.HAND and (s.deck or any(self._usable(s, c) for c in s.discard)):
                raise RuleViolation(f"seat {q + 1} holds {n} Horus cards at the end of seat {prev + 1}'s turn; "
                                    + ("Action 5 refills the hand" if q == prev else "a hand that lost the cards of"
                                       " an empty stack draws back") + f" to {rulebook.HAND}")

    def _usable(self, s: HorusState, c: int) -> bool:
        st = self.g.card_kinds[self.g.card_of[c]][1]
        return st == ANY or bool(s.stacks[st])

    def _no_cards_of_empty_stacks(self, s: HorusState) -> None:
        """Game End's note: once a stack is empty, no hand keeps a card naming it."""
        stacks = s.stacks
        if all(stacks):
            return
        for p, hand in enumerate(s.hands):
            for c in hand:
                if not self._usable(s, c):
                    raise RuleViolation(f"seat {p + 1} still holds a Horus card for an empty stack; such cards"
                                        " are discarded and replaced")

    def _a_boat_can_move(self) -> bool:
        """Could a Boat be replaced and put down next to its old place without blocking?"""
        return any(self._boat_can_move(b, near_own=True) for b in (0, 1))

    def _check_start(self, s: HorusState) -> None:
        kinds = sorted(self.tiles.values())
        if kinds != sorted([BOAT, BOAT, PYRAMID]) and len(s.kind) == 3:
            raise RuleViolation(f"the game starts with {kinds}, not two Boats and the Step Pyramid")

    def _temple_places(self) -> list[int]:
        out = []
        for q in frontier_of(self.tiles):
            near = self._touching(q)
            if any(k in WATER for k in near) and not any(k < self.g.nterr or k == NECRO for k in near) \
                    and all(bq is None or self._boat_open(bq, q) for bq in self.boats):
                out.append(q)
        return out

    SCRATCH_EVERY = 32  # full checks between two recomputations of every group from scratch

    def full(self, s: HorusState, scratch: bool | None = None, final: bool = False) -> tuple | None:
        """Everything but the groups every time; the groups (regions, islands, free
        places) recomputed from scratch and compared every ``SCRATCH_EVERY``-th time
        (``scratch``: force it on or off)."""
        g = self.g
        self.fulls += 1
        if scratch is None:
            scratch = (self.fulls - 1) % self.SCRATCH_EVERY == 0

        # each physical tile once
        where = [*s.bag, *itertools.chain.from_iterable(s.stacks), *s.phys, *s.removed]
        if s.tile >= 0:
            where.append(s.tile)
        where.sort()
        if where != self.every_tile:
            raise RuleViolation("the physical tiles are not each exactly once in bag, stacks, table and hand")
        cards = [*s.deck, *s.discard, *itertools.chain.from_iterable(s.hands)]
        cards.sort()
        if cards != self.every_card:
            raise RuleViolation(f"{len(cards)} Horus cards in deck, discard and hands, not each of {g.ncards} once")
        pos = s.pos
        shift = K_OFF - OFF  # key_of_code, inline
        stones = {(pos[slot] // W + shift) * K_W + pos[slot] % W + shift: p for slot, p in s.stone_at.items()}
        if stones != self.stones:
            raise RuleViolation("the engine's Kingdom Stones differ from the rules' stones")
        for b, bq in enumerate(self.boats):
            slot = s.boats[b]
            if (slot is None) != (bq is None) or (slot is not None and key_of_code(s.pos[slot]) != bq):
                raise RuleViolation(f"Boat {b + 1} is not where the rules put it")
        if scratch:
            return self.groups(s, final)
        return None

    def groups(self, s: HorusState, final: bool = False) -> tuple[list, list]:
        """The engine's incremental groups against groups recomputed from scratch: no
        overlap, the free places next to the table, every region (and its stones),
        every island; at the end (``final``) each Boat's way on, searched afresh.
        Returns the regions and islands."""
        g = self.g
        self.scratches += 1
        shift = K_OFF - OFF  # key_of_code, inline: thousands a game
        where = [(c // W + shift) * K_W + c % W + shift for c in s.pos]  # slot -> the checker's int for its place
        if len(set(where)) != len(where) or dict(zip(where, s.kind)) != self.tiles:
            raise RuleViolation("the engine's table differs from the rules' table")
        cells = cells_of(self.tiles)  # raises on overlap
        if len(cells) != 4 * len(self.tiles) or len(s.cells) != len(cells):
            raise RuleViolation("tiles overlap")
        front = frontier_of(self.tiles)
        if {(c // W + shift) * K_W + c % W + shift for c in s.frontier} != front:
            raise RuleViolation("the engine's free places next to the table are wrong")
        region_list = regions_of(self.tiles, g.nterr)
        regions = set(region_list)
        engine = {frozenset([where[m] for m in members]) for members in s.reg_members.values()}
        if regions != engine:
            raise RuleViolation(f"the engine's regions differ from the regions recomputed from scratch"
                                f" ({len(engine)} against {len(regions)})")
        for rid, st in s.reg_stones.items():
            count = [0] * g.num_players
            for m in s.reg_members[rid]:
                if m in s.stone_at:
                    count[s.stone_at[m]] += 1
            if count != st:
                raise RuleViolation(f"the engine counts stones {st} in a region that has {count}")
        island_list = islands_of(self.tiles, cells)
        islands = set(island_list)
        engine_islands = {frozenset([where[m] for m in s.land_members[lid]]) for lid in s.islands()}
        if islands != engine_islands:
            raise RuleViolation(f"the engine's islands differ from the islands recomputed from scratch"
                                f" ({len(engine_islands)} against {len(islands)})")
        if final:
            self.ways.clear()  # no way kept: search each afresh
            for b, bq in enumerate(self.boats):
                if bq is not None and not self._boat_open(bq, None):
                    raise RuleViolation(f"Boat {b + 1} at {key_xy(bq)} is blocked")
        return region_list, island_list

    def at_end(self, s: HorusState) -> None:
        groups = self.full(s, scratch=True, final=True)
        assert groups is not None  # scratch=True: the groups recomputed
        regions, islands = groups
        empty = sum(1 for st in s.stacks if not st)
        if empty < rulebook.EMPTY_STACKS_TO_END and s.acted:
            raise RuleViolation(f"the game ended with {empty} empty stack(s); it ends when two are empty")
        last = s.depleted_at_turn[1] if len(s.depleted_at_turn) > 1 else None
        if empty >= 2 and last is not None and last != s.turn - 1:
            raise RuleViolation(f"the second stack ran out in turn {last + 1}, but the game went on to turn {s.turn}")
        if self.actor >= 0 and s.acted:
            self.stone_due = self.stone_due if self.stone_due and self.stone_due[0] == self.actor else None
            due = self.stone_due
            if due is not None and self.placed[due[0]] < rulebook.STONES and self._stone_places(due[1]):
                raise RuleViolation(f"seat {due[0] + 1}'s last turn skipped Action 4: a Kingdom Stone fitted")
        scores, _ = scores_of(self.tiles, self.stones, self.g.nterr, self.g.num_players, rulebook.REGION_CAP,
                              regions, islands)
        if scores != s.scores():
            raise RuleViolation(f"the engine scores {s.scores()}, the rules {scores}")
