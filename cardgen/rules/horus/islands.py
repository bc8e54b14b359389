"""What islands are worth to one seat, for the greedy Horus player.

An island (land tiles enclosed by water) doubles its regions' values (10 at most),
so a player who leads regions near the River gains by closing water around them.
The greedy player looks one tile ahead, so it would see the River tile that closes
a ring, but not the River tiles that build the ring up to it. :class:`IslandOutlook`
gives every land group near closing (at most ``NEAR_OPEN`` of its half-edges still
facing empty table) a *stake*: what doubling its regions would be worth to the seat
now. Then:

* a water tile (a River tile, a Boat) is worth, for each such group it borders,
  the stake times the share of the group's open half-edges it covers: the tile that
  closes the ring gets the whole stake, one that does half the remaining work half
  of it. A group an opponent leads has a negative stake (half the doubling the
  opponent would get), so water is not closed round it;
* a land tile (terrain, Necropolis, Temple) changes the *prospect* of the groups it
  joins, a group's prospect being its stake times ``closeness = 1 / (1 + open)``
  (1 for an island): set against one of our own groups it opens it up (it costs),
  set into a gap in the water it may close it (or start a group of its own in a
  pocket of the River, with a region nobody holds yet). Only our own groups count
  here: the player does not spend its tiles breaking other players' islands.

The stake of a region: the doubling for this seat if it is one of the leaders, less
half the doubling for the best opponent if an opponent leads (helping one opponent is
bad, but less so than helping oneself is good), and half the doubling for a region
nobody holds yet when this seat can put a stone there this turn (``claimable``: the
sizes its Horus card, or the cards in its hand before it plays one, allow); closed
round a region nobody holds, water would only hand the doubling to whoever stones
it first.
Temple doublings are left out, as in the rest of the greedy player's sums.

An island can never be opened again: every half-edge round it is taken. Built once
per decision from the public table (the engine's incremental groups), so a decision
costs one pass over the groups near closing and a few look-ups per place.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .codec import KIND_MASK
from .geometry import CELLS, COVER_COUNT, NBR, OUTSIDE
from .spec import WATER

OPPONENT_SHARE = 0.5  # an opponent's doubling counts half against this seat
UNCLAIMED_SHARE = 0.5  # the part of an unheld region's doubling this seat may hope for, if it can take it now
NEAR_OPEN = 8  # a group with more half-edges facing empty table has no island prospect yet
POCKET_OPEN = 4  # a lone land tile with at most this many half-edges facing the table sits in a pocket


def closeness(open_edges: int) -> float:
    """1 for an island, falling as more half-edges face empty table; 0 beyond
    ``NEAR_OPEN`` (a group that far from closing is not worth water yet, and most
    tiles then need no closer look)."""
    return 1.0 / (1 + open_edges) if open_edges <= NEAR_OPEN else 0.0


class IslandOutlook:
    """The island stakes of the land groups near closing, for ``seat``, on the table
    ``b`` (a :class:`~cardgen.rules.horus.state._PublicBoard`)."""

    __slots__ = ("b", "seat", "cap", "closed", "nterr", "near_slots", "own_slots", "_near", "_group_stake",
                 "_region_stake", "kept", "claimable")

    def __init__(self, b: Any, seat: int, cap: int, closed: int, nterr: int,
                 kept: dict[tuple[int, int], float] | None = None, claimable: frozenset[int] = frozenset()):
        self.b = b
        self.claimable = claimable
        self.seat = seat
        self.cap = cap
        self.closed = closed
        self.nterr = nterr
        self._group_stake: dict[int, float] = {}
        self._region_stake: dict[int, float] = {}
        # ``kept``: group stakes of earlier decisions, by (group id, tiles in it), valid
        # while no stone has been placed or moved (a group's tiles and so its regions are
        # known from its id and size: groups only grow, and a merged group's id is gone)
        members = b.land_members
        if kept:
            for lid, k in b.land_open.items():
                if 0 < k <= NEAR_OPEN:
                    got = kept.get((lid, len(members[lid])))
                    if got is not None:
                        self._group_stake[lid] = got
        self.kept = kept
        self._near: set[int] | None = None
        # the tiles of the groups near closing with a stake (``own_slots``: a stake of
        # ours): only a tile touching one of them changes a prospect, but for a land tile
        # set alone into a pocket of the River
        near_slots: set[int] = set()
        own_slots: set[int] = set()
        for lid, k in b.land_open.items():
            if 0 < k <= NEAR_OPEN:
                stake = self.group_stake(lid)
                if kept is not None:
                    kept[(lid, len(members[lid]))] = stake
                if stake:
                    near_slots.update(members[lid])
                    if stake > 0:
                        own_slots.update(members[lid])
        self.near_slots = near_slots
        self.own_slots = own_slots

    @property
    def near(self) -> set[int]:
        """The places where a tile would touch a group near closing with a stake (worked
        out when first asked: only the water decisions look there)."""
        if self._near is None:
            b = self.b
            cells = b.cells
            pos = b.pos
            near: set[int] = set()
            for m in self.near_slots:
                p = pos[m]
                for d in OUTSIDE:
                    q = p + d
                    if q not in cells:
                        near.update(q - e for e in CELLS)
            self._near = near
        return self._near

    # -- stakes -----------------------------------------------------------------
    def doubling(self, size: int) -> int:
        """What an island adds to a region of ``size`` tiles (the cap of 10 holds)."""
        cap = self.cap
        return min(2 * size, cap) - min(size, cap)

    def stake_of(self, st: Any, size: int) -> float:
        """The stake of a region with stones ``st`` per seat and ``size`` tiles."""
        best = max(st)
        extra = self.doubling(size)
        if not best:
            return UNCLAIMED_SHARE * extra if size in self.claimable else 0.0
        if st[self.seat] == best:
            return float(extra)
        return -OPPONENT_SHARE * extra

    def region_stake(self, rid: int) -> float:
        got = self._region_stake.get(rid)
        if got is None:
            b = self.b
            got = self._region_stake[rid] = self.stake_of(b.reg_stones[rid], len(b.reg_members[rid]))
        return got

    def group_stake(self, lid: int) -> float:
        """The stake of land group ``lid``: the sum over its regions."""
        got = self._group_stake.get(lid)
        if got is None:
            b = self.b
            reg = b.reg
            members = b.land_members[lid]
            if len(members) == 1:  # the common case near the River: a lone tile
                rid = reg[members[0]]
                got = self.region_stake(rid) if rid >= 0 else 0.0
            else:
                rids = {reg[m] for m in members}
                rids.discard(-1)
                got = sum(map(self.region_stake, sorted(rids)))
            self._group_stake[lid] = got
        return got

    def own_stake(self, lid: int) -> float:
        got = self.group_stake(lid)
        return got if got > 0 else 0.0

    # -- one tile -----------------------------------------------------------------
    def _covered(self, nb: Sequence[int | None]) -> dict[int, int]:
        """Land group → its open half-edges a tile would cover, from the slots ``nb`` of
        the tiles touching its place (in the order of ``NBR``)."""
        land = self.b.land
        cov: dict[int, int] = {}
        for o, n in zip(nb, COVER_COUNT):
            if o is not None:
                lid = land[o]
                if lid >= 0:
                    cov[lid] = cov.get(lid, 0) + n
        return cov

    def place_value(self, c: int, kind: int, nb: Sequence[int | None] | None = None) -> float:
        """What a tile of ``kind`` at place ``c`` does for this seat's islands (see the
        module's description). ``nb``: the slots at the places touching ``c`` (in the
        order of ``NBR``), if the caller has them."""
        b = self.b
        if nb is None:
            nb = list(map(b.at.get, map(c.__add__, NBR)))
        water = kind in WATER
        if water:
            if self.near_slots.isdisjoint(nb):
                return 0.0  # it touches no group near closing
        elif self.own_slots.isdisjoint(nb):
            if c in b.adj_land:
                return 0.0  # it joins only groups far from closing
            cells = b.cells
            if 8 - sum(map(cells.__contains__, map(c.__add__, OUTSIDE))) > POCKET_OPEN:
                return 0.0  # a lone tile out in the open
        cov = self._covered(nb)
        land_open = b.land_open
        if water:
            out = 0.0
            for lid, n in cov.items():
                k = land_open[lid]
                if k <= NEAR_OPEN:
                    out += self.group_stake(lid) * n / k
            return out
        cells = b.cells
        open_after = 8 - sum(map(cells.__contains__, map(c.__add__, OUTSIDE)))
        before = 0.0
        own = self.own_stake
        for lid, n in cov.items():
            k = land_open[lid]
            open_after += k - n
            if k <= NEAR_OPEN:
                before += own(lid) * closeness(k)
        if open_after > NEAR_OPEN:  # the joined group is far from closing
            return -before
        stake = sum(map(own, cov))
        if kind < self.nterr:
            stake += self._region_change(nb, kind)
        return (stake if stake > 0 else 0.0) * closeness(open_after) - before

    def _region_change(self, nb: Sequence[int | None], kind: int) -> float:
        """How a terrain tile touching the slots ``nb`` changes the stakes of the regions
        it joins."""
        b = self.b
        reg, kinds, members = b.reg, b.kind, b.reg_members
        same = sorted({reg[o] for o in nb if o is not None and kinds[o] == kind})
        if not same:
            return self.stake_of((0,), 1)
        st = [sum(x) for x in zip(*(b.reg_stones[r] for r in same))]
        size = 1 + sum(len(members[r]) for r in same)
        return self.stake_of(st, size) - sum(map(self.region_stake, same))

    # -- where to look ------------------------------------------------------------------
    def hot_places(self, legal: Iterable[int]) -> list[int]:
        """The actions of ``legal`` (a base + a place) whose tile would cover an open
        half-edge of a group near closing with a stake: the places a random sample of
        the legal ones may miss."""
        if not self.near_slots:
            return []
        near = self.near
        return [a for a in legal if (a & KIND_MASK) in near]
