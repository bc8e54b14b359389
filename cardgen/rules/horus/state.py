"""A Horus game in progress: the supply, the hands and the turn on the table of
:mod:`.table`, and what one seat may see of it (:class:`HorusView`).

**Turn** (five actions, RULES): draw a tile from the bag and place it (a chance
step, then a decision); play a Horus card (or the Nile card); place the card's tile
(a "?" card first chooses a stack); place a Kingdom Stone; draw back to five
(chance). Every decision is one int action (see :mod:`.codec`). The automatic steps
between decisions run from a queue (:meth:`HorusState._advance`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from ..api import FrozenDict, PhaseState, RuleViolation
from .codec import (
    BOAT_BASE,
    CARD_BASE,
    DRAW_CARD_BASE,
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
    P_OVER,
    P_PLACE,
    P_RIVERPLACE,
    P_RN,
    P_STACK,
    P_STONE,
    P_TO,
    P_WORK,
    RIVER_BASE,
    STACK_BASE,
    TO_BASE,
    action_text,
    render_text,
)
from .geometry import CELLS, NBR, code
from .outcomes import outcome_text
from .spec import ANY, BOAT, NECRO, RIVER, TEMPLE, HorusSpec
from .table import HorusTable

if TYPE_CHECKING:  # for annotations only
    from .checker_record import Before


class PublicBoard(NamedTuple):
    """The public part of a state, copied: the table's tiles, stones and groups, the
    stacks' and the bag's sizes, and the turn in progress; no hands, no order of the bag
    or of the draw pile. Tables are tuples, frozensets and :class:`FrozenDict` copies."""

    at: FrozenDict
    cells: FrozenDict
    kind: tuple[int, ...]
    pos: tuple[int, ...]
    stone_at: FrozenDict
    reg: tuple[int, ...]
    reg_members: FrozenDict
    reg_stones: FrozenDict
    land: tuple[int, ...]
    land_members: FrozenDict
    land_open: FrozenDict
    boats: tuple
    frontier: frozenset
    adj_water: FrozenDict
    adj_land: FrozenDict
    stones_left: tuple[int, ...]
    touch: FrozenDict
    stack_sizes: tuple[int, ...]
    bag_size: int
    turn: int
    player: int
    phase: int
    tile: int
    face: int
    card: int
    round_one: bool
    move_from: int
    near: int

    def stack_size(self, s: int) -> int:
        return self.stack_sizes[s]


class HorusView(NamedTuple):
    """What one seat may know, copied out of the state at one moment: the whole table
    (:class:`PublicBoard`), its own hand and Nile card, and the other hands' sizes only."""

    player: int
    hand: tuple[int, ...]
    has_nile: bool
    hand_sizes: tuple[int, ...]
    phase: int
    board: PublicBoard


_new = tuple.__new__


def _tuples_of(table: dict[int, list]) -> FrozenDict:
    """A copy of a table of lists, each list a tuple, made by C loops (no Python step per entry)."""
    return FrozenDict(zip(table, map(tuple, table.values())))


