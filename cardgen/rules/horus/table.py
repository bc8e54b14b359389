"""The Horus table: the tiles and stones on it, kept incrementally, where the rules let the
next tile, Boat or stone go, and what the table scores.

Tiles on the table are numbered in the order they were placed (*slots*); ``at`` maps
a place code to its slot, ``cells`` a half-cell to its slot. Regions and land groups
(for islands) are kept incrementally: a slot's region id, each region's slots and
stones per seat; tiles are never taken off the table, so groups only ever merge. A
Boat must always keep a way on for the River (:meth:`HorusTable.escape`); the answers
of those searches are cached and forgotten only when a tile spoils the way they rest
on.

:class:`~.state.HorusState` is this table with the rest of a game on top (supply,
hands, turn): a base class rather than an object of its own, so that the hot loop
reads ``self.frontier`` with no extra attribute hop.
"""

from __future__ import annotations

import heapq
from collections.abc import Set as AbstractSet

from .codec import STONE_BASE
from .geometry import CELLS, COVER_COUNT, CROWD, CROWDSET, FAR, NBR, NBR_BACK, NO_TILES, WINDOW, W
from .spec import ANY, NECRO, TEMPLE, WATER, HorusSpec

_NOTHING: frozenset[int] = frozenset()
SECOND_WAY_LIMIT = 40  # places the search for a second, distant way on looks at before giving up


