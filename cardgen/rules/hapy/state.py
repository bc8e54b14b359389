"""Hâpy Families: the game state, and what one player may see of it.

:class:`HapyState` is the engine: plain ints, lists and bitmasks, with the usual
steps (a take, a request after which no family reaches three) inline in
:meth:`~HapyState.apply_action`, since the validator plays thousands of games
through it. It trusts its own move list; :mod:`.checker` judges every step apart.
:class:`HapyObservation` is the only view of it an agent gets."""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Mapping, Sequence
from itertools import repeat, starmap
from operator import mul, or_
from typing import TYPE_CHECKING, Any, NamedTuple

from ..api import PhaseState, RuleViolation, uniform_index
from .codec import (
    EV_PASS,
    EV_REQUEST,
    EV_REVEAL,
    EV_SKIP,
    EV_TAKE,
    EV_WIN,
    KEEP_BASE,
    PASS,
    REQ_CARD,
    REQ_TARGET,
    REQUEST_BASE,
    action_text,
    outcome_text,
    state_text,
)
from .masks import (
    ALL,
    BIT,
    BIT_OR_0,
    BITS6,
    FAMILY_MASK,
    FAMILY_OF,
    PLACES_HI,
    PLACES_LO,
    PLACES_MID,
    POP6,
    SHIFT,
    mask_cards,
    sets_and_whole,
)
from .public import public_record
from .spec import DEAL, EMPTY, HIDDEN, KEEP, N_CARDS, OVER, PHASE_NAMES, REQUEST, TAKE

if TYPE_CHECKING:  # for annotations only: the game definition imports this module
    from .game import HapyGame

_DEAL_SIZES = tuple(range(N_CARDS, 0, -1))  # cards left to deal, card by card


class HapyObservation(NamedTuple):
    """What one player may know, copied out of the state at one moment: public
    information and the player's own hand, as ints and tuples, and nothing that leads
    back to the state (a tuple cannot be changed, and holds no state to read).
    ``events`` is the public log: ``(EV_TAKE, seat, place, card or -1 if Mummy side
    up)``, ``(EV_SKIP, seat)``, ``(EV_REQUEST, seat, asked seat, card, 1 if given)``,
    ``(EV_PASS, seat)``, ``(EV_REVEAL, seat, cards)``, ``(EV_WIN, seat)``.
    """

    player: int
    num_players: int
    win_sets: int
    phase: str  # take, request or keep
    hand_mask: int  # the player's own cards, as a bitmask
    faces: tuple[int, ...]  # per place: the card if it lies God side up, -1 if Mummy side up, -2 if empty
    available: tuple[int, ...]  # places no card covers any more
    hand_sizes: tuple[int, ...]
    revealed: tuple[int, ...]  # revealed cards per seat, as bitmasks
    revealed_all: int  # every revealed card, as a bitmask
    forbidden: int  # the card the request rule bans this turn (see HapyOptions.request_ban), or -1
    events: tuple[tuple, ...]  # the public log
    turn: int

    @property
    def own_revealed(self) -> int:
        """The player's revealed cards (bitmask)."""
        return self.revealed[self.player]

    @property
    def request_view(self) -> tuple[int, int, int, int]:
        """(hand_mask, own revealed, all revealed, forbidden) at once, for a request."""
        return self.hand_mask, self.revealed[self.player], self.revealed_all, self.forbidden

    @property
    def n_events(self) -> int:
        return len(self.events)

    @property
    def hand(self) -> tuple[int, ...]:
        """The player's own cards."""
        return tuple(mask_cards(self.hand_mask))

    def public(self) -> dict[str, Any]:
        """Everything the player may know, as plain values (for tests and traces)."""
        return {k: getattr(self, k) for k in _OBSERVATION_FIELDS} | {"events": self.events}


_OBSERVATION_FIELDS = ("player", "num_players", "win_sets", "phase", "hand", "faces", "available", "hand_sizes",
                       "revealed", "forbidden", "turn")
_new_observation = tuple.__new__


