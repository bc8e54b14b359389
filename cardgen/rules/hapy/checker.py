"""Hâpy Families: the independent checker of every step.

Written apart from the engine's move generator (:mod:`.state`), so that a bug in
one is not copied into the other: it judges each action on the raw places, hands
and revealed cards, with its own record of the layout and its own tables."""

from __future__ import annotations

from functools import reduce
from operator import floordiv, or_
from typing import TYPE_CHECKING

from ..api import RuleViolation, check_offered
from . import rulebook
from .codec import EV_PASS, EV_REQUEST, EV_REVEAL, EV_SKIP, EV_TAKE, EV_WIN, KEEP_BASE, PASS, REQUEST_BASE
from .spec import DEAL, EMPTY, HIDDEN, KEEP, OVER, REQUEST, TAKE

if TYPE_CHECKING:  # for annotations only: the game definition imports this module
    from ..tableau import Layout
    from .game import HapyGame
    from .state import HapyState

# The state's cards, read by the package doc's numbering alone (not with the engine's
# tables): card ``family * 6 + number - 1`` is bit ``card`` of a mask, so a family's
# cards in a mask are the six bits ``(mask >> 6 * family) & 63``.
N_CARDS = rulebook.CARDS
FAMILIES = rulebook.FAMILIES
_ALL = (1 << N_CARDS) - 1
_ALL_CARDS = frozenset(range(N_CARDS))
_POP6 = tuple(bin(v).count("1") for v in range(64))  # cards of a family in a six-bit slice
_LOW6 = sum(1 << (6 * f) for f in range(FAMILIES))  # the lowest bit of each family
# per 12-bit slice of a card mask (two families): does a family hold three or more cards?
# does each family hold 0, 3 or 6 (whole sets of three)?
_THREE12 = tuple(_POP6[v & 63] >= 3 or _POP6[v >> 6] >= 3 for v in range(4096))
_SETS12 = tuple(_POP6[v & 63] % 3 == 0 and _POP6[v >> 6] % 3 == 0 for v in range(4096))
_THREES = (rulebook.GROUP,) * max(rulebook.SETS_TO_WIN)


def _slice_places(base: int) -> tuple[tuple[int, ...], ...]:
    """For each 12-bit value, the places ``base + bit`` of its bits, in order (each value's
    from the value without its lowest bit: the table is made at every start)."""
    rows: list[tuple[int, ...]] = [()] * 4096
    for v in range(1, 4096):
        rows[v] = (base + (v & -v).bit_length() - 1,) + rows[v & (v - 1)]
    return tuple(rows)


_PLACES12 = (_slice_places(0), _slice_places(12), _slice_places(24))


def _cards_of(mask: int) -> list[int]:
    """The cards of a mask, in order (for messages)."""
    return [c for c in range(N_CARDS) if mask >> c & 1]


def lies_on(layout: Layout) -> tuple[int, ...]:
    """Per place, the places it lies on (a mask), from the layout's data by the rulebook's
    words: a card laid partly over an earlier one covers it; cards overlap when they lie less
    than a card's width and height apart (positions in card widths and heights). A layout
    that lists its ``covers`` pairs is taken at its word."""
    n = len(layout.xs)
    under = [0] * n
    if layout.given_covers is not None:
        for upper, lower in layout.given_covers:
            under[upper] |= 1 << lower
        return tuple(under)
    xs, ys = layout.xs, layout.ys
    for upper in range(n):
        for lower in range(upper):
            if abs(xs[upper] - xs[lower]) < 1 - 1e-9 and abs(ys[upper] - ys[lower]) < 1 - 1e-9:
                under[upper] |= 1 << lower
    return tuple(under)


def _checker_tables(game: HapyGame) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...],
                                              tuple[tuple[int, ...], ...]]:
    """The checker's own tables for a layout, made once per game definition: per 12 places
    (0-11, 12-23, 24-35), for each set of them, the places they lie on (mask); per place what
    to OR a card with to get what the place shows (0 God side up, -1 Mummy); and per place
    the places lying on it."""
    tables = game.__dict__.get("_checker_tables")
    if tables is None:
        layout = game.layout
        under = lies_on(layout)
        face_up = tuple(layout.face_up)
        tables = _BY_LAYOUT.get((under, face_up))
        if tables is None:
            tables = _BY_LAYOUT[(under, face_up)] = _tables_of(under, face_up)
        game.__dict__["_checker_tables"] = tables
    return tables


