"""Hâpy Families: the rules as a small, fast engine (plain ints and lists).

Cards are numbered ``0..35``: ``family_index * 6 + number - 1``, the families in
the order of ``data.families``. Sets of cards are int bitmasks. The setup layout
(pyramid, Mastaba, Temple, Tomb, Giza) comes from ``data.layouts`` (see
``card_data/hapy/layouts.yaml``) with a precomputed cover graph.

A turn is up to three steps, each an action of the player whose turn it is:

1. take an available card from the layout (an action = its place index); the
   step is skipped when the layout is empty;
2. request a named card from one other player (``REQUEST + seat * 100 + card``)
   or pass (``PASS``); the card the previous player requested cannot be named,
   nor a revealed card (nor, as pointless, one of your own cards);
3. reveal every set of three of a family, automatically; only when a player
   holds four of one family do they choose which card to keep
   (``KEEP + card``). Then the win is checked: a whole family (6) revealed, or
   5 / 4 / 3 sets of three with 2 / 3 / 4 players.

The setup deal is a run of chance steps: one card for each place in turn.

Information: a Mummy-up card's identity is known to nobody until taken, then to
its holder only. God-up cards in the layout are seen by all, so a card taken from
a God-up place is publicly known to be in the taker's hand; a requested card that
changes hands is public too, and so is a failed request (the asked player does not
hold it). Agents get a :class:`HapyObservation`: their own hand, the public faces
of the layout, hand sizes, revealed cards and the public event log — never the
state.
"""

from __future__ import annotations

import random
import weakref
from bisect import insort
from functools import reduce
from itertools import repeat, starmap
from operator import floordiv, itemgetter, mul, or_
from typing import Any, Callable, Mapping, Sequence

from ..errors import CardgenError, Where
from . import register
from .api import (CHANCE, TERMINAL, Arrangement, GroupSpec, Problem, RandomAgent, RuleViolation, StaticSpec,
                  uniform_index)
from .tableau import Layout, parse_layout

GAME_ID = "hapy"
DECK = "gods"
FAMILIES = 6
NUMBERS = 6
N_CARDS = FAMILIES * NUMBERS
ALL = (1 << N_CARDS) - 1
SETS_TO_WIN = {2: 5, 3: 4, 4: 3}
SETUPS = ("pyramid", "mastaba", "temple", "tomb", "giza")
MAX_TURNS = 1000  # the generous limit: real games last tens of turns

# phases
DEAL, TAKE, REQUEST, KEEP, OVER = range(5)
PHASE_NAMES = ("deal", "take", "request", "keep", "over")
# actions
PASS = 1000
REQUEST_BASE = 2000
KEEP_BASE = 3000
EMPTY = -2  # a place without a card
HIDDEN = -1  # a place whose card lies Mummy side up
# public events
EV_TAKE, EV_SKIP, EV_REQUEST, EV_PASS, EV_REVEAL, EV_WIN = range(6)

FAMILY_MASK = tuple(((1 << NUMBERS) - 1) << (NUMBERS * f) for f in range(FAMILIES))
BITS6 = tuple(tuple(b for b in range(6) if v >> b & 1) for v in range(64))
POP6 = tuple(v.bit_count() for v in range(64))
LOW6 = sum(1 << (6 * f) for f in range(FAMILIES))  # the lowest bit of each family
_BIT = tuple(1 << i for i in range(N_CARDS))