class HapyState(PhaseState):
    OVER_PHASE = OVER
    CHANCE_PHASES = frozenset((DEAL,))  # the deal: one chance step per place

    __slots__ = ("g", "phase", "player", "deal_k", "remaining", "slot_card", "cover_left", "avail", "faces", "pyr",
                 "hand", "hand_n", "rev", "rev_all", "rev_sets", "last_request", "this_request", "turn", "winner",
                 "events", "keep_family", "steps", "pending", "won", "req_seat", "req_card", "req_prev")

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
        # for the French reading of the ban: the latest request (seat, card) and the latest
        # request by a seat other than that one
        self.req_seat = -1
        self.req_card = -1
        self.req_prev = -1

    # -- queries ----------------------------------------------------------------
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

    def chance_kind(self) -> str:
        """The chance node's kind, for the validator's test of chance: the deal."""
        return "deal"

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
            # every card but the revealed ones and the banned one (own cards too: a bluff), from each
            # other seat in turn: for each 12-bit slice of that mask (cards 0-11, 12-23, 24-35) a table
            # gives the requests naming its cards from one seat, so that listing the ~100 legal
            # requests of a 4-player turn is nine lookups, not a loop
            mask = ALL & ~(self.rev_all | BIT_OR_0[self.last_request])
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
            mask = ALL & ~(self.rev_all | BIT_OR_0[self.last_request])
            k = mask.bit_count()
            i = int(u * (1 + (self.g.num_players - 1) * k))  # uniform_index, inline
            if not i:
                return PASS
            seat, j = divmod(i - 1, k)
            base = REQUEST_BASE + 100 * self.g.others[p][seat]
            for cards in (PLACES_LO[mask & 4095], PLACES_MID[(mask >> 12) & 4095], PLACES_HI[mask >> 24]):
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
        """What ``player`` may know now, as a copy (see :class:`HapyObservation`)."""
        g = self.g
        return _new_observation(HapyObservation, (
            player, g.num_players, g.win_sets, PHASE_NAMES[self.phase], self.hand[player], tuple(self.faces),
            tuple(self.avail), tuple(self.hand_n), tuple(self.rev), self.rev_all, self.last_request,
            tuple(self.events), self.turn))

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

    def card_holders(self) -> dict[str, tuple[int, ...]]:
        """Who holds each card at the end, in hand or revealed, by card id (for the report's
        per-card figures); the cards still in the layout are nobody's."""
        names = self.g.card_names
        return {names[c]: (s,) for s in range(self.g.num_players) for c in mask_cards(self.hand[s] | self.rev[s])}

    def clone(self) -> HapyState:
        s = type(self).__new__(type(self))  # a subclass (e.g. a test's broken engine) stays itself
        for name in HapyState.__slots__:
            v = getattr(self, name)
            setattr(s, name, v[:] if isinstance(v, list) else v)
        return s

    def scrambled(self, seat: int, rng: random.Random) -> HapyState:
        """A copy in which everything ``seat`` cannot see is dealt again: the cards of the
        other hands and the cards lying Mummy side up in the layout, shuffled among those
        same places (each hand keeps its size), except what the public log tells every
        seat (:func:`.public.public_record`): a card seen going into a hand stays there, and
        no hand gets a card it was asked for in vain since its last secret take. The
        validator asks a player on it and on the real game, and requires the same decision.
        The copy is for reading (its observations and legal actions): it shares the lists it
        leaves alone with this state, so it must not be played."""
        twin = type(self).__new__(type(self))  # read, never played: only what changes is copied
        for name in HapyState.__slots__:
            setattr(twin, name, getattr(self, name))
        twin.hand = self.hand[:]
        twin.slot_card = self.slot_card[:]
        holder, lacks = public_record(self.events, self.g.num_players)
        seen = [0] * self.g.num_players  # per seat: its cards every seat knows it holds
        for c, q in enumerate(holder):
            if q >= 0:
                seen[q] |= 1 << c
        places = [q for q in range(self.g.num_players) if q != seat]
        pool = []
        owners = []  # per slot to fill: the seat it goes to, or -1 for a place in the layout
        for q in places:
            free = self.hand[q] & ~seen[q]
            pool.extend(mask_cards(free))
            owners.extend([q] * free.bit_count())
        hidden = [place for place, face in enumerate(self.faces) if face == HIDDEN and self.slot_card[place] >= 0]
        pool.extend(self.slot_card[place] for place in hidden)
        owners.extend([-1] * len(hidden))
        pool.sort()  # the unseen cards in an order that does not tell where they lay
        rng.shuffle(pool)
        _keep_out(pool, owners, lacks)
        k = 0
        for q in places:
            held = (self.hand[q] & ~seen[q]).bit_count()
            mask = self.hand[q] & seen[q]
            for c in pool[k:k + held]:
                mask |= 1 << c
            twin.hand[q] = mask
            k += held
        for place in hidden:
            twin.slot_card[place] = pool[k]
            k += 1
        return twin

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
            return self._request(action)
        if phase == TAKE:
            return self._take(action)
        if phase == DEAL:
            self._deal(action)
        elif phase == KEEP:
            self._keep(action)
        else:
            raise RuleViolation("an action was applied after the end of the game")
        self.steps += 1
        return self.current_player()

    def _request(self, action: int) -> int:
        """2. Requesting a God (or passing); then 3. Revealing Gods if a family reached three in
        hand, else the turn ends. Returns the new current player."""
        p = self.player
        if action == PASS:
            card = -1
            self.events.append((EV_PASS, p))
        else:
            a = action - REQUEST_BASE
            target = REQ_TARGET[a]
            card = REQ_CARD[a]
            if self.g.ban_survives_passes:
                if p != self.req_seat:
                    self.req_prev = self.req_card
                self.req_seat, self.req_card = p, card
            if self.hand[target] & BIT[card]:
                self._transfer(card, target, p)
                self.pending.append(FAMILY_OF[card])
                self.events.append((EV_REQUEST, p, target, card, 1))
            else:
                self.events.append((EV_REQUEST, p, target, card, 0))
        self.steps += 1
        pending = self.pending
        if pending:  # a family gained this turn: three or more in hand?
            hand = self.hand[p]
            for f in pending:
                if POP6[(hand >> SHIFT[f]) & 63] > 2:
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
        p = self.player = g.next_seat[p]
        self.last_request = self._ban_for(p) if g.ban_survives_passes else card
        if self.pyr:
            self.phase = TAKE
        else:
            self.events.append((EV_SKIP, p))
        return p

    def _take(self, action: int) -> int:
        """1. Taking a God: the card at place ``action`` into the hand; the cards it covered may
        become available. Returns the current player (its request step follows)."""
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
        self.hand[p] |= BIT[card]
        self.hand_n[p] += 1
        self.pending.append(FAMILY_OF[card])
        self.events.append((EV_TAKE, p, action, card if g.face_up[action] else HIDDEN))
        self.phase = REQUEST
        self.steps += 1
        return p

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
        self.player = q = (p + 1) % self.g.num_players
        self.last_request = self._ban_for(q) if self.g.ban_survives_passes else self.this_request
        self.this_request = -1
        self._start_turn()

    def _ban_for(self, seat: int) -> int:
        """The French reading: the latest card requested by a seat other than ``seat``."""
        return self.req_card if self.req_seat != seat else self.req_prev

    # -- text -------------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        return action_text(self, action)

    def outcome_text(self, before: HapyState) -> str:
        """For ``--trace``: what the step from ``before`` did (see :func:`.codec.outcome_text`)."""
        return outcome_text(self, before)

    def __str__(self) -> str:
        return state_text(self)

    # -- constructed positions (tests, debugging) -----------------------------
    @classmethod
    def from_position(cls, game: HapyGame, layout: Mapping[int, int] | Sequence[int | None],
                      hands: Sequence[Sequence[int]],
                      revealed: Sequence[Sequence[int]] = (), player: int = 0, last_request: int = -1) -> HapyState:
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


def _keep_out(pool: list[int], owners: list[int], lacks: list[int]) -> None:
    """Swap the dealt cards (``pool[i]`` goes to seat ``owners[i]``, -1 the layout) so that
    no seat gets a card it is known to lack: each misplaced card with the first card it can
    change places with. Only the order of ``pool`` and the public ``lacks`` decide, so the
    re-deal stays a function of what the seat may know and the random source."""
    n = len(pool)
    for i in range(n):
        q = owners[i]
        if q < 0 or not lacks[q] >> pool[i] & 1:
            continue
        c = pool[i]
        for j in range(n):
            r = owners[j]
            d = pool[j]
            if r != q and not lacks[q] >> d & 1 and (r < 0 or not lacks[r] >> c & 1):
                pool[i], pool[j] = d, c
                break
