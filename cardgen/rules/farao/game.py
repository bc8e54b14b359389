"""O, Farao!: the rules bound to one table — the player count, the board, the house rules
and the deck (OpenSpiel's ``Game``) — with the move tables prepared once for all its games
(every build and trade offer as runs of action ints), which the state's hot loop reads."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain, islice
from operator import getitem

from ...base.errors import CardgenError
from .checker import KIND_WEIGHT, FaraoChecker, PyramidCount
from .codec import NEW, PASS, TRADE_ACT, build_action
from .spec import (
    END,
    JOKER,
    MAX_VALUE,
    NK,
    RULE_BUILDING,
    RULE_JOKERS,
    RULE_SPECIALS,
    SETUP,
    SPECIAL_IDS,
    Board,
    FaraoOptions,
)
from .state import FaraoState


class FaraoGame:
    """The rules bound to a player count, the board and the options (OpenSpiel's ``Game``)."""

    def __init__(self, num_players: int, options: FaraoOptions = FaraoOptions(), board: Board = Board(),
                 counts: Sequence[int] | None = None):
        if not 3 <= num_players <= 4:
            raise CardgenError(f"O, Farao! is played by 3 or 4 players, not {num_players}")
        self.num_players = num_players
        self.setup = SETUP
        self.options = options
        self.board = board
        if counts is None:
            counts = [0] * NK
            for v, k in RULE_BUILDING.items():
                counts[v] = k
            for sid, k in RULE_SPECIALS.items():
                counts[SPECIAL_IDS[sid]] = k
            counts[JOKER] = RULE_JOKERS
        counts = list(counts)
        if not options.jokers:
            counts[JOKER] = 0
        self.counts = tuple(counts)  # cards of each kind in play
        self.counts_list = list(counts)
        self.total = sum(counts)
        self.die = board.die
        self.last = board.plateaus
        self.hand_limit = board.hand_limit
        # the checker's verdict on every pyramid shape it met (a pure function of the shape and the
        # options, so shared by the games of this game object; the engine never reads it)
        self.checker_verdicts = PyramidCount(options.jokers)
        self.packed_counts = sum(c * KIND_WEIGHT[k] for k, c in enumerate(self.counts))  # the deck, packed
        # the kinds a trade may give or ask, and every offer to partner q giving g: _trade_runs[q][g]
        self._trade_kinds = [k for k in range(1, NK) if k != END and (k != JOKER or options.jokers)]
        # every build without Jokers of 1…n cards of value v on slot s: _build_runs[s][v][n]
        most = max(self.counts[1:MAX_VALUE + 1])
        self._build_runs = [[[[build_action(s, v, k) for k in range(1, n + 1)] for n in range(most + 1)]
                             for v in range(MAX_VALUE + 1)] for s in range(NEW + 1)]
        self._trade_runs = [[[TRADE_ACT + 256 * q + 16 * g + a for a in self._trade_kinds if a != g] for g in range(NK)]
                            for q in range(num_players)]
        # the builds on an own pyramid, per slot and pyramid shape (see _PyramidBuilds), and the new
        # pyramids per value, indexed by the cards of that value held
        self._pyramid_builds = [_PyramidBuilds(self._build_runs[s]) for s in range(NEW)]
        self._new_runs = self._build_runs[NEW][1:MAX_VALUE + 1]
        self._offer_lists: list[dict[bytes, list[int]]] = [{} for _ in range(num_players)]
        # per plateau (index 0 unused): the fewest rows to cash and the pyramids a player may have
        self.rows_to_cash = tuple(self.cash_rows(t) for t in range(board.plateaus + 1))
        self.pyramid_caps = tuple(self.pyramid_cap(t) for t in range(board.plateaus + 1))
        self.trade_offers = options.trade_offers if options.trade != "none" else 0  # offers a turn

    def new_initial_state(self) -> FaraoState:
        return FaraoState(self)

    def max_game_length(self) -> int:
        """The generous limit, in steps: 500 turns of 80 steps (real games last tens of turns)."""
        return 500 * 80

    def checker(self) -> FaraoChecker:
        return FaraoChecker(self)

    def cash_rows(self, plateau: int) -> int:
        """The fewest rows a pyramid needs to be cashed with the figure on ``plateau``."""
        b = self.board
        need = self.options.min_rows_to_cash
        if plateau >= b.tall_only_from and b.tall_rows > need:
            need = b.tall_rows
        return need

    def pyramid_cap(self, plateau: int) -> int:
        return 2 if plateau >= self.board.double_from else 1

    def build_actions(self, hand: Sequence[int], pyrs: Sequence[tuple], can_new: bool,
                      head: Sequence[int] = (PASS,)) -> list[int]:
        """``head`` (``PASS``) and every legal build of a hand on its pyramids.

        Not cached as whole lists (hands and pyramids vary so much that fewer than one list
        in ten would be met again); without Jokers it is put together from prepared runs:
        per own pyramid shape the rows that can take cards (:class:`_PyramidBuilds`), per
        value the new pyramids, each indexed by the cards of that value held."""
        if self.options.jokers and hand[JOKER]:
            return self._builds_with_jokers(hand, pyrs, can_new, head)
        out = list(head)
        for slot, pyr in enumerate(pyrs):
            for v, runs in self._pyramid_builds[slot][pyr]:
                out += runs[hand[v]]
        if can_new:
            out += chain.from_iterable(map(getitem, self._new_runs, islice(hand, 1, MAX_VALUE + 1)))
        return out

    def _builds_with_jokers(self, hand: Sequence[int], pyrs: Sequence[tuple], can_new: bool,
                            head: Sequence[int]) -> list[int]:
        """:meth:`build_actions` for a hand holding Jokers (the variant): each build with 0… Jokers."""
        out = list(head)
        jk = hand[JOKER]
        for slot, (base, rows) in enumerate(pyrs):
            h = len(rows)
            for i in range(h + 1):
                v = base + i
                if v > MAX_VALUE:
                    break
                if i < h:
                    cur = rows[i] >> 3
                    nat_cur = cur - (rows[i] & 7)
                    room = (rows[i - 1] >> 3) - 1 - cur if i else 99
                else:
                    nat_cur = 0
                    room = (rows[i - 1] >> 3) - 1
                if room <= 0:
                    continue
                top = min(hand[v], room)
                for nat in range(0 if nat_cur else 1, top + 1):
                    for j in range(0, min(jk, room - nat) + 1):
                        if nat + j:
                            out.append(build_action(slot, v, nat, j))
        if can_new:
            for v in range(1, MAX_VALUE + 1):
                for nat in range(1, hand[v] + 1):
                    for j in range(jk + 1):
                        out.append(build_action(NEW, v, nat, j))
        return out

    OFFER_LISTS_KEPT = 8192  # per seat: a few thousand hands are met in hundreds of games

    def offers(self, p: int, hand: list[int], hand_n: list[int]) -> list[int]:
        """:meth:`trade_actions` of seat ``p``'s hand to the others holding cards, kept per seat
        and (kinds held, seats holding cards): two in three questions meet a list again."""
        key = bytes(map(bool, hand)) + bytes(map(bool, hand_n))
        lists = self._offer_lists[p]
        out = lists.get(key)
        if out is None:
            if len(lists) >= self.OFFER_LISTS_KEPT:
                lists.clear()
            held = sum(1 << k for k, c in enumerate(hand) if c)
            partners = sum(1 << q for q, n in enumerate(hand_n) if n and q != p)
            out = lists[key] = self.trade_actions(held, partners)
        return out

    def trade_actions(self, held: int, partners: int) -> list[int]:
        """Every trade offer: to a partner (bit mask), a held kind (bit mask) for any other kind.

        Built from one prepared run of offers per (partner, kind given), in the order partner,
        given, asked: a list of up to ~400 offers costs a few dozen list extensions (:meth:`offers`
        keeps the lists met, a bounded number per seat)."""
        out: list[int] = []
        runs = self._trade_runs
        kinds = self._trade_kinds
        for q in range(self.num_players):
            if partners >> q & 1:
                row = runs[q]
                for g in kinds:
                    if held >> g & 1:
                        out += row[g]
        return out


class _PyramidBuilds(dict):
    """For one slot, per own pyramid shape (filled as shapes are met): the rows a build
    without Jokers may add to, as ``(value, runs)``, ``runs[held]`` being every build of
    1… cards of that value a hand holding ``held`` of them may make there (at most the
    room the row has: narrower than the row below; empty when nothing is held). A new
    row on top is one value higher and narrower than the top row."""

    def __init__(self, runs: list[list[list[int]]]):
        super().__init__()
        self.runs = runs  # every build of 1…n cards of value v on this slot: runs[v][n]

    def __missing__(self, pyr: tuple) -> list[tuple[int, list[list[int]]]]:
        base, rows = pyr
        out = []
        for i in range(len(rows) + 1):
            v = base + i
            if v > MAX_VALUE:
                break
            below = rows[i - 1] >> 3 if i else 99
            room = below - 1 - (rows[i] >> 3 if i < len(rows) else 0)
            if room > 0:
                by_value = self.runs[v]
                out.append((v, [by_value[min(held, room)] for held in range(len(by_value))]))
        self[pyr] = out
        return out
