"""Hâpy Families: the game's own simulated player (the random one is the generic
:class:`~cardgen.rules.api.RandomAgent`).

The greedy player sees only a :class:`~.state.HapyObservation`: its own hand, the
public faces and the public log, which it reads as the log grows
(:class:`_PublicMemory`)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from operator import itemgetter

from .codec import EV_REQUEST, EV_REVEAL, EV_TAKE, KEEP_BASE, PASS, REQUEST_BASE
from .game import HapyGame
from .masks import ALL, BIT, BIT_OR_0, BITS6, FAMILY_OF, POP6, SHIFT
from .spec import FAMILIES, HIDDEN, N_CARDS
from .state import HapyObservation

_FIRST = itemgetter(0)
_PAIRS6 = tuple((v & 63, v >> 6) for v in range(4096))  # the two 6-bit families of a 12-bit slice


class _PublicMemory:
    """What the public log of one game tells one greedy player, read as the log grows.

    Public facts only: the seat publicly known to hold each card, how many cards are
    publicly known in each hand, the cards a seat was asked for in vain since its
    last secret take, how often each seat asked for each family, how often each seat
    had to give each card away, the God-up cards still in the layout and how many
    Mummy-up cards were taken."""

    __slots__ = ("seen", "holder", "known", "lacks", "interest", "lost", "table", "mummy_taken")

    def __init__(self, n: int, faces: Sequence[int]):
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

    def __deepcopy__(self, memo: dict) -> _PublicMemory:
        """A copy of plain numbers, made quickly (the validator copies a player to ask it again)."""
        twin = _PublicMemory.__new__(_PublicMemory)
        twin.seen, twin.table, twin.mummy_taken = self.seen, self.table, self.mummy_taken
        twin.holder, twin.known, twin.lacks = self.holder[:], self.known[:], self.lacks[:]
        twin.interest = [row[:] for row in self.interest]
        twin.lost = [row[:] for row in self.lost]
        return twin

    def update(self, events: Sequence[tuple]) -> None:
        """Read the log (the observation's copy) from where it was left."""
        holder, known, lacks, interest, lost = self.holder, self.known, self.lacks, self.interest, self.lost
        table = self.table
        for ev in events[self.seen:]:
            kind = ev[0]
            if kind == EV_REQUEST:
                _, q, t, c, ok = ev
                interest[q][FAMILY_OF[c]] += 1
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
        self.mem: _PublicMemory | None = None  # what the public log has told this player so far
        self.hidden0 = 0  # cards laid out Mummy side up at the start (as the first observation tells)
        self.faces: tuple[int, ...] = ()  # the faces at the first observation: a place shows that until taken

    def __deepcopy__(self, memo: dict) -> GreedyAgent:
        """A copy with a copy of the memory (the rest is numbers and tuples), made quickly."""
        twin = GreedyAgent.__new__(GreedyAgent)
        twin.seat, twin.n, twin.others, twin.hidden0, twin.faces = \
            self.seat, self.n, self.others, self.hidden0, self.faces
        twin.mem = None if self.mem is None else self.mem.__deepcopy__(memo)
        return twin

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
        """What the layout held at the start, from the first observation: a player may be made
        mid-game (the player that plans makes one per move it weighs), so the Mummy-up cards
        already taken, which the log tells, count among those laid out."""
        faces = self.faces = obs.faces
        self.hidden0 = faces.count(HIDDEN) + sum(1 for ev in obs.events if ev[0] == EV_TAKE and ev[3] < 0)

    def _update(self, obs: HapyObservation) -> _PublicMemory:
        """Read the public log from where it was left; the memory."""
        if not self.faces:
            self._first(obs)
        events = obs.events
        mem = self.mem
        if mem is None:
            mem = self.mem = _PublicMemory(self.n, obs.faces)
        if mem.seen != len(events):
            mem.update(events)
        return mem

    def act(self, obs: HapyObservation, legal: Sequence[int], rng: random.Random) -> int:
        phase = obs.phase
        if phase == "request":
            return self._request(obs, self._update(obs))
        if phase == "take":
            if not self.faces:
                self._first(obs)
            return self._take(obs, legal, rng)
        if phase == "keep":
            holder = self._update(obs).holder
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
                shift = SHIFT[FAMILY_OF[c]]
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

    def _request(self, obs: HapyObservation, mem: _PublicMemory) -> int:
        hand, myrev, rev_all, forbidden = obs.request_view
        free = ALL & ~(hand | mem.table | rev_all | BIT_OR_0[forbidden])  # the cards worth naming
        if not free:
            return PASS
        fams = self._families(hand, myrev, free)
        if not fams:
            return PASS
        return self._best_request(obs, mem, fams)

    def _families(self, hand: int, myrev: int, free: int) -> list[tuple[float, int, int]]:
        """``(weight, family, its free cards)`` of the families worth asking for, best first."""
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
                if k or (myrev >> SHIFT[f]) & 63:
                    fams.append((ask[k], f, free))
        if len(fams) > 1:
            fams.sort(key=_FIRST, reverse=True)  # stable: among equal weights, the last family first
        return fams

    def _best_request(self, obs: HapyObservation, mem: _PublicMemory, fams: list[tuple[float, int, int]]) -> int:
        """The request with the best weight × chance the target holds the card, less for a card
        this player had to give away before."""
        me = self.seat
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
                        if ratio is None:
                            ratio = self._ratios(obs, mem)
                        ranked = _ranked(ratio, mem.interest, f)
                    likeliest = _likeliest(ranked, lacks, BIT[c])
                    if likeliest is None:
                        continue
                    chance, target = likeliest
                score = weight * chance / (1 + lost[c])
                if score > best_score:
                    best_score = score
                    best_action = REQUEST_BASE + 100 * target + c
                    if score == weight:
                        break  # no card of this family can do better
        return best_action

    def _ratios(self, obs: HapyObservation, mem: _PublicMemory) -> list[tuple[float, int]]:
        """``(unknown cards / cards of unknown place, seat)`` for each opponent with unknown cards."""
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


def _ranked(ratio: list[tuple[float, int]], interest: list[list[int]], f: int) -> list[tuple[float, int]]:
    """The opponents most likely to hold an unseen card of family ``f``, likeliest first: their
    unknown cards among all the cards of unknown place, more if they asked for ``f``."""
    ranked = []
    for r, q in ratio:
        x = r * (1.0 + interest[q][f])
        ranked.append((x if x < 1.0 else 1.0, q))
    if len(ranked) > 1:
        ranked.sort(reverse=True)
    return ranked


def _likeliest(ranked: list[tuple[float, int]], lacks: list[int], bit: int) -> tuple[float, int] | None:
    """``(chance, seat)`` of the likeliest opponent not known to lack the card ``bit``; None: none."""
    for chance, target in ranked:
        if not lacks[target] & bit:
            return chance, target
    return None