# the tables of each layout seen (its cover graph and faces): a setup's player counts share them
_BY_LAYOUT: dict[tuple[tuple[int, ...], tuple[bool, ...]], tuple] = {}


def _tables_of(under: tuple[int, ...], face_up: tuple[bool, ...]) -> tuple[tuple[tuple[int, ...], ...],
                                                                           tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """A layout's tables (see :func:`_checker_tables`) from its cover graph and faces."""
    cover12 = []
    for k in range(3):
        rows = [0] * 4096
        for v in range(1, 4096):
            low = (v & -v).bit_length() - 1
            rows[v] = under[12 * k + low] | rows[v & (v - 1)]
        cover12.append(tuple(rows))
    face_or = tuple(0 if up else HIDDEN for up in face_up)
    over = tuple(tuple(u for u in range(N_CARDS) if under[u] >> p & 1) for p in range(N_CARDS))
    return (tuple(cover12), face_or, over)


def _whole_family(mask: int) -> bool:
    """Does the mask hold all six cards of a family?"""
    return bool(mask & (mask >> 1) & (mask >> 2) & (mask >> 3) & (mask >> 4) & (mask >> 5) & _LOW6)


def _sets_and_whole(mask: int) -> tuple[int, bool]:
    """Sets of three in a revealed mask, and whether it holds a whole family."""
    counts = [_POP6[(mask >> (6 * f)) & 63] for f in range(FAMILIES)]
    return sum(k // 3 for k in counts), 6 in counts


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

    __slots__ = ("g", "n", "covered_by", "face_up", "win_sets", "rev_seen", "may_win", "turn",
                 "player", "gained", "cover12", "face_or", "layout", "faces", "cards", "places", "count",
                 "fine", "whole_sets", "ban_fr", "prev_req", "this_req", "req_seat", "req_card", "req_prev", "handed", "reserved", "logged", "rev_before", "taken", "kept")

    def __init__(self, game: HapyGame):
        self.g = game
        self.n = game.num_players
        self.face_up = game.layout.face_up  # the layout's data: which places lie God side up
        self.win_sets = rulebook.SETS_TO_WIN[self.n]  # the rulebook's number, not the engine's
        # the checker's own record of the requests, for the ban: the option chosen (EN or FR reading)
        self.ban_fr = game.options.request_ban == "last_other_request"
        self.prev_req = -1  # EN: the card requested in the previous turn (-1: a pass)
        self.this_req = -1
        self.req_seat = self.req_card = self.req_prev = -1  # FR: the latest request, and the latest by another seat
        self.rev_seen = [-1] * self.n  # each seat's revealed cards when its win condition was last computed
        self.may_win = [False] * self.n
        self.turn = 0
        self.player = 0
        self.gained: list[int] = []  # families the mover gained this turn
        self.handed: tuple | None = None  # (requester, target, card bit) of a request the target can answer
        # the cover graph, worked out from the layout's data (not the engine's)
        self.cover12, self.face_or, self.covered_by = _checker_tables(game)
        self.reserved = any(game.layout.need)  # places the layout's data keeps for some cards
        # the public record: the events seen so far, each seat's revealed cards before the step,
        # the card and place of the take being judged, the card chosen to keep
        self.logged = 0
        self.rev_before: list[int] | None = None  # None until the first step judged (a constructed position)
        self.taken: tuple[int, int] | None = None
        self.kept = -1
        # the own record of the layout (None until the first full check)
        self.layout: list[int] | None = None  # the card at each place, EMPTY once taken
        self.faces: list[int] = []  # what each place must show
        self.cards = 0  # the cards in the layout (mask)
        self.places = 0  # the places holding a card (mask)
        self.count = 0
        self.fine: set[int] = set()  # hands seen to hold no three of a family
        self.whole_sets: set[int] = set()  # revealed cards seen to be whole sets of three

    # -- each action, by the step of the turn it belongs to (Gameplay Overview) ----------
    def before(self, s: HapyState, player: int, action: int) -> None:
        phase = s.phase
        if self.rev_before is None:  # the public record from here on
            self.rev_before, self.logged = s.rev[:], len(s.events)
        if phase == REQUEST:
            self._request(s, player, action)
        elif phase == TAKE:
            self._take(s, player, action)
        elif phase == KEEP:
            self._keep(s, player, action)

    def _take(self, s: HapyState, player: int, action: int) -> None:
        """1. Taking a God: an available card, one no other card covers any more."""
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
        self.taken = (action, card)
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

    def _request(self, s: HapyState, player: int, action: int) -> None:
        """2. Requesting a God (optional): another player and a card, not a revealed one nor the
        banned one; a card the target holds changes hands."""
        if action == PASS:
            self.this_req = -1
            return
        a = action - REQUEST_BASE
        target = a // 100
        card = a - 100 * target
        if not (0 <= target < self.n) or target == player or card >= N_CARDS:
            raise RuleViolation(f"seat {player + 1} made an impossible request ({action})")
        if card == self.banned(player):
            raise RuleViolation(f"seat {player + 1} requested {self.g.card_name(card)}, the card "
                                + ("another player requested last" if self.ban_fr
                                   else "the previous player requested"))
        self.this_req = card
        if player != self.req_seat:
            self.req_prev = self.req_card
        self.req_seat, self.req_card = player, card
        bit = 1 << card
        if s.rev_all & bit:  # rev_all itself is checked against each seat's cards in full checks
            raise RuleViolation(f"seat {player + 1} requested {self.g.card_name(card)}, a revealed card")
        if s.hand[target] & bit:
            self.gained.append(card // 6)
            self.handed = (player, target, bit)  # Requesting a God: the card changes hands

    def _keep(self, s: HapyState, player: int, action: int) -> None:
        """3. Revealing Gods: with four of a family, the card kept is one the player holds."""
        card = action - KEEP_BASE
        if not (0 <= card < N_CARDS) or not (s.hand[player] >> card & 1):
            raise RuleViolation(f"seat {player + 1} chose to keep a card it does not hold ({action})")
        if _POP6[(s.hand[player] >> (6 * (card // 6))) & 63] < 4:
            raise RuleViolation(f"seat {player + 1} was asked to choose a card to keep without four of a family")
        self.kept = card

    def banned(self, player: int) -> int:
        """The card ``player`` may not request now, from the checker's own record (-1: none).
        Rulebook, Requesting a God: not the card the previous player requested (EN); the
        French edition: not the last card requested by another player."""
        if self.ban_fr:
            return self.req_card if self.req_seat != player else self.req_prev
        return self.prev_req

    def requests_offered(self, s: HapyState) -> None:
        """The engine offers exactly the requests the rulebook allows: pass, or any other
        seat and any God card that is not revealed nor banned (one's own cards included)."""
        p = s.player
        banned = self.banned(p)
        taboo = reduce(or_, s.rev, 0) | (1 << banned if banned >= 0 else 0)
        want = {PASS} | {REQUEST_BASE + 100 * q + c for q in range(self.n) if q != p for c in range(N_CARDS)
                         if not taboo >> c & 1}
        check_offered(set(s.legal_actions()), want, f"seat {p + 1}'s request step", s.action_to_string)

    def chance(self, s: HapyState, outcomes: list[tuple[int, float]]) -> None:
        """Setup: the cards are shuffled and laid one by one, so each card not laid yet is
        equally likely at the next place (a place the layout's data reserves for some cards,
        e.g. Mastaba's number-1 Gods, draws among those alone)."""
        laid = {c for c in s.slot_card if c >= 0}
        left = _ALL_CARDS - laid
        cards = [a for a, _ in outcomes]
        if len(set(cards)) != len(cards) or not set(cards) <= left or (set(cards) != left and not self.reserved):
            wrong = sorted(set(cards) - left) or sorted(left - set(cards))
            raise RuleViolation(f"the deal declares {len(cards)} card(s) for the next place, but the cards not laid"
                                f" yet are {len(left)} ({self.g.card_name(wrong[0]) if wrong else 'a card twice'}"
                                " is where the lists differ)")
        if cards and max(p for _, p in outcomes) - min(p for _, p in outcomes) > 1e-9:
            raise RuleViolation("the deal declares the cards left with unequal chances: a shuffled deck deals each"
                                " alike")

    # -- after each step ------------------------------------------------------------------
    def after(self, s: HapyState, full: bool) -> None:
        phase = s.phase
        if self.rev_before is None:
            self.rev_before, self.logged = s.rev[:], len(s.events)
        elif len(s.events) != self.logged:
            self._public_record(s)
        if self.kept >= 0:
            self._kept(s)
        if phase == KEEP:  # rare: the list is compared every time
            self.keeps_offered(s)
        if self.handed is not None:
            p, q, bit = self.handed
            self.handed = None
            if s.hand[q] & bit or not (s.hand[p] | s.rev[p]) & bit:
                raise RuleViolation(f"seat {q + 1} was asked for a card it holds but seat {p + 1} did not get it")
        if phase == DEAL:
            if s.pyr + len(s.remaining) != N_CARDS:
                raise RuleViolation(f"the deal lost a card: {s.pyr} placed + {len(s.remaining)} to deal != {N_CARDS}")
            return
        pyr = s.pyr
        if pyr + sum(s.hand_n) + s.rev_all.bit_count() != N_CARDS:
            raise RuleViolation(f"card count is {pyr + sum(s.hand_n) + s.rev_all.bit_count()}, not {N_CARDS}"
                                f" (layout {pyr}, hands {list(s.hand_n)}, revealed {s.rev_all.bit_count()})")
        if s.turn != self.turn:
            self._turn_over(s)
        if full:
            self.conservation(s)
            if phase == REQUEST:
                self.requests_offered(s)
            elif phase == TAKE:
                self.takes_offered(s)

    def _public_record(self, s: HapyState) -> None:
        """What every seat sees of the step (the public log) holds what the rulebook makes
        public and nothing else: a take names its card only from a God-side place ("if the
        card is Mummy side up... it's a secret"), a request says who asked whom for which card
        and whether it was given, a reveal lists the three cards laid God side up."""
        events = s.events
        before, now = self.rev_before or [0] * self.n, s.rev
        shown = [0] * self.n
        revealed = False
        for ev in events[self.logged:]:
            kind, size = ev[0], len(ev)
            if kind == EV_TAKE and size == 4 and 0 <= ev[2] < N_CARDS:
                place = ev[2]
                card = self.taken[1] if self.taken is not None and self.taken[0] == place else None
                if not self.face_up[place] and ev[3] != HIDDEN:
                    raise RuleViolation(f"the public log shows the take from Mummy-side place {place} as {ev[3]!r}:"
                                        " a Mummy-side card is a secret")
                if self.face_up[place] and ev[3] != card and (card is not None or not 0 <= ev[3] < N_CARDS):
                    raise RuleViolation(f"the public log shows the take from God-side place {place} as {ev[3]!r},"
                                        " not its card")
            elif kind == EV_REQUEST and size == 5 and ev[4] in (0, 1):
                pass
            elif kind == EV_REVEAL and size == 3 and 0 <= ev[1] < self.n:
                mask = sum(1 << c for c in ev[2])
                if len(ev[2]) != 3 or mask & ~(now[ev[1]] & ~before[ev[1]]):
                    raise RuleViolation(f"the public log reveals {len(ev[2])} card(s) of seat {ev[1] + 1}, not the"
                                        " three it laid God side up: a card kept in hand is a secret")
                shown[ev[1]] |= mask
                revealed = True
            elif kind in (EV_PASS, EV_SKIP, EV_WIN) and size == 2:
                pass
            else:
                raise RuleViolation(f"the public log holds {ev!r}, which is no event the rules make public in that"
                                    " form")
        if revealed or now != before:  # most steps reveal nothing: the record stands as it was
            for q in range(self.n):
                if now[q] != before[q] | shown[q]:
                    raise RuleViolation(f"seat {q + 1}'s revealed cards changed without the public log showing them")
            self.rev_before = now[:]
        self.logged = len(events)
        self.taken = None

    def _kept(self, s: HapyState) -> None:
        """3. Revealing Gods, four of a family: the card chosen stays in hand, the other three are revealed."""
        card, self.kept = self.kept, -1
        p = self.player
        fam = 63 << (6 * (card // 6))
        if not s.hand[p] >> card & 1 or (s.hand[p] & fam) != 1 << card:
            raise RuleViolation(f"seat {p + 1} chose to keep {self.g.card_name(card)}, but its hand holds"
                                f" {[self.g.card_name(c) for c in _cards_of(s.hand[p] & fam)]} of that family")

    def keeps_offered(self, s: HapyState) -> None:
        """With four of a family, the keep step offers each of the four (and nothing else)."""
        hand = s.hand[s.player]
        fours = [f for f in range(FAMILIES) if _POP6[(hand >> (6 * f)) & 63] >= 4]
        have = set(s.legal_actions())
        options = [{KEEP_BASE + c for c in _cards_of(hand & (63 << (6 * f)))} for f in fours]
        if have not in options:
            want = next((o for o in options if o & have), options[0] if options else set())
            check_offered(have, want, f"seat {s.player + 1}'s keep step", lambda a: self.g.card_name(a - KEEP_BASE),
                          allow="one of the four it holds")
            raise RuleViolation(f"seat {s.player + 1}'s keep step offers no card of a family it holds four of")

    def _turn_over(self, s: HapyState) -> None:
        """The mover's turn is over: no set of three kept (3. Revealing Gods), the win taken if
        met (End of the Game), the next seat clockwise, its turn starting with the take unless
        the pyramid is empty. Only the families the mover gained this turn (seen by before) can
        have reached three in hand; the full check looks at every family. The win condition is
        recomputed whenever the mover's revealed cards changed."""
        prev = self.player
        gained = self.gained
        if gained:
            hand = s.hand[prev]
            for f in gained:
                if _POP6[(hand >> (6 * f)) & 63] >= 3:
                    raise RuleViolation(f"seat {prev + 1} ended a turn with a set of three"
                                        f" {self.g.families[f]} in hand")
            gained.clear()
        rev = s.rev[prev]
        if rev != self.rev_seen[prev]:
            self.rev_seen[prev] = rev
            self.may_win[prev] = _whole_family(rev) or rev.bit_count() // 3 >= self.win_sets
        player = s.player
        phase = s.phase
        if phase == OVER:
            if self.may_win[prev] != (s.winner == prev):
                self._wrong_end(s, prev, True)
        else:
            if self.may_win[prev]:
                self._wrong_end(s, prev, False)
            if player != (prev + 1) % self.n:
                raise RuleViolation(f"seat {player + 1} plays after seat {prev + 1}: not clockwise")
            if phase == TAKE:
                if not s.pyr:
                    raise RuleViolation("a turn began with a take step from an empty layout")
            elif s.pyr:
                raise RuleViolation("a turn began without the take step although the layout holds cards")
        self.turn = s.turn
        self.player = player
        self.prev_req, self.this_req = self.this_req, -1

    def takes_offered(self, s: HapyState) -> None:
        """The take step offers exactly the cards no other card covers any more (Taking a God),
        by the checker's own record of the layout."""
        layout = self.layout if self.layout is not None else list(s.slot_card)
        want = {p for p in range(N_CARDS) if layout[p] != EMPTY
                and all(layout[q] == EMPTY for q in self.covered_by[p])}
        check_offered(set(s.legal_actions()), want, f"seat {s.player + 1}'s take step",
                      lambda place: f"place {place}", allow="which no card covers")

    def _wrong_end(self, s: HapyState, prev: int, over: bool) -> None:
        rev = s.rev[prev]
        sets = rev.bit_count() // 3
        whole = _whole_family(rev)
        if over:
            raise RuleViolation(f"seat {s.winner + 1} was declared the winner, but seat {prev + 1} ended the"
                                f" turn with {sets} set(s){' and a whole family' if whole else ''}")
        raise RuleViolation(f"seat {prev + 1} meets the win condition ({sets} set(s)"
                            f"{', a whole family' if whole else ''}) but the game went on")

    # -- the full check -------------------------------------------------------------------
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
        if reduce(or_, hands, self.cards | rev_all) != _ALL or count + sum(hand_n) + sum(rev_n) != N_CARDS:
            self._lost_or_twice(s)
        if hand_n != s.hand_n:
            q = next(q for q in range(self.n) if hand_n[q] != s.hand_n[q])
            raise RuleViolation(f"seat {q + 1}'s hand counts {s.hand_n[q]} but holds {hand_n[q]}")
        if rev_all != s.rev_all:
            raise RuleViolation("the revealed cards disagree with the record of revealed cards")
        if list(map(floordiv, rev_n, _THREES)) != s.rev_sets:
            q = next(q for q in range(self.n) if rev_n[q] // 3 != s.rev_sets[q])
            raise RuleViolation(f"seat {q + 1} counts {s.rev_sets[q]} revealed set(s) but shows {rev_n[q] // 3}")
        self._sets_of_three(s)
        self._free_places(s)

    def _sets_of_three(self, s: HapyState) -> None:
        """No family of three or more in a hand between turns, revealed cards in whole sets
        (a mask found right once is not looked at again)."""
        three = _THREE12
        mover = s.player if s.phase != TAKE else -1  # only the mover may hold three, before revealing
        fine = self.fine
        for q, m in enumerate(s.hand):
            if q != mover and m not in fine:
                if three[m & 4095] or three[(m >> 12) & 4095] or three[m >> 24]:
                    f = next(f for f in range(FAMILIES) if _POP6[(m >> (6 * f)) & 63] >= 3)
                    raise RuleViolation(f"seat {q + 1} holds {_POP6[(m >> (6 * f)) & 63]} {self.g.families[f]} in"
                                        " hand between turns: sets of three must be revealed")
                fine.add(m)
        sets = _SETS12
        whole_sets = self.whole_sets
        for q, m in enumerate(s.rev):
            if m not in whole_sets:
                if not (sets[m & 4095] and sets[(m >> 12) & 4095] and sets[m >> 24]):
                    f = next(f for f in range(FAMILIES) if _POP6[(m >> (6 * f)) & 63] % 3)
                    raise RuleViolation(f"seat {q + 1} has {_POP6[(m >> (6 * f)) & 63]} revealed"
                                        f" {self.g.families[f]}: not sets of three")
                whole_sets.add(m)

    def _free_places(self, s: HapyState) -> None:
        """The available places, from scratch: the places holding a card that no such place lies on."""
        places = self.places
        avail = s.avail
        if places:
            t0, t1, t2 = self.cover12
            lo, mid, hi = _PLACES12
            free = places & ~(t0[places & 4095] | t1[(places >> 12) & 4095] | t2[places >> 24])
            ok = len(avail) == free.bit_count() and \
                tuple(avail) == lo[free & 4095] + mid[(free >> 12) & 4095] + hi[free >> 24]
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
            cards = places = _ALL
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
        layout = self.layout
        assert layout is not None  # called once the record is made
        for p in range(N_CARDS):
            c, want = s.slot_card[p], layout[p]
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
                    raise RuleViolation(f"{g.card_name(_cards_of(seen & m)[0])} is in two places at once"
                                        f" (one is seat {q + 1}'s {what})")
                seen |= m
        missing = _cards_of(_ALL & ~seen)
        raise RuleViolation(f"card(s) lost: {', '.join(g.card_name(c) for c in missing) or '?'}")

    def at_end(self, s: HapyState) -> None:
        if s.phase != OVER:
            raise RuleViolation("the game stopped before it was over")
        self.conservation(s)
        w = s.winner
        if not (0 <= w < self.g.num_players):
            raise RuleViolation("the game ended without a winner")
        sets, whole = _sets_and_whole(s.rev[w])
        if not whole and sets < self.win_sets:
            raise RuleViolation(f"seat {w + 1} won with {sets} set(s) of three and no whole family"
                                f" ({self.win_sets} sets needed with {self.n} players)")
        if s.returns()[w] != 1.0:
            raise RuleViolation("the winner's return is not 1")