class HorusState(HorusTable, PhaseState):
    """One game in progress: the table (:class:`~.table.HorusTable`: tiles, stones,
    groups, legal places, scores) with the supply, the hands and the turn."""

    OVER_PHASE = P_OVER
    CHANCE_PHASES = frozenset((P_BAG, P_DRAW))  # a tile from the bag, a Horus card drawn

    def __init__(self, game: HorusSpec, deal: bool = True):
        HorusTable.__init__(self, game)
        self._public: PublicBoard | None = None  # the public board of step _public_at, copied once for all seats
        self._public_at = -1
        self._tiles_public: tuple | None = None  # (tiles placed, the public copies of the tile tables)
        g = game
        n = g.num_players
        self.bag = list(g.bag0)
        self.stacks = [list(s) for s in g.stacks0]
        self.removed: list[int] = []  # tiles out of the game (a Temple without a place)
        self.deck = list(range(g.ncards))
        self.discard: list[int] = []
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.nile = [g.nile] * n
        self.stones_left = list(g.stones_each)
        self.player = 0
        self.turn = 0
        self.phase = P_DRAW
        self.tile = -1  # the physical tile in hand
        self.face = -1  # its kind as it will be placed
        self.card = -1  # the Horus card kind played this turn (-1: none; NILE: the Nile card)
        self.card_stack = -1
        self.lifted = -1  # the Boat being moved (0/1)
        self.near = -1  # the place the moved Boat must touch (bag River tile) or -1 (stack: any water)
        self.queue: list[tuple] = []
        self.move_from = -1
        self.round_one = True
        self.nile_left = 0
        self.draw_seats: list[int] = []  # seats to refill, in order
        self.steps = 0
        self.depleted_at_turn: list[int] = []
        self.acted = False
        self.temple_removed = False
        self.last_stone = -1
        self.played = 0  # bit seat * (card kinds + 1) + kind (the last: the Nile card): played (card_holders)
        self._legal: tuple | None = None  # (steps, phase, legal actions) worked out by _advance (see _ready)
        if deal:
            self._setup()

    # -- setup --------------------------------------------------------------
    def _setup(self) -> None:
        g = self.g
        boats = [t for t in g.start_tiles if g.tile_kind[t] == BOAT]
        others = [t for t in g.start_tiles if g.tile_kind[t] != BOAT]
        layout = [(boats[0], -2)] + [(t, 2 * i) for i, t in enumerate(others)] + \
                 [(b, 2 * len(others) + 2 * i) for i, b in enumerate(boats[1:])]
        for t, x in layout:
            slot = self._put(t, g.tile_kind[t], code(x, 0))
            if g.tile_kind[t] == BOAT and None in self.boats:
                self.boats[self.boats.index(None)] = slot
        # deal the hands: a chance run of card draws, then seat 1's turn
        self.draw_seats = list(range(g.num_players))
        self.queue = [("bag",), ("card",)]
        self._refill_ready()

    # -- queries ------------------------------------------------------------
    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.phase == P_BAG:
            p = 1.0 / len(self.bag)
            return [(DRAW_TILE_BASE + t, p) for t in sorted(self.bag)]
        if self.phase == P_DRAW:
            p = 1.0 / len(self.deck)
            return [(DRAW_CARD_BASE + c, p) for c in sorted(self.deck)]
        return []

    def sample_chance(self, rng: random.Random) -> int:
        if self.phase == P_BAG:
            return DRAW_TILE_BASE + self.bag[int(rng.random() * len(self.bag))]
        return DRAW_CARD_BASE + self.deck[int(rng.random() * len(self.deck))]

    def apply_chance_run(self, rng: random.Random, before: Callable[[int], None] | None = None) -> list[int]:
        out = []
        rand = rng.random
        while self.phase == P_BAG or self.phase == P_DRAW:
            if self.phase == P_BAG:
                a = DRAW_TILE_BASE + self.bag[int(rand() * len(self.bag))]
            else:
                a = DRAW_CARD_BASE + self.deck[int(rand() * len(self.deck))]
            if before is not None:
                before(a)
            self.apply_action(a)
            out.append(a)
        return out

    def observation(self, player: int) -> HorusView:
        """What ``player`` may know now, as a copy (see :class:`HorusView`)."""
        board = self._public
        if board is None or self._public_at != self.steps:  # one copy per step, for every seat that asks
            board = self._public = self._public_board()
            self._public_at = self.steps
        return _new(HorusView, (player, tuple(self.hands[player]), self.nile[player],
                                tuple(len(h) for h in self.hands), self.phase, board))

    def scrambled(self, seat: int, rng: random.Random) -> HorusState:
        """A copy in which everything ``seat`` cannot see is dealt again: the Horus cards
        of the other hands and of the draw pile, shuffled together and dealt back (each
        hand keeps its size; the pile keeps its order of cards as the engine keeps it),
        and the order of the bag. The validator asks a player on it and on the real game,
        and requires the same decision. The copy is for reading: it shares the tables it
        leaves alone with this state, so it must not be played."""
        twin = type(self).__new__(type(self))
        twin.__dict__.update(self.__dict__)
        others = [q for q in range(self.g.num_players) if q != seat]
        pool = list(self.deck)
        for q in others:
            pool.extend(self.hands[q])
        pool.sort()  # the unseen cards in an order that does not tell where they lay
        rng.shuffle(pool)
        twin.hands = [h[:] for h in self.hands]
        k = 0
        for q in others:
            n = len(self.hands[q])
            twin.hands[q] = pool[k:k + n]
            k += n
        twin.deck = sorted(pool[k:])
        twin.bag = sorted(self.bag)
        rng.shuffle(twin.bag)
        return twin

    def _public_board(self) -> PublicBoard:
        # the tables that change only when a tile is placed (the table's ``_put`` and the
        # merges it makes; a tile placed appends to ``kind``): copied once a tile, not once a step.
        # ``kind`` itself is copied each step: a Boat lifted turns its place to river in place
        placed = len(self.kind)
        tiles = getattr(self, "_tiles_public", None)
        if tiles is None or tiles[0] != placed:
            tiles = self._tiles_public = (
                placed, FrozenDict(self.at), FrozenDict(self.cells), FrozenDict(self.adj_water),
                FrozenDict(self.adj_land), self._public_touch(tiles),
                tuple(self.pos), tuple(self.reg),
                _tuples_of(self.reg_members), tuple(self.land),
                _tuples_of(self.land_members), FrozenDict(self.land_open),
                frozenset(self.frontier))
        (_, at, cells, adj_water, adj_land, touch, pos, reg, reg_members, land, land_members, land_open,
         frontier) = tiles
        return _new(PublicBoard, (
            at, cells, tuple(self.kind), pos, FrozenDict(self.stone_at),
            reg, reg_members,
            _tuples_of(self.reg_stones), land,
            land_members, land_open,
            tuple(self.boats), frontier, adj_water, adj_land,
            tuple(self.stones_left), touch,
            tuple(len(st) for st in self.stacks), len(self.bag), self.turn, self.player, self.phase, self.tile,
            self.face, self.card, self.round_one, self.move_from, self.near))

    def _public_touch(self, earlier: tuple | None) -> FrozenDict:
        """``touch`` copied, its lists as tuples: from the copy of ``earlier`` (the public tables
        of fewer tiles placed), anew only the places around the tiles placed since (a tile
        placed at ``c`` sets ``touch`` at ``c + d`` for every ``d`` of ``NBR``, nothing else, in
        that order: the copy keeps the table's order of places too)."""
        touch = self.touch
        if earlier is None or earlier[0] > len(self.kind):
            return _tuples_of(touch)
        out = dict(earlier[5])
        for c in self.pos[earlier[0]:]:
            for q in map(c.__add__, NBR):
                out[q] = tuple(touch[q])
        return FrozenDict(out)

    def length(self) -> int:
        return self.turn

    def outcome_text(self, before: HorusState | Before) -> str:
        """For ``--trace``: what the step from ``before`` (a state, or what the checker kept of
        one) did (see :mod:`.outcomes`)."""
        return outcome_text(self, before)

    # the dicts whose values are lists changed in place: a clone copies each list; every other
    # dict holds values never changed in place (numbers, tuples, and ``touch``'s lists, which
    # the table replaces instead of changing) and is copied whole, at C speed
    _LIST_VALUED = frozenset({"reg_members", "reg_stones", "land_members", "_spoil_free", "_spoil_end"})
    _NESTED = frozenset({"stacks", "hands"})  # the lists of lists; the other lists hold numbers and tuples

    def clone(self) -> HorusState:
        s = HorusState.__new__(HorusState)
        list_valued, nested = self._LIST_VALUED, self._NESTED
        for k, v in self.__dict__.items():
            if isinstance(v, list):
                v = [x[:] for x in v] if k in nested else v[:]
            elif isinstance(v, dict):
                v = type(v)({a: b[:] for a, b in v.items()}) if k in list_valued else \
                    v.copy() if v.__class__ is dict else type(v)(v)
            elif isinstance(v, set):
                v = set(v)
            setattr(s, k, v)
        s._legal = None
        return s

    # -- legal actions (where tiles, Boats and stones may go: HorusTable) --------
    def nile_sources(self) -> list[int]:
        p = self.player
        river_regions = {rid for rid in self.reg_members if self.touches_water(rid)}
        has_target = {rid: any(m not in self.stone_at for m in self.reg_members[rid]) for rid in river_regions}
        out = []
        for slot, owner in self.stone_at.items():
            rid = self.reg[slot]
            if owner == p and rid in river_regions and any(has_target[r] for r in river_regions if r != rid):
                out.append(FROM_BASE + self.pos[slot])
        return sorted(out)

    def nile_targets(self, from_slot: int) -> list[int]:
        src = self.reg[from_slot]
        out: list[int] = []
        for rid, members in self.reg_members.items():
            if rid != src and self.touches_water(rid):
                out.extend(TO_BASE + self.pos[m] for m in members if m not in self.stone_at)
        return sorted(out)

    def card_size(self) -> int:
        if self.card < 0:
            return ANY
        return 1 if self.round_one else self.g.card_kinds[self.card][2]

    def _ready(self, phase: int, legal: list[int]) -> None:
        """Enter ``phase``, whose legal actions ``_advance`` has just worked out to see
        whether the phase is due: :meth:`legal_actions` hands them out once instead of
        working them out again."""
        self.phase = phase
        self._legal = (self.steps, phase, legal)

    def legal_actions(self) -> list[int]:
        ph = self.phase
        known = self._legal
        if known is not None:
            self._legal = None
            if known[0] == self.steps and known[1] == ph:
                return known[2]
        if ph == P_PLACE:
            return self.place_options(self.face)
        if ph == P_RIVERPLACE:
            return [RIVER_BASE + q for q in self.place_options(RIVER)]
        if ph == P_RN:
            opts = self.place_options(RIVER)
            out = [RIVER_BASE + q for q in opts]
            out += [NECRO_BASE + q for q in self.place_options(NECRO)]
            out += [BOAT_BASE + b for b in self.movable_boats(False)]
            return out
        if ph == P_BOATCHOICE:
            return [BOAT_BASE + b for b in self.movable_boats(True)]
        if ph == P_BOATPLACE:
            return self.boat_options(self.lifted, self.near)
        if ph == P_CARD:
            kinds = sorted(set(self.g.card_of[c] for c in self.hands[self.player]))
            out = [CARD_BASE + k for k in kinds]
            if self.nile[self.player] and self.stacks[self.g.river_stack]:
                out.append(NILE_ACTION)
            return out
        if ph == P_STACK:
            return [STACK_BASE + s for s, st in enumerate(self.stacks) if st]
        if ph == P_STONE:
            return [*self.stone_options(self.card_size()), NO_STONE]
        if ph == P_FROM:
            return self.nile_sources()
        if ph == P_TO:
            return self.nile_targets(self.move_from)
        if ph == P_BAG or ph == P_DRAW:
            return [a for a, _ in self.chance_outcomes()]
        return []

    # -- moves ------------------------------------------------------------------
    def apply_action(self, action: int) -> int:
        ph = self.phase
        base = action & ~KIND_MASK
        arg = action & KIND_MASK
        self.steps += 1
        if ph == P_BAG:
            t = arg
            self.bag.remove(t)
            self.acted = True
            self._took_tile(t)
        elif ph == P_DRAW:
            c = arg
            self.deck.remove(c)
            self._drew(c)
        elif ph == P_PLACE:
            self._put(self.tile, self.face, action)
            if self.face == BOAT:  # never: boats are placed in P_BOATPLACE
                raise RuleViolation("a Boat was placed as an ordinary tile")
            self.tile = -1
            self.acted = True
        elif ph == P_RIVERPLACE or (ph == P_RN and base == RIVER_BASE):
            self._put(self.tile, RIVER, arg)
            self.tile = -1
            self.acted = True
        elif ph == P_RN and base == NECRO_BASE:
            self._put(self.tile, NECRO, arg)
            self.tile = -1
            self.acted = True
        elif ph == P_RN or ph == P_BOATCHOICE:
            b = arg
            slot = self.boats[b]
            assert slot is not None  # only a Boat on the table is offered
            boat_tile = self.phys[slot]
            self.phys[slot] = self.tile
            self.kind[slot] = RIVER
            self.boats[b] = None
            self.lifted = b
            self.near = self.pos[slot] if ph == P_BOATCHOICE else -1
            self.tile = boat_tile
            self.face = BOAT
            self.queue.insert(0, ("boatplace",))
            self.acted = True
        elif ph == P_BOATPLACE:
            slot = self._put(self.tile, BOAT, action)
            self.boats[self.lifted] = slot
            self.lifted = -1
            self.near = -1
            self.tile = -1
        elif ph == P_CARD:
            self._play_card(action)
        elif ph == P_STACK:
            self._take_from_stack(arg)
        elif ph == P_STONE and action == NO_STONE:
            pass
        elif ph == P_STONE:
            slot = self.at[arg]
            p = self.player
            self.stone_at[slot] = p
            self.reg_stones[self.reg[slot]][p] += 1
            self.stones_left[p] -= 1
            self.last_stone = slot
        elif ph == P_FROM:
            self.move_from = self.at[arg]
            self.queue.insert(0, ("to",))
        elif ph == P_TO:
            src = self.move_from
            dst = self.at[arg]
            p = self.stone_at.pop(src)
            self.reg_stones[self.reg[src]][p] -= 1
            self.stone_at[dst] = p
            self.reg_stones[self.reg[dst]][p] += 1
            self.move_from = -1
        else:
            raise RuleViolation("an action was applied after the end of the game")
        self._advance()
        return self.current_player()

    def _took_tile(self, t: int) -> None:
        """A tile drawn from the bag: what happens to it depends on its face."""
        kind = self.g.tile_kind[t]
        self.tile = t
        self.face = kind
        if kind == RIVER:
            if self.movable_boats(True):
                self.queue[:0] = [("boatchoice",), ("rn",)]
            else:
                self.queue[:0] = [("riverplace",), ("rn",)]
        elif kind == TEMPLE:
            self.queue.insert(0, ("place",))
        else:
            self.queue.insert(0, ("place",))

    def _take_from_stack(self, s: int) -> None:
        st = self.stacks[s]
        if not st:
            raise RuleViolation(f"stack {self.g.stack_ids[s]} is empty")
        t = st.pop()
        if not st:
            self._depleted(s)
        if s == self.g.river_stack:
            self.tile = t
            self.face = RIVER
            self.queue.insert(0, ("rnchoice",))
        else:
            self.tile = t
            self.face = self.g.tile_kind[t]
            self.queue.insert(0, ("place",))

    def _depleted(self, s: int) -> None:
        """A stack ran out: every hand drops the cards naming it (and draws back to five
        right after the current action, unless the game is about to end)."""
        self.depleted_at_turn.append(self.turn)
        card_kinds = self.g.card_kinds
        card_of = self.g.card_of
        for p, hand in enumerate(self.hands):
            keep = [c for c in hand if card_kinds[card_of[c]][1] != s]
            if len(keep) != len(hand):
                self.discard.extend(c for c in hand if card_kinds[card_of[c]][1] == s)
                self.hands[p] = keep
        if sum(1 for st in self.stacks if not st) < 2:
            order = [(self.player + i) % self.g.num_players for i in range(self.g.num_players)]
            self.queue.insert(0, ("refill", tuple(order)))

    def _play_card(self, action: int) -> None:
        p = self.player
        self.acted = True
        if action == NILE_ACTION:
            self.nile[p] = False
            nile = len(self.g.card_kinds)
            self.played |= 1 << (p * (nile + 1) + nile)
            self.card = -2
            self.queue[:0] = [("nilestack",), ("nilestack",), ("from",)]
            return
        k = action - CARD_BASE
        hand = self.hands[p]
        for i, c in enumerate(hand):
            if self.g.card_of[c] == k:
                hand.pop(i)
                self.discard.append(c)
                break
        else:
            raise RuleViolation(f"card {self.g.card_name(k)} is not in the hand")
        self.card = k
        self.played |= 1 << (p * (len(self.g.card_kinds) + 1) + k)
        stack = self.g.card_kinds[k][1]
        self.queue[:0] = [("stack", stack), ("stone",), ("refill", (p,))]

    def _drew(self, c: int) -> None:
        """A card drawn for the first seat of ``draw_seats``; a card naming an empty
        stack is discarded at once (and another drawn)."""
        p = self.draw_seats[0]
        if self._usable(c):
            self.hands[p].append(c)
        else:
            self.discard.append(c)

    def _usable(self, c: int) -> bool:
        s = self.g.card_kinds[self.g.card_of[c]][1]
        return s == ANY or bool(self.stacks[s])

    def _advance(self) -> None:
        """Run automatic steps until a decision or a chance step is due."""
        while True:
            if self.phase == P_DRAW:
                if self._refill_ready():
                    return
                self.phase = P_WORK
            if not self.queue:
                self._end_turn()
                if self.phase == P_OVER:
                    return
                continue
            step = self.queue.pop(0)
            method = _STEPS.get(step[0])
            if method is None:
                raise RuleViolation(f"unknown step {step[0]}")
            if getattr(self, method)(step):  # by name: a method patched on the class is the one run
                return

    # The turn's queued steps, each True when it leaves a decision or a chance step due
    # (the phase set), False when it is done or skipped.
    def _step_bag(self, step: tuple) -> bool:
        """Action 1: draw a tile from the bag (none left: skipped)."""
        self.acted = False
        if self.bag:
            self.phase = P_BAG
            return True
        return False

    def _step_place(self, step: tuple) -> bool:
        """Place the tile in hand: a Temple with nowhere to go is set aside."""
        if self.face == TEMPLE:
            legal = self.place_options(TEMPLE)
            if not legal:
                self.removed.append(self.tile)
                self.temple_removed = True
                self.tile = -1
                return False
            self._ready(P_PLACE, legal)
            return True
        self.phase = P_PLACE
        return True

    def _step_riverplace(self, step: tuple) -> bool:
        """Extending the River with the tile in hand (nowhere at all: set aside, like the Temple)."""
        legal = self.place_options(RIVER)
        if not legal:
            self.removed.append(self.tile)
            self.tile = -1
            return False
        self._ready(P_RIVERPLACE, [RIVER_BASE + q for q in legal])
        return True

    def _step_boatchoice(self, step: tuple) -> bool:
        """The River changes course: which Boat to lift."""
        self.phase = P_BOATCHOICE
        return True

    def _step_boatplace(self, step: tuple) -> bool:
        """Where the lifted Boat goes."""
        self.phase = P_BOATPLACE
        return True

    def _step_river_tile(self, step: tuple) -> bool:
        """One tile from the River / Necropolis stack, if it has any."""
        river = self.g.river_stack
        if self.stacks[river]:
            self._take_from_stack(river)
        return False

    def _step_rnchoice(self, step: tuple) -> bool:
        """A River / Necropolis tile: River, Necropolis or a Boat moved."""
        self.phase = P_RN
        return True

    def _step_card(self, step: tuple) -> bool:
        """Action 2: play a Horus card or the Nile card (none: skipped)."""
        p = self.player
        if self.hands[p] or (self.nile[p] and self.stacks[self.g.river_stack]):
            self.phase = P_CARD
            return True
        return False

    def _step_stack(self, step: tuple) -> bool:
        """Action 3: a tile from the stack the card names (any: the player chooses)."""
        s = step[1]
        if s == ANY:
            if any(self.stacks):
                self.phase = P_STACK
                return True
        elif self.stacks[s]:
            self._take_from_stack(s)
        return False

    def _step_stone(self, step: tuple) -> bool:
        """Action 4: a Kingdom Stone *may* be placed, so placing none is offered too."""
        if self.stones_left[self.player] > 0:
            legal = self.stone_options(self.card_size())
            if legal:
                self._ready(P_STONE, [*legal, NO_STONE])
                return True
        return False

    def _step_from(self, step: tuple) -> bool:
        """The Nile card: which own stone by the River to move."""
        legal = self.nile_sources()
        if legal:
            self._ready(P_FROM, legal)
            return True
        return False

    def _step_to(self, step: tuple) -> bool:
        """The Nile card: where the stone goes."""
        self.phase = P_TO
        return True

    def _step_refill(self, step: tuple) -> bool:
        """Action 5: the seats of ``step[1]`` draw back to a full hand (not when the game ends)."""
        if self._ending():
            return False
        hand_size = self.g.hand_size
        self.draw_seats = [p for p in step[1] if len(self.hands[p]) < hand_size]
        return self._refill_ready()

    def _refill_ready(self) -> bool:
        """Set up the draw for the first seat that can draw; False when nobody can."""
        g = self.g
        while self.draw_seats:
            p = self.draw_seats[0]
            if len(self.hands[p]) < g.hand_size:
                if not self.deck:
                    self.deck = sorted(c for c in self.discard if self._usable(c))
                    self.discard = [c for c in self.discard if not self._usable(c)]
                if self.deck:
                    self.phase = P_DRAW
                    return True
            self.draw_seats.pop(0)
        return False

    def _ending(self) -> bool:
        return sum(1 for st in self.stacks if not st) >= 2

    def _end_turn(self) -> None:
        g = self.g
        self.turn += 1
        self.card = -1
        if self.turn >= g.num_players:
            self.round_one = False
        if self._ending() or not self.acted:
            self.phase = P_OVER
            return
        self.player = (self.player + 1) % g.num_players
        self.queue = [("bag",), ("card",)]

    # -- scores (the table's: HorusTable.scores) --------------------------------
    def returns(self) -> list[float]:
        return [float(x) for x in self.scores()]

    def figures(self) -> dict[str, Any]:
        """Per-game figures for the validator's summary (pooled lists, plain numbers)."""
        return {
            "score": [float(x) for x in self.scores()],
            "islands": float(len(self.islands())),
            "island_tiles": float(sum(len(self.land_members[lid]) for lid in self.islands())),
            "region_size": [float(len(m)) for m in self.reg_members.values()],
            "stones_placed": float(len(self.stone_at)),
            "tiles_on_table": float(len(self.kind)),
            "turns": float(self.turn),
        }

    def card_holders(self) -> dict[str, tuple[int, ...]]:
        """The seats that played each Horus card (by card id: the copies of a card are
        alike) and the Nile card (``nile``), for the report's per-card figures. Played
        cards go to the discard, so the end alone would not tell: the engine notes each
        as it is played (one bit per seat and card)."""
        g = self.g
        names = [c[0] for c in g.card_kinds] + ["nile"]
        width = len(names)
        played = self.played
        out: dict[str, tuple[int, ...]] = {}
        for k, name in enumerate(names):
            seats = tuple(q for q in range(g.num_players) if played >> (q * width + k) & 1)
            if seats:
                out[name] = seats
        return out

    # -- text -------------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        return action_text(self, action)

    def __str__(self) -> str:
        return render_text(self)

    # -- drawing ----------------------------------------------------------------
    def draw(self, path) -> None:
        from .draw import draw_board

        draw_board(self, path)

    # -- constructed positions (tests) -------------------------------------------
    @classmethod
    def from_position(cls, game: HorusSpec, tiles: Sequence[tuple[int, int, int]],
                      stones: Sequence[tuple[int, int, int]] = (), boats: Sequence[tuple[int, int]] | None = None,
                      turn: int | None = None) -> HorusState:
        """A state with the given tiles ``(x, y, kind)`` on the table (in that order)
        and stones ``(x, y, seat)``, at the start of seat 1's turn after the bag draw
        (no physical tile bookkeeping: the supply is not adjusted)."""
        s = cls(game, deal=False)
        for x, y, kind in tiles:
            c = code(x, y)
            for d in CELLS:
                if c + d in s.cells:
                    raise ValueError(f"tile at {(x, y)} overlaps another")
            slot = s._put(-1, kind, c)
            if kind == BOAT and None in s.boats:
                s.boats[s.boats.index(None)] = slot
        for x, y, p in stones:
            slot = s.at[code(x, y)]
            s.stone_at[slot] = p
            s.reg_stones[s.reg[slot]][p] += 1
            s.stones_left[p] -= 1
        s.turn = game.num_players if turn is None else turn
        s.round_one = s.turn < game.num_players
        s.queue = []
        s.phase = P_CARD
        return s


# the queued steps of a turn and the HorusState method that runs each
_STEPS = {
    "bag": "_step_bag", "place": "_step_place", "riverplace": "_step_riverplace", "boatchoice": "_step_boatchoice",
    "boatplace": "_step_boatplace", "rn": "_step_river_tile", "nilestack": "_step_river_tile",
    "rnchoice": "_step_rnchoice", "card": "_step_card", "stack": "_step_stack", "stone": "_step_stone",
    "from": "_step_from", "to": "_step_to", "refill": "_step_refill",
}