# for the checker, per 12-bit slice of a card mask (two families): does a family hold three or
# more cards? does each family hold 0, 3 or 6 (whole sets of three)?
_THREE12 = tuple(POP6[v & 63] >= 3 or POP6[v >> 6] >= 3 for v in range(4096))
_SETS12 = tuple(POP6[v & 63] % 3 == 0 and POP6[v >> 6] % 3 == 0 for v in range(4096))
_FIRST = itemgetter(0)
_PAIRS6 = tuple((v & 63, v >> 6) for v in range(4096))  # the two 6-bit families of a 12-bit slice
_THREES = (3,) * max(SETS_TO_WIN)
_ALL_CARDS = frozenset(range(N_CARDS))
_DEAL_SIZES = tuple(range(N_CARDS, 0, -1))  # cards left to deal, card by card
_BIT_OR_0 = _BIT + (0,)  # _BIT_OR_0[card] is the card's bit; [-1] (no card) is 0
_FAMILY_OF = tuple(c // NUMBERS for c in range(N_CARDS))
_SHIFT = tuple(NUMBERS * f for f in range(FAMILIES))
# a request action, split: _REQ_TARGET[action - REQUEST_BASE], _REQ_CARD[...] (the engine's own moves only)
_REQ_TARGET = tuple(a // 100 for a in range(100 * max(SETS_TO_WIN)))
_REQ_CARD = tuple(a % 100 for a in range(100 * max(SETS_TO_WIN)))

_BITS12: dict[int, tuple[tuple[int, ...], ...]] = {}  # 4096 small tuples per base, sharing their ints


def _bits12(base: int) -> tuple[tuple[int, ...], ...]:
    """For each 12-bit value, the tuple of ``base + bit`` for its bits, in order (built once per base)."""
    table = _BITS12.get(base)
    if table is None:
        items = tuple(base + b for b in range(12))  # shared ints
        rows: list[tuple[int, ...]] = [()] * 4096
        for v in range(1, 4096):
            low = (v & -v).bit_length() - 1
            rows[v] = (items[low],) + rows[v & (v - 1)]  # the lowest bit first, then the others in order
        table = _BITS12[base] = tuple(rows)
    return table


_PLACES_LO, _PLACES_MID, _PLACES_HI = _bits12(0), _bits12(12), _bits12(24)  # the places (or cards) of a mask


def _checker_tables(game: "HapyGame") -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """The checker's own tables for a layout, made once per game definition: per 12 places
    (0-11, 12-23, 24-35), for each set of them, the places they lie on (mask); and per
    place what to OR a card with to get what the place shows (0 God side up, -1 Mummy)."""
    tables = game.__dict__.get("_checker_tables")
    if tables is None:
        lies_on = [0] * N_CARDS
        for upper, lowers in enumerate(game.layout.covers):
            for lower in lowers:
                lies_on[upper] |= 1 << lower
        cover12 = []
        for k in range(3):
            rows = [0] * 4096
            for v in range(1, 4096):
                low = (v & -v).bit_length() - 1
                rows[v] = lies_on[12 * k + low] | rows[v & (v - 1)]
            cover12.append(tuple(rows))
        face_or = tuple(0 if up else HIDDEN for up in game.layout.face_up)
        tables = game.__dict__["_checker_tables"] = (tuple(cover12), face_or)
    return tables


def mask_cards(mask: int) -> list[int]:
    """The cards of a bitmask, in order."""
    out = []
    f = 0
    while mask:
        v = mask & 63
        if v:
            base = f * 6
            out.extend(base + b for b in BITS6[v])
        mask >>= 6
        f += 1
    return out


def sets_and_whole(mask: int) -> tuple[int, bool]:
    """Sets of three and whether a whole family is in a revealed mask."""
    sets = 0
    whole = False
    for f in range(FAMILIES):
        k = POP6[(mask >> (6 * f)) & 63]
        sets += k // 3
        whole = whole or k == 6
    return sets, whole


def _whole_family(mask: int) -> bool:
    """Does the mask hold all six cards of a family?"""
    return bool(mask & (mask >> 1) & (mask >> 2) & (mask >> 3) & (mask >> 4) & (mask >> 5) & LOW6)


# --------------------------------------------------------------------------- game
class HapyGame:
    """The rules bound to a game's data, a player count and a setup layout."""

    def __init__(self, families: Sequence[str], card_names: Sequence[str], card_fields: Sequence[Mapping[str, Any]],
                 layout: Layout, num_players: int, max_turns: int = MAX_TURNS):
        if num_players not in SETS_TO_WIN:
            raise CardgenError(f"Hâpy Families is for 2 to 4 players, not {num_players}")
        if layout.places != N_CARDS:
            raise CardgenError(f"layout '{layout.name}' has {layout.places} places for {N_CARDS} cards")
        self.families = tuple(families)
        self.card_names = tuple(card_names)
        self.num_players = num_players
        self.setup = layout.name
        self.layout = layout
        self.win_sets = SETS_TO_WIN[num_players]
        self.max_turns = max_turns
        # deal: places with a 'need' first (from the cards that meet it), then the rest
        pools: list[tuple[int, frozenset[int] | None]] = []
        for place, need in enumerate(layout.need):
            if need:
                pool = frozenset(c for c in range(N_CARDS)
                                 if all(_field(card_fields[c], k) == v for k, v in need.items()))
                pools.append((place, pool))
        constrained = {p for p, _ in pools}
        self.deal_order = tuple([p for p, _ in pools] + [p for p in range(N_CARDS) if p not in constrained])
        self.deal_pool = tuple([pool for _, pool in pools] + [None] * (N_CARDS - len(pools)))
        self.covers = layout.covers
        self.covered_by = layout.covered_by
        self.face_up = layout.face_up
        self.cover_count = tuple(len(c) for c in layout.covered_by)
        self.up_get = _getter([p for p in range(N_CARDS) if layout.face_up[p]])
        self.down_get = _getter([p for p in range(N_CARDS) if not layout.face_up[p]])
        self.next_seat = tuple((s + 1) % num_players for s in range(num_players))
        self.others = tuple(tuple(q for q in range(num_players) if q != s) for s in range(num_players))
        self.initial_avail = tuple(p for p in range(N_CARDS) if not layout.covered_by[p])  # after the deal
        self.free_deal = not pools  # no place needs particular cards: the deal lays places in order
        self.face_or = tuple(0 if up else HIDDEN for up in layout.face_up)  # card | face_or: what a place shows
        # per seat: the request tables of the other seats, in seat order, three slices each (see legal_actions)
        self.request_tables = tuple(tuple(_bits12(REQUEST_BASE + 100 * t + 12 * k) for t in range(num_players)
                                          if t != s for k in range(3)) for s in range(num_players))

    # OpenSpiel-style
    def new_initial_state(self) -> "HapyState":
        return HapyState(self)

    def max_game_length(self) -> int:
        return N_CARDS + 3 * self.max_turns

    def checker(self) -> "HapyChecker":
        return HapyChecker(self)

    def card_index(self, name: str) -> int:
        return self.card_names.index(name)

    def card_name(self, card: int) -> str:
        return self.card_names[card] if 0 <= card < N_CARDS else f"card {card}"


def _getter(indices: list[int]) -> Callable[[Sequence[int]], tuple[int, ...]]:
    """The items at ``indices``, as a tuple (also for zero or one index)."""
    if not indices:
        return lambda seq: ()
    if len(indices) == 1:
        i = indices[0]
        return lambda seq: (seq[i],)
    return itemgetter(*indices)


def _field(fields: Mapping[str, Any], path: str) -> Any:
    value: Any = fields
    for part in path.split("."):
        if not isinstance(value, Mapping) or part not in value:
            return None
        value = value[part]
    return value


# --------------------------------------------------------------------------- state
class HapyObservation:
    """What one player may know, as a live read-only view of the state.

    It exposes only public information and the player's own hand, always as the
    state is now (the runner makes one per seat for a whole game; an agent that
    wants to remember something copies it). It keeps the state in a private slot
    so that it costs nothing to make; an agent that read that slot would cheat,
    and the agents here use the properties only. ``events`` is the
    public log: ``(EV_TAKE, seat, place, card or -1 if Mummy side up)``,
    ``(EV_SKIP, seat)``, ``(EV_REQUEST, seat, asked seat, card, 1 if given)``,
    ``(EV_PASS, seat)``, ``(EV_REVEAL, seat, cards)``, ``(EV_WIN, seat)``.
    """

    __slots__ = ("player", "_s")

    def __init__(self, state: "HapyState", player: int):
        self.player = player
        self._s = state

    num_players = property(lambda self: self._s.g.num_players)
    win_sets = property(lambda self: self._s.g.win_sets)
    phase = property(lambda self: PHASE_NAMES[self._s.phase], doc="take, request or keep")
    hand_mask = property(lambda self: self._s.hand[self.player], doc="the player's own cards, as a bitmask")
    faces = property(lambda self: tuple(self._s.faces),
                     doc="per place: the card if it lies God side up, -1 if Mummy side up, -2 if empty")
    available = property(lambda self: tuple(self._s.avail), doc="places no card covers any more")
    hand_sizes = property(lambda self: tuple(self._s.hand_n))
    revealed = property(lambda self: tuple(self._s.rev), doc="revealed cards per seat, as bitmasks")
    forbidden = property(lambda self: self._s.last_request, doc="the card the previous player requested, or -1")
    events = property(lambda self: self._s.events, doc="the public log (read, never change)")
    own_revealed = property(lambda self: self._s.rev[self.player], doc="the player's revealed cards (bitmask)")
    request_view = property(lambda self: (self._s.hand[self.player], self._s.rev[self.player], self._s.rev_all,
                                          self._s.last_request),
                            doc="(hand_mask, own revealed, all revealed, forbidden) at once, for a request")
    n_events = property(lambda self: len(self._s.events))
    turn = property(lambda self: self._s.turn)

    @property
    def hand(self) -> tuple[int, ...]:
        """The player's own cards."""
        return tuple(mask_cards(self._s.hand[self.player]))

    FIELDS = ("player", "num_players", "win_sets", "phase", "hand", "faces", "available", "hand_sizes",
              "revealed", "forbidden", "turn")

    def public(self) -> dict[str, Any]:
        """Everything the player may know, as plain values (for tests and traces)."""
        return {k: getattr(self, k) for k in self.FIELDS} | {"events": tuple(self.events)}


class HapyState:
    __slots__ = ("g", "phase", "player", "deal_k", "remaining", "slot_card", "cover_left", "avail", "faces", "pyr",
                 "hand", "hand_n", "rev", "rev_all", "rev_sets", "last_request", "this_request", "turn", "winner",
                 "events", "keep_family", "steps", "pending", "won")

    def __init__(self, game: HapyGame):
        self.g = game
        self.phase = DEAL
        self.player = 0
        self.deal_k = 0
        self.remaining = list(range(N_CARDS))
        self.slot_card = [EMPTY] * N_CARDS  # the card at each place, EMPTY once taken (or not dealt yet)
        self.cover_left = list(game.cover_count)
        self.avail: list[int] = []
        self.faces = [EMPTY] * N_CARDS  # what everyone sees: the card if God side up, HIDDEN, or EMPTY
        self.pyr = 0
        n = game.num_players
        self.hand = [0] * n
        self.hand_n = [0] * n
        self.rev = [0] * n
        self.rev_all = 0
        self.rev_sets = [0] * n
        self.last_request = -1
        self.this_request = -1
        self.turn = 0
        self.winner = -1
        self.events: list[tuple] = []
        self.keep_family = -1
        self.steps = 0
        self.pending: list[int] = []  # families gained this turn, still to check for sets
        self.won = False  # a whole family was revealed this turn

    # -- queries ----------------------------------------------------------------
    live_observations = True  # observation(p) is a live view: the runner makes one per seat and game

    def current_player(self) -> int:
        phase = self.phase
        if phase == DEAL:
            return CHANCE
        if phase == OVER:
            return TERMINAL
        return self.player

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def is_chance_node(self) -> bool:
        return self.phase == DEAL

    def _deal_candidates(self) -> list[int]:
        pool = self.g.deal_pool[self.deal_k]
        if pool is None:
            return self.remaining
        return [c for c in self.remaining if c in pool]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.phase != DEAL:
            return []
        cands = self._deal_candidates()
        p = 1.0 / len(cands) if cands else 0.0
        return [(c, p) for c in cands]

    def sample_chance(self, rng: random.Random) -> int:
        """A uniform draw from :meth:`chance_outcomes` with the given random source."""
        if self.g.deal_pool[self.deal_k] is None:
            r = self.remaining
            return r[int(rng.random() * len(r))]
        cands = self._deal_candidates()
        return cands[int(rng.random() * len(cands))]

    def apply_chance_run(self, rng: random.Random) -> list[int]:
        """The whole deal at once: exactly the draws and moves of ``sample_chance`` and
        ``apply_action`` step by step, without a runner round-trip per card."""
        if self.phase != DEAL:
            return []
        g = self.g
        rand = rng.random
        remaining = self.remaining
        if self.deal_k == 0 and g.free_deal:
            # no place needs particular cards and places are dealt in order: draw every card
            # (the same draws as one by one), then lay them all at once
            # pop(int(rand() * n)) for n = 36, 35, ... 1, card by card in that order, as builtins
            out = list(map(remaining.pop, map(int, map(mul, starmap(rand, repeat((), N_CARDS)), _DEAL_SIZES))))
            self.slot_card = out[:]
            self.faces = list(map(or_, out, g.face_or))
            self.deal_k = N_CARDS
            self.pyr = N_CARDS
            self.steps += N_CARDS
            self.avail = list(g.initial_avail)
            self._start_turn()
            return out
        out = []
        slot_card, faces, face_up, order, pools = self.slot_card, self.faces, g.face_up, g.deal_order, g.deal_pool
        k = self.deal_k
        while k < N_CARDS:
            pool = pools[k]
            if pool is None:
                card = remaining.pop(int(rand() * len(remaining)))
            else:
                cands = [c for c in remaining if c in pool]
                card = cands[int(rand() * len(cands))]
                remaining.remove(card)
            place = order[k]
            slot_card[place] = card
            faces[place] = card if face_up[place] else HIDDEN
            out.append(card)
            k += 1
        self.deal_k = k
        self.pyr += len(out)
        self.steps += len(out)
        self.avail = list(g.initial_avail)
        self._start_turn()
        return out

    def legal_actions(self) -> list[int]:
        phase = self.phase
        if phase == REQUEST:
            # every card but the mover's own, the revealed ones and the one just requested, from each
            # other seat in turn: for each 12-bit slice of that mask (cards 0-11, 12-23, 24-35) a table
            # gives the requests naming its cards from one seat, so that listing the ~100 legal
            # requests of a 4-player turn is nine lookups, not a loop
            mask = ALL & ~(self.hand[self.player] | self.rev_all | _BIT_OR_0[self.last_request])
            m0 = mask & 4095
            m1 = (mask >> 12) & 4095
            m2 = mask >> 24
            t = self.g.request_tables[self.player]
            if len(t) == 3:
                return [PASS, *t[0][m0], *t[1][m1], *t[2][m2]]
            if len(t) == 6:
                return [PASS, *t[0][m0], *t[1][m1], *t[2][m2], *t[3][m0], *t[4][m1], *t[5][m2]]
            return [PASS, *t[0][m0], *t[1][m1], *t[2][m2], *t[3][m0], *t[4][m1], *t[5][m2],
                    *t[6][m0], *t[7][m1], *t[8][m2]]
        if phase == TAKE:
            return self.avail[:]
        if phase == KEEP:
            f = self.keep_family
            return [KEEP_BASE + 6 * f + b for b in BITS6[(self.hand[self.player] >> (6 * f)) & 63]]
        if phase == DEAL:
            return list(self._deal_candidates())
        return []

    def legal_at(self, u: float) -> int | None:
        """``legal_actions()[uniform_index(u, count)]`` without the list (for a random player)."""
        phase = self.phase
        if phase == REQUEST:
            p = self.player
            mask = ALL & ~(self.hand[p] | self.rev_all | _BIT_OR_0[self.last_request])
            k = mask.bit_count()
            i = int(u * (1 + (self.g.num_players - 1) * k))  # uniform_index, inline
            if not i:
                return PASS
            seat, j = divmod(i - 1, k)
            base = REQUEST_BASE + 100 * self.g.others[p][seat]
            for cards in (_PLACES_LO[mask & 4095], _PLACES_MID[(mask >> 12) & 4095], _PLACES_HI[mask >> 24]):
                if j < len(cards):
                    return base + cards[j]
                j -= len(cards)
        if phase == TAKE:
            avail = self.avail
            return avail[int(u * len(avail))] if avail else None
        if phase == KEEP:
            bits = BITS6[(self.hand[self.player] >> (6 * self.keep_family)) & 63]
            return KEEP_BASE + 6 * self.keep_family + bits[int(u * len(bits))] if bits else None
        legal = self.legal_actions()
        return legal[uniform_index(u, len(legal))] if legal else None

    def observation(self, player: int) -> HapyObservation:
        return HapyObservation(self, player)

    def returns(self) -> list[float]:
        return [1.0 if s == self.winner else 0.0 for s in range(self.g.num_players)]

    def length(self) -> int:
        """Turns played."""
        return self.turn

    def figures(self) -> dict[str, Any]:
        """Per-game figures for the validate report, read from the public log once the
        game is over: how often a request found its card, how the winner won, how many
        sets of three every seat had revealed, and the cards left in the layout."""
        asked = found = passes = 0
        for ev in self.events:
            kind = ev[0]
            if kind == EV_REQUEST:
                asked += 1
                found += ev[4]
            elif kind == EV_PASS:
                passes += 1
        w = self.winner
        sets, whole = sets_and_whole(self.rev[w]) if w >= 0 else (0, False)
        return {"requests": asked, "requests_found_%": 100.0 * found / asked if asked else 0.0,
                "passes": passes, "won_by_whole_family_%": 100.0 if whole else 0.0,
                "sets_revealed": [r.bit_count() // 3 for r in self.rev], "left_in_layout": self.pyr}

    def clone(self) -> "HapyState":
        s = HapyState.__new__(HapyState)
        for name in self.__slots__:
            v = getattr(self, name)
            setattr(s, name, v[:] if isinstance(v, list) else v)
        return s

    # -- moves ------------------------------------------------------------------
    def apply_action(self, action: int) -> int:
        """Apply one action of the current player (or of chance).

        The usual steps run inline: a take, and a request (or pass) after which no
        family reaches three in hand, so that the turn ends at once. Reveals, the
        choice of the card to keep and the win go through :meth:`_reveal`. The
        engine trusts its own move list here; the checker judges every action by
        the rules before it is applied. Returns the new :meth:`current_player`."""
        phase = self.phase
        if phase == REQUEST:
            p = self.player
            if action == PASS:
                card = -1
                self.events.append((EV_PASS, p))
            else:
                a = action - REQUEST_BASE
                target = _REQ_TARGET[a]
                card = _REQ_CARD[a]
                if self.hand[target] & _BIT[card]:
                    self._transfer(card, target, p)
                    self.pending.append(_FAMILY_OF[card])
                    self.events.append((EV_REQUEST, p, target, card, 1))
                else:
                    self.events.append((EV_REQUEST, p, target, card, 0))
            self.steps += 1
            pending = self.pending
            if pending:  # a family gained this turn: three or more in hand?
                hand = self.hand[p]
                for f in pending:
                    if POP6[(hand >> _SHIFT[f]) & 63] > 2:
                        self.this_request = card
                        self._reveal()
                        return self.current_player()
                pending.clear()
            # the turn ends (as _end_turn, with no reveal in it)
            g = self.g
            if self.won or self.rev_sets[p] >= g.win_sets:
                self.this_request = card
                self._end_turn()
                return self.current_player()
            self.turn += 1
            self.last_request = card
            p = self.player = g.next_seat[p]
            if self.pyr:
                self.phase = TAKE
            else:
                self.events.append((EV_SKIP, p))
            return p
        if phase == TAKE:
            g = self.g
            slot_card = self.slot_card
            card = slot_card[action]
            slot_card[action] = EMPTY
            self.faces[action] = EMPTY
            avail = self.avail
            avail.remove(action)
            self.pyr -= 1
            cover_left = self.cover_left
            for lower in g.covers[action]:
                left = cover_left[lower] - 1
                cover_left[lower] = left
                if not left and slot_card[lower] >= 0:
                    insort(avail, lower)
            p = self.player
            self.hand[p] |= _BIT[card]
            self.hand_n[p] += 1
            self.pending.append(_FAMILY_OF[card])
            self.events.append((EV_TAKE, p, action, card if g.face_up[action] else HIDDEN))
            self.phase = REQUEST
            self.steps += 1
            return p
        if phase == DEAL:
            self._deal(action)
        elif phase == KEEP:
            self._keep(action)
        else:
            raise RuleViolation("an action was applied after the end of the game")
        self.steps += 1
        return self.current_player()

    def _deal(self, card: int) -> None:
        g = self.g
        place = g.deal_order[self.deal_k]
        self.remaining.remove(card)
        self.slot_card[place] = card
        self.faces[place] = card if g.face_up[place] else -1
        self.pyr += 1
        self.deal_k += 1
        if self.deal_k == N_CARDS:
            self.avail = list(g.initial_avail)
            self._start_turn()

    def _start_turn(self) -> None:
        if self.pyr:
            self.phase = TAKE
        else:
            self.phase = REQUEST
            self.events.append((EV_SKIP, self.player))

    def _transfer(self, card: int, giver: int, taker: int) -> None:
        bit = 1 << card
        self.hand[giver] &= ~bit
        self.hand_n[giver] -= 1
        self.hand[taker] |= bit
        self.hand_n[taker] += 1

    def _reveal(self) -> None:
        """Reveal every set of three; stop for a choice when four of a family are held.

        Only the families gained this turn can hold three: a player ends every turn
        with at most two of each family."""
        pending = self.pending
        while pending:
            f = pending.pop()
            v = (self.hand[self.player] >> (6 * f)) & 63
            k = POP6[v]
            if k == 3:
                self._reveal_cards(v << (6 * f), f)
            elif k >= 4:
                self.keep_family = f
                self.phase = KEEP
                return
        self._end_turn()

    def _keep(self, action: int) -> None:
        f = self.keep_family
        fam = self.hand[self.player] & FAMILY_MASK[f]
        self.keep_family = -1
        self.phase = REQUEST
        self._reveal_cards(fam & ~(1 << (action - KEEP_BASE)), f)
        self._reveal()

    def _reveal_cards(self, mask: int, family: int) -> None:
        p = self.player
        self.hand[p] &= ~mask
        self.hand_n[p] -= mask.bit_count()
        rev = self.rev[p] | mask
        self.rev[p] = rev
        self.rev_all |= mask
        self.rev_sets[p] += 1
        if rev & FAMILY_MASK[family] == FAMILY_MASK[family]:
            self.won = True
        self.events.append((EV_REVEAL, p, tuple(mask_cards(mask))))

    def _end_turn(self) -> None:
        p = self.player
        self.turn += 1
        if self.won or self.rev_sets[p] >= self.g.win_sets:
            self.winner = p
            self.phase = OVER
            self.events.append((EV_WIN, p))
            return
        self.last_request = self.this_request
        self.this_request = -1
        self.player = (p + 1) % self.g.num_players
        self._start_turn()

    # -- text -------------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        g = self.g
        if self.phase == DEAL:
            return f"deal {g.card_name(action)} to place {g.deal_order[self.deal_k]}"
        if 0 <= action < N_CARDS and self.phase == TAKE:
            card = self.slot_card[action]
            side = "God side up" if g.face_up[action] else "Mummy side up"
            return f"take place {action} ({g.card_name(card)}, {side})"
        if action == PASS:
            return "request nothing"
        if REQUEST_BASE <= action < KEEP_BASE:
            target, card = divmod(action - REQUEST_BASE, 100)
            return f"ask seat {target + 1} for {g.card_name(card)}"
        if action >= KEEP_BASE:
            return f"keep {g.card_name(action - KEEP_BASE)}, reveal the other three"
        return f"action {action}"

    def __str__(self) -> str:
        g = self.g
        lines = [f"turn {self.turn + 1}, seat {self.player + 1} to {PHASE_NAMES[self.phase]}, "
                 f"{self.pyr} card(s) in the {g.setup}"]
        for s in range(g.num_players):
            hand = ", ".join(g.card_name(c) for c in mask_cards(self.hand[s])) or "—"
            rev = ", ".join(g.card_name(c) for c in mask_cards(self.rev[s])) or "—"
            lines.append(f"  seat {s + 1}: hand {hand}; revealed {rev}")
        return "\n".join(lines)

    # -- constructed positions (tests, debugging) -----------------------------
    @classmethod
    def from_position(cls, game: HapyGame, layout: Mapping[int, int] | Sequence[int | None],
                      hands: Sequence[Sequence[int]],
                      revealed: Sequence[Sequence[int]] = (), player: int = 0, last_request: int = -1) -> "HapyState":
        """A position after the deal: ``layout`` maps places to cards (others empty)."""
        s = cls(game)
        n = game.num_players
        placed = dict(layout) if isinstance(layout, Mapping) else {i: c for i, c in enumerate(layout) if c is not None}
        revealed = list(revealed) + [[]] * (n - len(revealed))
        seen: list[int] = list(placed.values()) + [c for h in hands for c in h] + [c for r in revealed for c in r]
        if sorted(seen) != list(range(N_CARDS)):
            raise ValueError("a position must place each of the 36 cards exactly once")
        s.remaining = []
        s.deal_k = N_CARDS
        for place, card in placed.items():
            s.slot_card[place] = card
            s.faces[place] = card if game.face_up[place] else -1
        s.pyr = len(placed)
        s.cover_left = [sum(1 for u in game.covered_by[p] if s.slot_card[u] >= 0) for p in range(N_CARDS)]
        s.avail = [p for p in range(N_CARDS) if s.slot_card[p] >= 0 and s.cover_left[p] == 0]
        for seat in range(n):
            for c in hands[seat]:
                s.hand[seat] |= 1 << c
            s.hand_n[seat] = len(hands[seat])
            for c in revealed[seat]:
                s.rev[seat] |= 1 << c
            s.rev_all |= s.rev[seat]
            s.rev_sets[seat] = sets_and_whole(s.rev[seat])[0]
        s.player = player
        s.last_request = last_request
        s._start_turn()
        return s


# --------------------------------------------------------------------------- checks
class HapyChecker:
    """Checks each action against the rules and the state's invariants.

    Written apart from the engine's move generator: it judges each action on the
    raw places, hands and revealed cards. Every step: the cheap card count
    (layout + hands + revealed = 36) and the rule the action falls under; every
    turn end: no set of three left in the hand, no missed win, clockwise order;
    every ``full`` step (the runner samples them) and at the end: each card
    exactly once, the counts, the public faces, and availability recomputed from
    the cover graph.

    For the full checks the checker keeps its own record of the layout: made from
    the state and checked from scratch at the first full check (the end of the
    deal), then updated by each take it judges. A full check compares the
    engine's places and faces with that record, so a card that moved, vanished
    or shows the wrong face is found without re-reading every place; the
    available places are recomputed from the places that hold a card through the
    cover graph (per 12 places, a table of the places they lie on).
    """

    __slots__ = ("g", "n", "covered_by", "face_up", "next_seat", "win_sets", "rev_seen", "may_win", "turn",
                 "player", "gained", "cover12", "face_or", "layout", "faces", "cards", "places", "count",
                 "fine", "whole_sets")

    def __init__(self, game: HapyGame):
        self.g = game
        self.n = game.num_players
        self.covered_by = game.covered_by
        self.face_up = game.face_up
        self.next_seat = game.next_seat
        self.win_sets = game.win_sets
        self.rev_seen = [-1] * self.n  # each seat's revealed cards when its win condition was last computed
        self.may_win = [False] * self.n
        self.turn = 0
        self.player = 0
        self.gained: list[int] = []  # families the mover gained this turn
        self.cover12, self.face_or = _checker_tables(game)
        # the own record of the layout (None until the first full check)
        self.layout: list[int] | None = None  # the card at each place, EMPTY once taken
        self.faces: list[int] = []  # what each place must show
        self.cards = 0  # the cards in the layout (mask)
        self.places = 0  # the places holding a card (mask)
        self.count = 0
        self.fine: set[int] = set()  # hands seen to hold no three of a family
        self.whole_sets: set[int] = set()  # revealed cards seen to be whole sets of three

    def before(self, s: HapyState, player: int, action: int) -> None:
        phase = s.phase
        if phase == REQUEST:
            if action == PASS:
                return
            a = action - REQUEST_BASE
            target = a // 100
            card = a - 100 * target
            if not (0 <= target < self.n) or target == player or card >= N_CARDS:
                raise RuleViolation(f"seat {player + 1} made an impossible request ({action})")
            if card == s.last_request:
                raise RuleViolation(f"seat {player + 1} requested {self.g.card_name(card)}, the card the previous"
                                    " player requested")
            bit = _BIT[card]
            if s.rev_all & bit:  # rev_all itself is checked against each seat's cards in full checks
                raise RuleViolation(f"seat {player + 1} requested {self.g.card_name(card)}, a revealed card")
            if s.hand[target] & bit:
                self.gained.append(card // 6)
        elif phase == TAKE:
            slot_card = s.slot_card
            if not (0 <= action < N_CARDS) or slot_card[action] < 0:
                raise RuleViolation(f"seat {player + 1} took from place {action}, which holds no card")
            for upper in self.covered_by[action]:
                if slot_card[upper] >= 0:
                    name = self.g.card_name(slot_card[action])
                    raise RuleViolation(f"seat {player + 1} took place {action} ({name})"
                                        f" although place {upper} still covers it")
            card = slot_card[action]
            self.gained.append(card // 6)
            layout = self.layout
            if layout is not None:  # the record follows the take
                if layout[action] != card:
                    raise RuleViolation(f"place {action} holds {self.g.card_name(card)}, but"
                                        f" {self.g.card_name(layout[action])} was laid there")
                layout[action] = EMPTY
                self.faces[action] = EMPTY
                self.cards &= ~(1 << card)
                self.places &= ~(1 << action)
                self.count -= 1
        elif phase == KEEP:
            card = action - KEEP_BASE
            if not (0 <= card < N_CARDS) or not (s.hand[player] >> card & 1):
                raise RuleViolation(f"seat {player + 1} chose to keep a card it does not hold ({action})")
            if POP6[(s.hand[player] >> (6 * (card // 6))) & 63] < 4:
                raise RuleViolation(f"seat {player + 1} was asked to choose a card to keep without four of a family")

    def after(self, s: HapyState, full: bool) -> None:
        phase = s.phase
        if phase == DEAL:
            if s.pyr + len(s.remaining) != N_CARDS:
                raise RuleViolation(f"the deal lost a card: {s.pyr} placed + {len(s.remaining)} to deal != {N_CARDS}")
            return
        pyr = s.pyr
        if pyr + sum(s.hand_n) + s.rev_all.bit_count() != N_CARDS:
            raise RuleViolation(f"card count is {pyr + sum(s.hand_n) + s.rev_all.bit_count()}, not {N_CARDS}"
                                f" (layout {pyr}, hands {list(s.hand_n)}, revealed {s.rev_all.bit_count()})")
        turn = s.turn
        if turn != self.turn:
            # The mover's turn is over: no set of three kept, the win taken if met, the next seat
            # clockwise. Only the families the mover gained this turn (seen by before) can have
            # reached three in hand; the full check looks at every family. The win condition is
            # recomputed whenever the mover's revealed cards changed.
            prev = self.player
            gained = self.gained
            if gained:
                hand = s.hand[prev]
                for f in gained:
                    if POP6[(hand >> (6 * f)) & 63] >= 3:
                        raise RuleViolation(f"seat {prev + 1} ended a turn with a set of three"
                                            f" {self.g.families[f]} in hand")
                gained.clear()
            rev = s.rev[prev]
            if rev != self.rev_seen[prev]:
                self.rev_seen[prev] = rev
                self.may_win[prev] = _whole_family(rev) or rev.bit_count() // 3 >= self.win_sets
            player = s.player
            if phase == OVER:
                if self.may_win[prev] != (s.winner == prev):
                    self._wrong_end(s, prev, True)
            else:
                if self.may_win[prev]:
                    self._wrong_end(s, prev, False)
                if player != self.next_seat[prev]:
                    raise RuleViolation(f"seat {player + 1} plays after seat {prev + 1}: not clockwise")
                if phase == TAKE:
                    if not pyr:
                        raise RuleViolation("a turn began with a take step from an empty layout")
                elif pyr:
                    raise RuleViolation("a turn began without the take step although the layout holds cards")
            self.turn = turn
            self.player = player
        if full:
            self.conservation(s)

    def _wrong_end(self, s: HapyState, prev: int, over: bool) -> None:
        rev = s.rev[prev]
        sets = rev.bit_count() // 3
        whole = _whole_family(rev)
        if over:
            raise RuleViolation(f"seat {s.winner + 1} was declared the winner, but seat {prev + 1} ended the"
                                f" turn with {sets} set(s){' and a whole family' if whole else ''}")
        raise RuleViolation(f"seat {prev + 1} meets the win condition ({sets} set(s)"
                            f"{', a whole family' if whole else ''}) but the game went on")

    def conservation(self, s: HapyState) -> None:
        """Each card exactly once; the layout and faces against the record; counts and
        availability recomputed."""
        if self.layout is None:
            self._record(s)
        elif s.slot_card != self.layout or s.faces != self.faces:
            self._differs(s)
        count = self.count
        if count != s.pyr:
            raise RuleViolation(f"the layout holds {count} cards but counts {s.pyr}")
        hands = s.hand
        revs = s.rev
        hand_n = list(map(int.bit_count, hands))
        rev_n = list(map(int.bit_count, revs))
        rev_all = reduce(or_, revs, 0)
        # each card exactly once: the masks cover all 36 cards and their sizes add up to 36
        if reduce(or_, hands, self.cards | rev_all) != ALL or count + sum(hand_n) + sum(rev_n) != N_CARDS:
            self._lost_or_twice(s)
        if hand_n != s.hand_n:
            q = next(q for q in range(self.n) if hand_n[q] != s.hand_n[q])
            raise RuleViolation(f"seat {q + 1}'s hand counts {s.hand_n[q]} but holds {hand_n[q]}")
        if rev_all != s.rev_all:
            raise RuleViolation("the revealed cards disagree with the record of revealed cards")
        if list(map(floordiv, rev_n, _THREES)) != s.rev_sets:
            q = next(q for q in range(self.n) if rev_n[q] // 3 != s.rev_sets[q])
            raise RuleViolation(f"seat {q + 1} counts {s.rev_sets[q]} revealed set(s) but shows {rev_n[q] // 3}")
        # no family of three or more in a hand between turns, revealed cards in whole sets
        # (a mask found right once is not looked at again)
        three = _THREE12
        mover = s.player if s.phase != TAKE else -1  # only the mover may hold three, before revealing
        fine = self.fine
        for q, m in enumerate(hands):
            if q != mover and m not in fine:
                if three[m & 4095] or three[(m >> 12) & 4095] or three[m >> 24]:
                    f = next(f for f in range(FAMILIES) if POP6[(m >> (6 * f)) & 63] >= 3)
                    raise RuleViolation(f"seat {q + 1} holds {POP6[(m >> (6 * f)) & 63]} {self.g.families[f]} in"
                                        " hand between turns: sets of three must be revealed")
                fine.add(m)
        sets = _SETS12
        whole_sets = self.whole_sets
        for q, m in enumerate(revs):
            if m not in whole_sets:
                if not (sets[m & 4095] and sets[(m >> 12) & 4095] and sets[m >> 24]):
                    f = next(f for f in range(FAMILIES) if POP6[(m >> (6 * f)) & 63] % 3)
                    raise RuleViolation(f"seat {q + 1} has {POP6[(m >> (6 * f)) & 63]} revealed"
                                        f" {self.g.families[f]}: not sets of three")
                whole_sets.add(m)
        # free places, from scratch: the places holding a card that no such place lies on
        places = self.places
        avail = s.avail
        if places:
            t0, t1, t2 = self.cover12
            free = places & ~(t0[places & 4095] | t1[(places >> 12) & 4095] | t2[places >> 24])
            ok = len(avail) == free.bit_count() and \
                tuple(avail) == _PLACES_LO[free & 4095] + _PLACES_MID[(free >> 12) & 4095] + _PLACES_HI[free >> 24]
        else:
            free = 0
            ok = not avail
        if not ok:
            want = [p for p in range(N_CARDS) if free >> p & 1]
            raise RuleViolation(f"available places are {avail}, should be {want}")

    def _record(self, s: HapyState) -> None:
        """Start the own record of the layout from the state, checked from scratch."""
        layout = list(s.slot_card)
        # what the players see: God-up places show their card, Mummy-up places never do
        faces = list(map(or_, layout, self.face_or))
        if len(layout) == N_CARDS and _ALL_CARDS == set(layout):  # every place holds a card, each card once (the end of the deal)
            cards = places = ALL
            count = N_CARDS
        else:
            cards = places = count = 0
            for p, c in enumerate(layout):
                if c == EMPTY:
                    faces[p] = EMPTY
                    continue
                if not (isinstance(c, int) and 0 <= c < N_CARDS):
                    raise RuleViolation(f"place {p} holds {c!r}, neither a card nor empty")
                if cards >> c & 1:
                    raise RuleViolation(f"{self.g.card_name(c)} lies twice in the layout")
                cards |= 1 << c
                places |= 1 << p
                count += 1
        self.layout, self.faces, self.cards, self.places, self.count = layout, faces, cards, places, count
        if s.faces != faces:
            self._differs(s)

    def _differs(self, s: HapyState) -> None:
        g = self.g
        for p in range(N_CARDS):
            c, want = s.slot_card[p], self.layout[p]
            if c != want:
                if want == EMPTY:
                    raise RuleViolation(f"place {p} holds {g.card_name(c)}, but its card was taken")
                raise RuleViolation(f"place {p} holds {'nothing' if c == EMPTY else g.card_name(c)}, but"
                                    f" {g.card_name(want)} was laid there and not taken")
        for p in range(N_CARDS):
            if s.faces[p] != self.faces[p]:
                if self.face_up[p]:
                    raise RuleViolation(f"God-up place {p} shows the players something else than its card")
                raise RuleViolation(f"Mummy-up place {p} shows the players its card (or hides its absence)")
        raise RuleViolation("the layout differs from the checker's record")

    def _lost_or_twice(self, s: HapyState) -> None:
        g = self.g
        seen = self.cards
        for what, masks in (("hand", s.hand), ("revealed cards", s.rev)):
            for q, m in enumerate(masks):
                if seen & m:
                    raise RuleViolation(f"{g.card_name(mask_cards(seen & m)[0])} is in two places at once"
                                        f" (one is seat {q + 1}'s {what})")
                seen |= m
        missing = mask_cards(ALL & ~seen)
        raise RuleViolation(f"card(s) lost: {', '.join(g.card_name(c) for c in missing) or '?'}")

    def at_end(self, s: HapyState) -> None:
        if s.phase != OVER:
            raise RuleViolation("the game stopped before it was over")
        self.conservation(s)
        w = s.winner
        if not (0 <= w < self.g.num_players):
            raise RuleViolation("the game ended without a winner")
        sets, whole = sets_and_whole(s.rev[w])
        if not whole and sets < self.g.win_sets:
            raise RuleViolation(f"seat {w + 1} won with {sets} set(s) of three and no whole family"
                                f" ({self.g.win_sets} sets needed with {self.g.num_players} players)")
        if s.returns()[w] != 1.0:
            raise RuleViolation("the winner's return is not 1")


# --------------------------------------------------------------------------- agents
# RandomAgent is the generic one of .api; the greedy player is this game's own.
class _PublicMemory:
    """What the public log of one game tells, read once for all the greedy players of the game.

    Public facts only (the log is the same for every seat): the seat publicly known
    to hold each card, how many cards are publicly known in each hand, the cards a
    seat was asked for in vain since its last secret take, how often each seat asked
    for each family, how often each seat had to give each card away, the God-up
    cards still in the layout and how many Mummy-up cards were taken. Found through
    the log itself (:meth:`of`), so that the players of a game share one."""

    __slots__ = ("events", "seen", "holder", "known", "lacks", "interest", "lost", "table", "mummy_taken",
                 "__weakref__")
    _by_log: "weakref.WeakValueDictionary[int, _PublicMemory]" = weakref.WeakValueDictionary()

    @classmethod
    def of(cls, events: list, n: int, faces: Sequence[int]) -> "_PublicMemory":
        """The memory of the game whose log is ``events`` (made from these faces if there is none yet)."""
        mem = cls._by_log.get(id(events))
        if mem is None or mem.events is not events:
            mem = cls(events, n, faces)
            cls._by_log[id(events)] = mem  # the memory keeps the log alive: its id stays its own
        return mem

    def __init__(self, events: list, n: int, faces: Sequence[int]):
        self.events = events
        self.seen = 0  # events read so far
        self.holder = [-1] * N_CARDS
        self.known = [0] * n
        self.lacks = [0] * n
        self.interest = [[0] * FAMILIES, [0] * FAMILIES, [0] * FAMILIES, [0] * FAMILIES][:n]
        self.lost = [[0] * N_CARDS, [0] * N_CARDS, [0] * N_CARDS, [0] * N_CARDS][:n]
        table = 0
        for c in faces:
            if c >= 0:
                table |= 1 << c
        self.table = table
        self.mummy_taken = 0

    def update(self) -> None:
        """Read the log from where it was left."""
        events = self.events
        holder, known, lacks, interest, lost = self.holder, self.known, self.lacks, self.interest, self.lost
        table = self.table
        for ev in events[self.seen:]:
            kind = ev[0]
            if kind == EV_REQUEST:
                _, q, t, c, ok = ev
                interest[q][_FAMILY_OF[c]] += 1
                if ok:
                    old = holder[c]
                    if old >= 0:
                        known[old] -= 1
                    known[q] += 1
                    holder[c] = q
                    lacks[t] &= ~(1 << c)
                    lost[t][c] += 1
                else:
                    lacks[t] |= 1 << c
            elif kind == EV_TAKE:
                c = ev[3]
                if c >= 0:
                    q = ev[1]
                    old = holder[c]
                    if old >= 0:
                        known[old] -= 1
                    known[q] += 1
                    holder[c] = q
                    table &= ~(1 << c)
                else:
                    self.mummy_taken += 1
                    lacks[ev[1]] = 0
            elif kind == EV_REVEAL:
                for c in ev[2]:
                    old = holder[c]
                    if old >= 0:
                        known[old] -= 1
                    holder[c] = -2
        self.table = table
        self.seen = len(events)


class GreedyAgent:
    """Plays sensibly with what it can know.

    It remembers the public log: the cards taken God side up and by whom, the
    requests that succeeded (so where those cards went), the ones that failed (so
    who lacks a card) and the families each player asks for (so who probably
    collects them). It takes the card that best fits the families it holds (a
    Mummy-up card beats a God-up card of a family it does not collect). It asks
    for the card that best completes its families, weighing how sure it is of
    where the card is: certain when the holder is public, else the chance that a
    given opponent holds it (their unknown cards among all the unknown cards,
    more if they asked for that family, none if they were asked in vain). A card
    it has lost to a request before is worth less, which breaks tug-of-wars
    over one family. When it holds four of a family it keeps one that the others
    do not know about.

    The log is read when the memory is needed (a request or a choice of the card
    to keep), not at every step; a take needs only the own hand and the faces.
    """

    TAKE_VALUE = (1.0, 4.0, 10.0, 10.0, 10.0, 10.0, 10.0)
    MUMMY = 2.0
    ASK_VALUE = (3.0, 8.0, 30.0, 30.0, 30.0, 30.0, 30.0)

    __slots__ = ("seat", "n", "others", "mem", "hidden0", "faces")

    def __init__(self, game: HapyGame, seat: int):
        self.seat = seat
        self.n = game.num_players
        self.others = game.others[seat]
        self.mem: _PublicMemory | None = None  # what the public log tells (shared by the greedy players of a game)
        self.hidden0 = 0  # cards lying Mummy side up in the layout at the first observation
        self.faces: tuple[int, ...] = ()  # the faces at the first observation: a place shows that until taken

    # the memory, as the agent sees it
    holder = property(lambda self: self.mem.holder, doc="per card: the seat publicly known to hold it; -1 unknown,"
                                                        " -2 revealed")
    known = property(lambda self: self.mem.known, doc="cards publicly known to be in each hand")
    lacks = property(lambda self: self.mem.lacks, doc="cards a seat was asked for in vain (since its last secret take)")
    interest = property(lambda self: self.mem.interest, doc="per seat and family: how often the seat asked for it")
    lost = property(lambda self: self.mem.lost[self.seat], doc="how often this player had to give each card away")
    table = property(lambda self: self.mem.table, doc="cards lying God side up in the layout (mask)")
    hidden = property(lambda self: self.hidden0 - self.mem.mummy_taken,
                      doc="cards lying Mummy side up in the layout (as counted from the first observation)")

    def _first(self, obs: HapyObservation) -> None:
        faces = self.faces = obs.faces
        self.hidden0 = faces.count(HIDDEN)

    def _update(self, obs: HapyObservation) -> None:
        """Read the public log from where it was left."""
        if not self.faces:
            self._first(obs)
        events = obs.events
        mem = self.mem
        if mem is None or mem.events is not events:
            mem = self.mem = _PublicMemory.of(events, self.n, obs.faces)
        if mem.seen != len(events):
            mem.update()

    def act(self, obs: HapyObservation, legal: Sequence[int], rng: random.Random) -> int:
        phase = obs.phase
        if phase == "request":
            self._update(obs)
            return self._request(obs)
        if phase == "take":
            if not self.faces:
                self._first(obs)
            return self._take(obs, legal, rng)
        if phase == "keep":
            self._update(obs)
            holder = self.mem.holder
            for a in legal:
                if holder[a - KEEP_BASE] != self.seat:
                    return a
            return legal[0]
        return legal[int(rng.random() * len(legal))]

    def _take(self, obs: HapyObservation, legal: Sequence[int], rng: random.Random) -> int:
        hand = obs.hand_mask
        myrev = obs.own_revealed
        faces = self.faces
        value = self.TAKE_VALUE
        mummy = self.MUMMY
        best: list[int] = []
        best_score = -1.0
        for place in legal:
            c = faces[place]
            if c >= 0:
                shift = _SHIFT[_FAMILY_OF[c]]
                score = value[POP6[(hand >> shift) & 63]]
                if (myrev >> shift) & 63:
                    score += 5.0  # three more of a revealed family make a whole family
            else:
                score = mummy
            if score > best_score:
                best_score = score
                best = [place]
            elif score == best_score:
                best.append(place)
        return best[int(rng.random() * len(best))] if len(best) > 1 else best[0]

    def _request(self, obs: HapyObservation) -> int:
        me = self.seat
        hand, myrev, rev_all, forbidden = obs.request_view
        mem = self.mem
        free = ALL & ~(hand | mem.table | rev_all | _BIT_OR_0[forbidden])  # the cards worth naming
        if not free:
            return PASS
        ask = self.ASK_VALUE
        # families worth asking for, best first (the most of it in hand, then the last family):
        # two in hand complete a set. Per family: its free cards and its cards in hand, 6 bits each
        frees = _PAIRS6[free & 4095] + _PAIRS6[(free >> 12) & 4095] + _PAIRS6[free >> 24]
        hands = _PAIRS6[hand & 4095] + _PAIRS6[(hand >> 12) & 4095] + _PAIRS6[hand >> 24]
        fams = []
        for f in (5, 4, 3, 2, 1, 0):
            free = frees[f]
            if free:
                k = POP6[hands[f]]
                if k or (myrev >> _SHIFT[f]) & 63:
                    fams.append((ask[k], f, free))
        if not fams:
            return PASS
        if len(fams) > 1:
            fams.sort(key=_FIRST, reverse=True)  # stable: among equal weights, the last family first
        holder, lacks, lost = mem.holder, mem.lacks, mem.lost[me]
        ratio = None
        best_score = 0.0
        best_action = PASS
        for weight, f, free in fams:
            if weight <= best_score:
                break  # a card's chance is at most 1: no later family can do better
            ranked = None
            base = 6 * f
            for b in BITS6[free]:
                c = base + b
                h = holder[c]
                if h >= 0:
                    if h == me:
                        continue
                    target = h
                    chance = 1.0
                else:
                    if ranked is None:
                        # the opponents most likely to hold an unseen card of f: their unknown
                        # cards among all the cards of unknown place, more if they asked for f
                        if ratio is None:
                            ratio = self._ratios(obs)
                        ranked = []
                        interest = mem.interest
                        for r, q in ratio:
                            x = r * (1.0 + interest[q][f])
                            ranked.append((x if x < 1.0 else 1.0, q))
                        if len(ranked) > 1:
                            ranked.sort(reverse=True)
                    bit = _BIT[c]
                    for chance, target in ranked:
                        if not lacks[target] & bit:
                            break
                    else:
                        continue
                score = weight * chance / (1 + lost[c])
                if score > best_score:
                    best_score = score
                    best_action = REQUEST_BASE + 100 * target + c
                    if score == weight:
                        break  # no card of this family can do better
        return best_action

    def _ratios(self, obs: HapyObservation) -> list[tuple[float, int]]:
        """``(unknown cards / cards of unknown place, seat)`` for each opponent with unknown cards."""
        mem = self.mem
        sizes, known = obs.hand_sizes, mem.known
        pool = self.hidden0 - mem.mummy_taken  # where a card of unknown place may be: the hands' unknown cards,
        # the Mummy-up ones
        unknown = []
        for q in self.others:
            u = sizes[q] - known[q]
            pool += u
            if u > 0:
                unknown.append((u, q))
        if not pool:
            return []
        out = []
        for u, q in unknown:
            out.append((u / pool, q))
        return out


# --------------------------------------------------------------------------- the rules module
class HapyRules:
    """The rules of Hâpy Families, for the generic validator."""

    game_id = GAME_ID
    agents: Mapping[str, Callable[[HapyGame, int], Any]] = {"random": RandomAgent, "greedy": GreedyAgent}
    # Can a game never end? Cards in hands always form whole sets (a family has 0, 3 or
    # 6 cards outside the revealed sets), so someone can always still win; but nothing
    # forces a player to ask for the right card, and a player may pass forever once the
    # layout is empty. Random players may do exactly that: a random game that reaches
    # the turn limit is counted and listed with its seed, not failed. Greedy players
    # always ask for something useful, so a greedy game that never ends is a failure.
    must_finish = {"random": False, "greedy": True}

    def player_counts(self, game) -> tuple[int, ...]:
        lo, hi = game.players
        return tuple(n for n in sorted(SETS_TO_WIN) if lo <= n <= hi)

    def setups(self, game) -> tuple[str, ...]:
        layouts = game.data.get("layouts")
        names = list(SETUPS)
        if isinstance(layouts, Mapping):
            names += [k for k in layouts if k not in SETUPS]
        return tuple(names)

    # -- what the rules need ---------------------------------------------------
    def static_spec(self, game, locate: Callable[..., Where]) -> StaticSpec:
        problems: list[Problem] = []
        families = game.data.get("families")
        fam_ids: list[str] = []
        if not isinstance(families, (list, tuple)):
            problems.append(Problem("the rules need 'families' in the game's data: a list of the six families",
                                    locate("families")))
        else:
            for i, fam in enumerate(families):
                fid = fam.get("id") if isinstance(fam, Mapping) else None
                if not isinstance(fid, str) or not fid:
                    problems.append(Problem(f"family {i + 1} has no 'id'", locate("families", i)))
                else:
                    fam_ids.append(fid)
        expected = tuple((fid, n) for fid in fam_ids for n in range(1, NUMBERS + 1))
        arrangements = []
        layouts = game.data.get("layouts")
        if not isinstance(layouts, Mapping):
            problems.append(Problem("the rules need 'layouts' in the game's data (the pyramid and the exploration"
                                    " layouts; see card_data/hapy/layouts.yaml)", locate("layouts")))
            layouts = {}
        for name in self.setups(game):
            if name not in layouts:
                problems.append(Problem(f"layout '{name}' is missing: the rules describe it, the data has none",
                                        locate("layouts")))
                continue
            layout, found = parse_layout(name, layouts[name], locate)
            if layout is None:
                arrangements.append(Arrangement(name, 0, where=locate("layouts", name), problems=tuple(found)))
                continue
            fixed: dict[tuple[str, Any], int] = {}
            for need in layout.need:
                if need:
                    for k, v in need.items():
                        fixed[(k, v)] = fixed.get((k, v), 0) + 1
            detail = ("rows of " + "+".join(str(r) for r in layout.rows)) if len(layout.rows) <= 8 \
                else f"{len(layout.rows)} rows"
            if name == "pyramid":
                found += self._check_pyramid(game, layout, locate)
            arrangements.append(Arrangement(name, layout.places, fixed, detail, locate("layouts", name), tuple(found)))
        return StaticSpec(
            component=DECK,
            key_fields=("family.id", "number"),
            expected=expected,
            name=lambda key: f"{key[0]}-{key[1]}",
            expected_text=f"{FAMILIES} families × numbers 1–{NUMBERS}",
            groups=(GroupSpec(
                field="family", label="family", plural="families", id_key="id", count=FAMILIES,
                required={"colour": "colour", "symbol": "accessibility symbol", "god": "god"},
                distinct=("id", "colour", "symbol"), palette=("colour",),
                strings={"family.{id}.god": "god name", "family.{id}.animal": "animal name",
                         "symbol.{symbol}": "symbol name"},
                data_list="families"),),
            arrangements=tuple(arrangements),
            problems=tuple(problems),
        )

    def _check_pyramid(self, game, layout: Layout, locate) -> list[Problem]:
        """The setup pyramid as the rules describe it: rows 1..8, apex God side up, alternating."""
        out = []
        if list(layout.rows) != list(range(1, 9)):
            out.append(Problem(f"layout 'pyramid': rows of {'+'.join(map(str, layout.rows))}; the rules lay 8 rows"
                               " of 1 to 8 cards", locate("layouts", "pyramid")))
        else:
            i = 0
            for r, size in enumerate(layout.rows):
                if layout.face_up[i] != (r % 2 == 0):
                    out.append(Problem(f"layout 'pyramid': row {r + 1} must lie {'God' if r % 2 == 0 else 'Mummy'}"
                                       " side up (apex God side up, then alternating)",
                                       locate("layouts", "pyramid", "rows", r, "side")))
                i += size
        sheet = game.data.get("pyramid")
        if isinstance(sheet, Mapping) and isinstance(sheet.get("rows"), (list, tuple)):
            if list(sheet["rows"]) != list(layout.rows):
                out.append(Problem(f"data 'pyramid.rows' ({list(sheet['rows'])}) disagrees with layout 'pyramid'"
                                   f" ({list(layout.rows)})", locate("pyramid", "rows")))
        return out

    # -- play -----------------------------------------------------------------
    def load(self, game, num_players: int, setup: str, max_turns: int = MAX_TURNS) -> HapyGame:
        """Bind the rules to a game whose data passed :meth:`static_spec`'s checks."""
        families = [f["id"] for f in game.data["families"]]
        deck = game.component(DECK)
        by_key = {}
        for card in deck.cards:
            fam = card.fields.get("family")
            key = (fam.get("id") if isinstance(fam, Mapping) else None, card.fields.get("number"))
            by_key[key] = card
        names, fields = [], []
        for fid in families:
            for n in range(1, NUMBERS + 1):
                card = by_key[(fid, n)]
                names.append(card.id)
                fields.append(card.fields)
        layout, problems = parse_layout(setup, game.data["layouts"][setup], lambda *p: Where())
        if layout is None:
            raise CardgenError(f"layout '{setup}' cannot be read: {problems[0].message}")
        return HapyGame(families, names, fields, layout, num_players, max_turns)


RULES = register(HapyRules())
