"""The simulated Horus players: the generic random one (:class:`~cardgen.rules.api.RandomAgent`)
and this game's greedy one (:class:`GreedyAgent`), which reads the public table only.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from .codec import (
    BOAT_BASE,
    CARD_BASE,
    FROM_BASE,
    KIND_MASK,
    NILE_ACTION,
    NO_STONE,
    P_BOATPLACE,
    P_CARD,
    P_FROM,
    P_PLACE,
    P_RIVERPLACE,
    P_RN,
    P_STACK,
    P_STONE,
    P_TO,
    PLACE_BASE,
    RIVER_BASE,
    STACK_BASE,
    STONE_BASE,
    TO_BASE,
)
from .geometry import NO_TILES
from .islands import NEAR_OPEN, IslandOutlook
from .spec import ANY, NECRO, RIVER, WATER, HorusSpec
from .state import HorusView


def _sample(seq: Sequence[int], k: int, rng: random.Random) -> list[int]:
    """``k`` distinct items of ``seq`` (``k`` at most its length), each k-subset equally
    likely, as ``rng.sample`` gives, but drawn with ``rng.random`` (a duplicate is drawn
    again): several times faster for a few items out of a hundred."""
    n = len(seq)
    rand = rng.random
    picked: dict[int, None] = {}  # in the order drawn
    while len(picked) < k:
        picked[int(rand() * n)] = None
    return [seq[i] for i in picked]


class GreedyAgent:
    """Plays sensibly from the public table and its own hand: a stone where it wins
    or ties the most valuable region, the card that allows the best stone, tiles that
    grow the regions it leads (and Necropolis tiles beside the regions others lead),
    the Nile card when no Horus card helps. It sees islands coming
    (:mod:`.islands`): water (River tiles, Boats) closed around the regions it
    leads, terrain set into gaps in the water, a region near closing worth more for
    a stone, and the River stack for a "?" card when a River tile would close an
    island of its own; water round an opponent's regions and land tiles that open
    its own islands count against. Tile places are judged on a random sample of at
    most ``SAMPLE`` legal places, to keep it fast; for water, every legal place
    beside a group of land tiles near closing, and random ones up to ``SAMPLE``."""

    SAMPLE = 16
    NILE_TILES = 2  # the Nile card's River tiles: worth twice the best River tile for our islands

    def __init__(self, game: HorusSpec, seat: int):
        self.g = game
        self.seat = seat
        self._outlook = IslandOutlook
        self._near_open = NEAR_OPEN  # closeness() of .islands, inline
        self._last: tuple = (None, None)  # (table version, outlook)
        self._kept: tuple = (None, {})  # (stones version, group stakes by (group id, size))
        self._view: HorusView | None = None  # the view of the decision in hand

    def outlook(self, b) -> Any:
        """The island prospects of the table as it is now (see :mod:`.islands`);
        kept while the same table gets no tile and no stone placed or moved (a turn's
        card, stack and tile decisions share one)."""
        stones = (len(b.stone_at), sum(b.stone_at))  # a placed or moved stone changes one or the other
        sizes = self._claimable(b)
        key = (len(b.pos), stones, sizes)
        if self._last[0] == key:
            out = self._last[1]
            out.b = b  # what it works out from here on, it reads off the table as it is now
            return out
        if self._kept[0] != (stones, sizes):  # the group stakes of earlier decisions hold while these stay
            self._kept = ((stones, sizes), {})
        g = self.g
        out = self._outlook(b, self.seat, g.temple_cap, g.closed, g.nterr, self._kept[1], sizes)
        self._last = (key, out)
        return out

    def _claimable(self, b) -> frozenset[int]:
        """The region sizes this seat can still put a stone into this turn: its Horus card's
        (played), or any of its hand's (not yet played); none after the Nile card."""
        g = self.g
        card = b.card
        if card == -2 or b.stones_left[self.seat] <= 0:
            return frozenset()
        if card >= 0:
            sizes = {g.card_kinds[card][2]}
        elif self._view is not None:  # (asked only in this seat's own turn)
            kinds, of = g.card_kinds, g.card_of
            sizes = {kinds[of[c]][2] for c in self._view.hand}
        else:
            return frozenset()
        if not sizes:
            return frozenset()
        if b.round_one:
            return frozenset((1,))
        if ANY in sizes:
            return frozenset(range(1, g.max_size + 1))
        return frozenset(sizes)

    def _points(self, st: Sequence[int], value: int, me: int) -> float:
        best = max(st)
        return value if best and st[me] == best else 0.0

    def _stone_gain(self, b, rid: int) -> float:
        """What one more stone of this seat in region ``rid`` is worth to it: the region's
        value if that makes it (one of) the leaders and it was not before, half a point
        more for a lead of its own, a little for the region's size."""
        st = b.reg_stones[rid]
        me = self.seat
        size = len(b.reg_members[rid])
        cap = self.g.temple_cap
        # an island doubles the value (10 at most); a group near closing adds part of that
        value = min(size, cap)
        k = b.land_open[b.land[rid]]
        if k <= self._near_open:
            value += (min(2 * size, cap) - value) / (1 + k)
        mine = st[me]
        other = 0
        for p, x in enumerate(st):
            if p != me and x > other:
                other = x
        gain = 0.1 * size
        if mine + 1 >= other and not (mine and mine >= other):
            gain += value
        if mine + 1 > other:
            gain += 0.5
        return gain

    def _nile_move(self, b) -> bool:
        """Could the Nile card move one of our stones from a region by the River to
        another region by the River with an empty tile?"""
        adj, pos, reg = b.adj_water, b.pos, b.reg  # adj_water: the places touching a water tile
        by_river = {rid for rid, members in b.reg_members.items() if any(pos[m] in adj for m in members)}
        ours = {reg[m] for m, p in b.stone_at.items() if p == self.seat} & by_river
        open_ = {rid for rid in by_river if any(m not in b.stone_at for m in b.reg_members[rid])}
        return any(open_ - {rid} for rid in ours)

    def _best_stones(self, b) -> dict[int, float]:
        """The best stone's gain for each region size 1–5 (-1: no place), and for ANY."""
        top = self.g.max_size
        best = {k: -1.0 for k in range(1, top + 1)}
        stone_at = b.stone_at
        for rid, members in b.reg_members.items():
            n = len(members)
            if n <= top:
                for m in members:
                    if m not in stone_at:
                        gain = self._stone_gain(b, rid)
                        if gain > best[n]:
                            best[n] = gain
                        break
        best[ANY] = max(best.values())
        return best

    def act(self, obs: HorusView, legal: Sequence[int], rng: random.Random) -> int:
        self._view = obs  # for the hand (see _claimable)
        try:
            return self._decide(obs.board, legal, rng)
        finally:
            # the view is the decision's only: the player keeps no table between decisions (the
            # kept outlook is handed the table anew when reused), so that a copy of it (the
            # validator's honesty probe copies the player at sampled decisions) copies no table
            self._view = None
            kept = self._last[1]
            if kept is not None:
                kept.b = None

    def _decide(self, b, legal: Sequence[int], rng: random.Random) -> int:
        ph = b.phase
        if len(legal) == 1:
            return legal[0]
        if ph == P_CARD:
            return self._card(b, legal, rng)
        if ph == P_STONE:  # placing none is allowed; a greedy player always places one
            return self._best_stone(b, [a for a in legal if a != NO_STONE], STONE_BASE, rng)
        if ph == P_PLACE or ph == P_RN or ph == P_RIVERPLACE or ph == P_BOATPLACE:
            return self._tile_place(b, ph, legal, rng)
        if ph == P_STACK:
            return self._stack(b, legal, rng)
        if ph == P_FROM:
            return self._nile_from(b, legal, rng)
        if ph == P_TO:
            return self._best_stone(b, legal, TO_BASE, rng)
        return legal[int(rng.random() * len(legal))]

    def _card(self, b, legal: Sequence[int], rng: random.Random) -> int:
        """Action 2: the card whose best stone gains most, or the Nile card when it helps."""
        scored = []
        best = self._best_stones(b)
        for a in legal:
            if a == NILE_ACTION:
                # worth it when it can move a stone of ours and the cards cannot help, or
                # when its two River tiles close water round our regions
                v = -2.0
                if b.stack_size(self.g.river_stack) >= 2:
                    if self._nile_move(b):
                        v = 0.2
                    islands = self._river_prospect(b, self.outlook(b))
                    if islands > 0:
                        v = max(v, self.NILE_TILES * islands)
            else:
                k = a - CARD_BASE
                v = best[1 if b.round_one else self.g.card_kinds[k][2]]
            scored.append((v, rng.random(), a))
        return max(scored)[2]

    def _tile_place(self, b, ph: int, legal: Sequence[int], rng: random.Random) -> int:
        """Actions 1 and 3: the best of (a sample of) the tile's places."""
        outlook = self.outlook(b)
        if ph == P_BOATPLACE and not outlook.near_slots:  # no island to close: any place will do
            return legal[int(rng.random() * len(legal))]
        if len(legal) <= self.SAMPLE:
            sample = legal
        else:
            # water: every place beside a group near closing, and a random sample
            # filling the rest of the SAMPLE places
            hot = outlook.hot_places(legal) if ph != P_PLACE else ()
            rest = self.SAMPLE - len(hot)
            sample = hot
            if rest > 0:
                sample = _sample(legal, rest, rng)
                if hot:
                    sample = sorted(set(sample).union(hot))
        return self._place_values(b, sample, rng, outlook)

    def _stack(self, b, legal: Sequence[int], rng: random.Random) -> int:
        """Action 3 with a '?' card: the stack whose tile could do most for our regions."""
        scored = []
        outlook = None
        for a in legal:
            s = a - STACK_BASE
            kind = self.g.stack_kind[s]
            v = 0.0
            if kind == RIVER:  # a River tile closing water round our regions
                outlook = outlook or self.outlook(b)
                v = self._river_prospect(b, outlook)
            else:
                for rid, members in b.reg_members.items():
                    if b.kind[members[0]] == kind:
                        v = max(v, self._points(b.reg_stones[rid], len(members), self.seat))
            scored.append((v, rng.random(), a))
        return max(scored)[2]

    def _nile_from(self, b, legal: Sequence[int], rng: random.Random) -> int:
        """The Nile card: a stone of ours where it leads by two or more, or trails."""
        me = self.seat
        scored = []
        for a in legal:
            st = b.reg_stones[b.reg[b.at[a - FROM_BASE]]]
            others = max(x for p, x in enumerate(st) if p != me)
            v = 1.0 if st[me] - others >= 2 or st[me] < others else 0.0
            scored.append((v, rng.random(), a))
        return max(scored)[2]

    def _best_stone(self, b, legal: Sequence[int], base: int, rng: random.Random) -> int:
        """The stone place of ``legal`` (actions ``base`` + place) with the best gain; the
        gain is worked out once per region (the legal places are often many tiles of a
        few regions), ties broken at random as before."""
        at, reg = b.at, b.reg
        gains: dict[int, float] = {}
        best: tuple[float, float, int] | None = None
        for a in legal:
            rid = reg[at[a - base]]
            gain = gains.get(rid)
            if gain is None:
                gain = gains[rid] = self._stone_gain(b, rid)
            item = (gain, rng.random(), a)
            if best is None or item > best:
                best = item
        assert best is not None  # asked with places to choose from
        return best[2]

    def _river_prospect(self, b, outlook) -> float:
        """The best a River tile from the stack could do for our islands (0 if nothing):
        judged on the places beside a group near closing that touch the River (the
        tile's exact legal places are known only once it is drawn)."""
        frontier, adj = b.frontier, b.adj_water
        best = 0.0
        if not outlook.near_slots:
            return best
        for c in sorted(outlook.near & frontier):
            if c in adj:
                v = outlook.place_value(c, RIVER)
                if v > best:
                    best = v
        return best

    def _place_values(self, b, sample: Sequence[int], rng: random.Random, outlook) -> int:
        """The best of ``sample`` (tile places): for a terrain tile, what the regions it
        joins are worth to this seat afterwards minus before; for a Necropolis, the
        size of the regions others lead beside it (it hems them in) minus those this
        seat leads; for the River side and a Boat, a little for each region it leads
        beside it; and for every tile, how it changes the island prospects of the land
        groups it borders (``outlook``; see :mod:`.islands`). Replacing a Boat
        (the River stack's third choice) counts 0: the Boat's new place is chosen
        next."""
        reg, kind, members, stones = b.reg, b.kind, b.reg_members, b.reg_stones
        face = b.face
        nterr = self.g.nterr
        cap = self.g.temple_cap
        me = self.seat
        points = self._points
        n = self.g.num_players
        best_v, ties = float("-inf"), []  # the best value and the places that have it
        island = outlook.place_value
        near_slots, own_slots, adj_land, adj_water = outlook.near_slots, outlook.own_slots, b.adj_land, b.adj_water
        touch = b.touch
        for action in sample:
            base = action & ~KIND_MASK
            if base == BOAT_BASE:
                v = 0.0
                if v > best_v:
                    best_v, ties = v, [action]
                elif v == best_v:
                    ties.append(action)
                continue
            c = action & KIND_MASK
            k = face if base == PLACE_BASE else (RIVER if base == RIVER_BASE else NECRO)
            # the regions of the tiles touching ``c``, added in the order of NBR (the Necropolis
            # sum below runs over this set: the same order gives the same float)
            nb = touch.get(c) or NO_TILES  # (a legal place touches a tile: always there)
            near = {reg[o] for o in nb if o is not None and reg[o] >= 0}
            if k < nterr:
                same = [r for r in near if kind[members[r][0]] == k]
                if not same:
                    v = 0.0
                elif len(same) == 1:  # the common case, without the sums (the same value)
                    r = same[0]
                    st = stones[r]
                    size = len(members[r])
                    v = points(st, min(size + 1, cap), me) - points(st, size, me)
                else:
                    st = [sum(stones[r][p] for r in same) for p in range(n)]
                    size = 1 + sum(len(members[r]) for r in same)
                    v = points(st, min(size, cap), me) - sum(points(stones[r], len(members[r]), me) for r in same)
            elif k == NECRO:
                v = 0.0
                for r in near:
                    st = stones[r]
                    v += 0.2 * len(members[r]) * (1 if max(st) and st[me] < max(st) else -1)
            else:
                v = sum(0.1 * points(stones[r], len(members[r]), me) for r in near)
            # the island prospects: only near a group near closing, or for a lone land tile
            if k in WATER:
                if near_slots and not near_slots.isdisjoint(nb):
                    v += island(c, k, nb)
            elif (own_slots and not own_slots.isdisjoint(nb)) or (c not in adj_land and adj_water.get(c, 0) >= 2):
                v += island(c, k, nb)  # (a lone tile touching one water tile still faces the table on 6 half-edges)
            if v > best_v:
                best_v, ties = v, [action]
            elif v == best_v:
                ties.append(action)
        return ties[0] if len(ties) == 1 else ties[int(rng.random() * len(ties))]  # a tie: one draw decides