class HorusTable:
    """The tiles and stones on the table, their groups, the River's way on, the legal
    places and the scores (see the module's text)."""

    def __init__(self, game: HorusSpec):
        self.g = game
        self.at: dict[int, int] = {}
        self.cells: dict[int, int] = {}
        self.x0 = self.y0 = 1 << 30  # the bounding box of the taken half-cells (offset coordinates)
        self.x1 = self.y1 = -1
        self.kind: list[int] = []
        self.pos: list[int] = []
        self.phys: list[int] = []
        self.stone_at: dict[int, int] = {}  # slot -> seat
        self.reg: list[int] = []  # slot -> region id (-1: not a region tile)
        self.reg_members: dict[int, list[int]] = {}
        self.reg_stones: dict[int, list[int]] = {}
        self.land: list[int] = []  # slot -> land group id (-1: water)
        self.land_members: dict[int, list[int]] = {}
        self.land_open: dict[int, int] = {}  # land group -> half-edges facing empty table
        self.open_sides: list[int] = []
        self.frontier: set[int] = set()
        self.taken: set[int] = set()  # places a tile would overlap another at
        self.wall: set[int] = set()  # taken places: a way on cannot pass any of them
        # places with a tile's place within three half-cells (an open place is in none); tiles are
        # never taken off the table, so a set is enough
        self.crowd: set[int] = set()
        # Boat place -> (danger places, stamp, (free places, open end) of its way or None) (see _danger)
        self._dcache: dict[int, tuple[frozenset, int, tuple | None]] = {}
        self._stamp = 0  # numbers the cached answers, so a spoilt way forgets only the answer resting on it
        self._ways: dict[tuple[int, int, bool], tuple[bool, int]] = {}  # (c, blocked, water) -> (a way on?, stamp)
        self._spoil_free: dict[int, list] = {}  # free place of a way -> cached answers resting on it
        self._spoil_end: dict[int, list] = {}  # open end of a way -> cached answers resting on it
        self._movable: tuple = (None, [])  # (table version, Boats, mode) -> movable_boats
        self.adj_water: dict[int, int] = {}
        # every place touching a tile -> the slots of the tiles touching it, a list in the order
        # of NBR (None: no tile there); the greedy player reads a place's neighbours from it
        self.touch: dict[int, list] = {}
        self.adj_land: dict[int, int] = {}
        self.boats: list[int | None] = [None, None]  # slots of the two Boats (None: lifted)

    # -- board bookkeeping ----------------------------------------------------
    def free(self, c: int) -> bool:
        return c not in self.taken

    def _put(self, t: int, kind: int, c: int) -> int:
        """Put physical tile ``t`` on the table at ``c`` as ``kind``; update every
        incremental structure. Returns the new slot."""
        slot = len(self.kind)
        self.kind.append(kind)
        self.pos.append(c)
        self.phys.append(t)
        at = self.at
        at[c] = slot
        cells = self.cells
        for d in CELLS:
            cells[c + d] = slot
        self._grow_box(c)
        # the places within three (one) half-cells of c: rows of consecutive codes, as ranges
        self.crowd.update(range(c - 3 * W - 3, c - 3 * W + 4), range(c - 2 * W - 3, c - 2 * W + 4),
                          range(c - W - 3, c - W + 4), range(c - 3, c + 4), range(c + W - 3, c + W + 4),
                          range(c + 2 * W - 3, c + 2 * W + 4), range(c + 3 * W - 3, c + 3 * W + 4))
        window = (range(c - W - 1, c - W + 2), range(c - 1, c + 2), range(c + W - 1, c + W + 2))
        taken = self.taken
        taken.update(*window)
        water = kind in WATER
        wall = self.wall
        wall.update(*window)  # a way on runs over free table only, never through a tile (water included)
        self._spoil(c, water)
        # frontier: this place and the places overlapping it are taken; free neighbours join
        frontier = self.frontier
        frontier.difference_update(*window)
        land = not water
        adj_w = self.adj_water
        adj_l = self.adj_land
        nreg = []
        nland = []
        nterr = self.g.nterr
        kinds = self.kind
        adj = adj_w if water else (adj_l if kind < nterr or kind == NECRO else None)
        open_sides = self.open_sides
        land_of = self.land
        land_open = self.land_open
        touch = self.touch
        around = touch.get(c) or NO_TILES  # the slots touching this place, in the order of NBR
        mine = 8  # this tile's outside half-cells not yet covered
        for q, o, back, n in zip(map(c.__add__, NBR), around, NBR_BACK, COVER_COUNT):
            sides = touch.get(q)  # replaced, never changed in place: a clone shares the lists
            touch[q] = sides = [None] * 12 if sides is None else sides[:]
            sides[back] = slot
            if o is not None:
                # the tile there and this one cover ``n`` of each other's outside half-cells
                mine -= n
                open_sides[o] -= n
                lid = land_of[o]
                if lid >= 0:
                    land_open[lid] -= n
                    if land:
                        nland.append(lid)
                        if kinds[o] == kind and kind < nterr:
                            nreg.append(self.reg[o])
            elif q not in taken:
                frontier.add(q)
            if adj is not None:
                adj[q] = adj.get(q, 0) + 1
        open_sides.append(mine)
        # regions
        if kind < nterr:
            self._merge(self.reg_members, nreg, slot, self.reg, self.reg_stones)
        else:
            self.reg.append(-1)
        if land:
            lid = self._merge(self.land_members, nland, slot, self.land, None)
            land_open[lid] = land_open.get(lid, 0) + mine
        else:
            self.land.append(-1)
        return slot

    def _grow_box(self, c: int) -> None:
        """The table's bounding box (offset coordinates) takes in the tile at ``c``."""
        cx = c // W
        cy = c - cx * W
        if cx < self.x0:
            self.x0 = cx
        if cx + 1 > self.x1:
            self.x1 = cx + 1
        if cy < self.y0:
            self.y0 = cy
        if cy + 1 > self.y1:
            self.y1 = cy + 1

    def _merge(self, members: dict, ids: list[int], slot: int, label: list[int], stones: dict | None) -> int:
        """Join ``slot`` and the groups ``ids`` into one group (the largest keeps its id)."""
        if not ids:
            label.append(slot)
            members[slot] = [slot]
            if stones is not None:
                stones[slot] = [0] * self.g.num_players
            return slot
        ids = list(dict.fromkeys(ids))
        big = max(ids, key=lambda i: len(members[i]))
        keep = members[big]
        label.append(big)
        keep.append(slot)
        for i in ids:
            if i == big:
                continue
            moved = members.pop(i)
            for m in moved:
                label[m] = big
            keep.extend(moved)
            if stones is not None:
                st = stones.pop(i)
                kst = stones[big]
                for p, k in enumerate(st):
                    kst[p] += k
            elif i in self.land_open:
                self.land_open[big] = self.land_open.get(big, 0) + self.land_open.pop(i)
        return big

    # -- legality ---------------------------------------------------------------
    def _outside(self, q: int) -> bool:
        """Is place ``q`` wholly beyond the bounding box of the table (open table)?"""
        qx = q // W
        qy = q - qx * W
        return qx + 1 < self.x0 or qx > self.x1 or qy + 1 < self.y0 or qy > self.y1

    def escape(self, c: int, blocked: int = -1, water: bool = False, avoid: set[int] | None = None,
               limit: int = 1 << 30) -> list[int] | None:
        """The River's way on from the tile at place ``c``: a chain of places touching
        one another (at least half an edge), each free table (never a tile, not even
        water: a way through the River to its other end would let tiles box a Boat in), ending
        at an *open* place: a free place with no tile within a tile's width around
        it (no tile's place within three half-cells). With the place ``blocked``
        taken by a tile (a water tile if ``water``) and the places of ``avoid``
        out of bounds. None when there is none (or none within ``limit`` places
        looked at). Best-first search outwards (towards the nearest side of the
        table's bounding box).

        The places a way cannot use are ``wall`` (kept by :meth:`_put`: taken, and not
        a water tile's place), those the ``blocked`` tile would overlap, and ``avoid``;
        an open place is one outside ``crowd`` and not within three half-cells of
        ``blocked`` (one set look-up, one difference in ``CROWDSET``)."""
        wall = self.wall
        crowd = self.crowd
        frontier = self.frontier
        x0, x1, y0, y1 = self.x0 - 2, self.x1 + 1, self.y0 - 2, self.y1 + 1
        shut: AbstractSet[int]
        if blocked >= 0:
            shut = set(map(blocked.__add__, WINDOW))  # the free places the blocked tile covers (any tile)
        else:
            shut = _NOTHING
            blocked = -(1 << 40)  # far from every place: never within CROWDSET
        if avoid is not None:  # (water tiles there too: the way found is still a way on)
            shut = avoid if shut is _NOTHING else shut | avoid
        near = CROWDSET
        parent: dict[int, int] = {c: -1}
        heap = [(0, c)]
        pop = heapq.heappop
        push = heapq.heappush
        while heap:
            q = pop(heap)[1]
            limit -= 1
            if limit < 0:
                return None
            for d in NBR:
                r = q + d
                if r in parent or r in wall or r in shut:
                    continue
                parent[r] = q
                if r not in crowd and r - blocked not in near:
                    return self._way_out(c, r, parent, blocked, x0, x1, y0, y1)
                rx = r // W
                ry = r - rx * W
                # outwards first; a free place touching the table costs a little more, so
                # ways keep to the water and away from where the next tiles go
                push(heap, (min(rx - x0, x1 - rx, ry - y0, y1 - ry) + (3 if r in frontier else 0), r))
        return None

    def _way_out(self, c: int, r: int, parent: dict[int, int], blocked: int, x0: int, x1: int, y0: int,
                 y1: int) -> list[int]:
        """The way found by :meth:`escape` from ``c`` to the open place ``r``, walked two
        more steps straight out when free: an end farther from the tiles is spoilt less
        often by the next tiles (see _way, _danger)."""
        rx = r // W
        ry = r - rx * W
        side = min((rx - x0, -2 * W), (x1 - rx, 2 * W), (ry - y0, -2), (y1 - ry, 2))[1]
        taken = self.taken
        crowd = self.crowd
        for _ in range(2):
            r2 = r + side
            if r2 in taken or r2 in crowd or r2 - blocked in CROWDSET:
                break
            parent[r2] = r
            r = r2
        path = []
        while r != c:
            path.append(r)
            r = parent[r]
        return path[::-1]

    def _way(self, c: int, blocked: int, water: bool) -> bool:
        """Has the tile at ``c`` a way on with ``blocked`` taken (see :meth:`escape`)?
        Remembered: tiles are only ever added, and a tile never opens a way, so "no"
        stays "no"; "yes" stays "yes" until a tile lands on a free place of the way
        found or near its open end (then it is forgotten and searched again)."""
        key = (c, blocked, water)
        got = self._ways.get(key)
        if got is not None:
            return got[0]
        path = self.escape(c, blocked, water)
        if path is None:
            self._ways[key] = (False, 0)
            return False
        self._stamp += 1
        self._ways[key] = (True, self._stamp)
        self._watch(path, blocked, (key, self._stamp))
        return True

    def _watch(self, path: list[int], blocked: int, key: tuple) -> None:
        """Remember that the cached answer ``key`` rests on ``path``: a tile placed on one
        of its free places, or within three half-cells of its open end, spoils it."""
        on_free = self._spoil_free
        at = self.at
        for q in path:
            if q not in at and q != blocked:
                on_free.setdefault(q, []).append(key)
        self._spoil_end.setdefault(path[-1], []).append(key)

    def _spoil(self, c: int, water: bool) -> None:
        """A tile was placed at ``c``: forget every cached answer resting on a way it spoils
        (any tile on a free place of a way, water too, or near its open end)."""
        keys = []
        on_free = self._spoil_free
        if on_free:
            for d in WINDOW:
                q = c + d
                if q in on_free:
                    keys += on_free.pop(q)
        on_end = self._spoil_end
        if on_end:
            # the ends are few: look at each rather than at the 49 places around ``c``
            for q in [q for q in on_end if q - c in CROWDSET]:
                keys += on_end.pop(q)
        if not keys:
            return
        ways = self._ways
        dcache = self._dcache
        for key, stamp in keys:  # an answer searched again since rests on another way: keep it
            cache = ways if key.__class__ is tuple else dcache
            got = cache.get(key)
            if got is not None and got[1] == stamp:
                del cache[key]

    def _danger(self, c: int) -> frozenset[int]:
        """The places where a tile might block the Boat at ``c``: those that spoil its
        shortest way on (a tile on one of its free places or within three half-cells
        of its open end), since a tile anywhere else leaves that way open; and when a
        second way far from the first is found, only the places that spoil both.
        Empty when the Boat has no way on (nothing left to protect). Kept until a tile
        is placed where it could spoil one of the ways found."""
        got = self._dcache.get(c)
        if got is not None:
            return got[0]
        at = self.at
        chain = self.escape(c)
        self._stamp += 1
        stamp = self._stamp
        way = None
        if chain is None:
            out: frozenset[int] = frozenset()
        else:
            free = [q for q in chain if q not in at]
            way = (free, chain[-1])
            self._watch(chain, -1, (c, stamp))
            # the places where a tile spoils this way: on a free place of it, or near its end
            spoil = {q + e for q in free for e in WINDOW}
            spoil.update(map(chain[-1].__add__, CROWD))
            # a second way on that keeps two half-cells from every free place of the first:
            # then only a place that spoils both ways can block the Boat
            far = {q + e for q in free for e in FAR}
            second = self.escape(c, avoid=far, limit=SECOND_WAY_LIMIT)
            if second is not None:
                self._watch(second, -1, (c, stamp))
                spoil2 = {q + e for q in second if q not in at for e in WINDOW}
                spoil2.update(map(second[-1].__add__, CROWD))
                spoil &= spoil2
            out = frozenset(spoil)
        self._dcache[c] = (out, stamp, way)
        return out

    def _blocked_places(self, cands: set[int], water: bool, skip: int = -1) -> set[int]:
        """The places of ``cands`` where a tile (a water tile if ``water``) would block a
        Boat (other than Boat ``skip``): only places of :meth:`_danger` can."""
        bad: set[int] = set()
        way = self._way
        for b, slot in enumerate(self.boats):
            if slot is None or b == skip:
                continue
            c = self.pos[slot]
            danger = self._danger(c)
            if danger:
                for p in cands & danger:
                    if p not in bad and not way(c, p, water):
                        bad.add(p)
        return bad

    def place_options(self, face: int) -> list[int]:
        """Legal places for a tile of ``face`` (not a Boat)."""
        if face in WATER:
            cands = self.frontier & self.adj_water.keys()
        elif face == TEMPLE:
            al = self.adj_land
            cands = {q for q in self.frontier & self.adj_water.keys() if not al.get(q)}
        else:
            cands = self.frontier
        bad = self._blocked_places(cands, face in WATER)
        return sorted(cands - bad if bad else cands)

    def _boat_ok(self, q: int) -> bool:
        """May a Boat stand at ``q``: a chain over free table out to open table from it
        (see :meth:`escape`)?"""
        return self._way(q, q, True)

    def boat_options(self, b: int, near: int, first: bool = False) -> list[int]:
        """Legal places for Boat ``b`` (lifted): touching ``near`` (a place code) or,
        with ``near`` = -1, any water tile; never blocking the other Boat; with a
        chain out to open table from it. ``first``: stop at the first."""
        if near >= 0:
            cands = {near + d for d in NBR} & self.frontier
        else:
            cands = self.frontier & self.adj_water.keys()
        bad = self._blocked_places(cands, True, skip=b)
        out = []
        for q in sorted(cands):
            if q not in bad and self._boat_ok(q):
                out.append(q)
                if first:
                    break
        return out

    def movable_boats(self, near_own: bool) -> list[int]:
        """Boats a River tile may replace: those that could then be put down (next to
        their old place for a bag River tile, next to any water for a stack one)."""
        key = (len(self.kind), tuple(self.boats), near_own)
        if self._movable[0] == key:
            return self._movable[1]
        out = []
        for b, slot in enumerate(self.boats):
            if slot is None:
                continue
            # the Boat's place becomes River: still water, still taken
            self.boats[b] = None
            ok = bool(self.boat_options(b, self.pos[slot] if near_own else -1, first=True))
            self.boats[b] = slot
            if ok:
                out.append(b)
        self._movable = (key, out)
        return out

    def stone_options(self, size: int) -> list[int]:
        """Empty region tiles whose region has ``size`` tiles (ANY: 1 to 5); never a
        closed region (six or more)."""
        out = []
        stone_at = self.stone_at
        pos = self.pos
        lo, hi = (1, self.g.max_size) if size == ANY else (size, size)
        if hi >= self.g.closed:
            hi = self.g.closed - 1
        for members in self.reg_members.values():
            if lo <= len(members) <= hi:
                for m in members:
                    if m not in stone_at:
                        out.append(STONE_BASE + pos[m])
        out.sort()
        return out

    def touches_water(self, rid: int) -> bool:
        """Does region ``rid`` touch the River? ``adj_water`` holds every place touching a
        water tile (water never turns to land: a lifted Boat leaves a River tile)."""
        adj = self.adj_water
        pos = self.pos
        for m in self.reg_members[rid]:
            if pos[m] in adj:
                return True
        return False

    # -- scores ---------------------------------------------------------------
    def temple_regions(self) -> set[int]:
        out = set()
        for slot, k in enumerate(self.kind):
            if k == TEMPLE:
                c = self.pos[slot]
                for d in NBR:
                    o = self.at.get(c + d)
                    if o is not None and self.reg[o] >= 0:
                        out.add(self.reg[o])
        return out

    def islands(self) -> list[int]:
        """Land groups enclosed by water (ids)."""
        return [lid for lid, n in self.land_open.items() if n == 0]

    def region_value(self, rid: int, temple: set[int] | None = None) -> int:
        temple = self.temple_regions() if temple is None else temple
        v = len(self.reg_members[rid])
        if rid in temple:
            v *= 2
        if self.land_open[self.land[rid]] == 0:
            v *= 2
        return min(v, self.g.temple_cap)

    def scores(self) -> list[int]:
        n = self.g.num_players
        out = [0] * n
        temple = self.temple_regions()
        for rid, st in self.reg_stones.items():
            best = max(st)
            if best == 0:
                continue
            v = self.region_value(rid, temple)
            for p in range(n):
                if st[p] == best:
                    out[p] += v
        return out
