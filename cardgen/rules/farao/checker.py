"""O, Farao!: the independent checker of every step. It reads the rules again on its own
terms (a pyramid's validity and value, the caps, what a cash, a theft, a trade must do)
and never asks the engine's move generator, so a bug in the engine shows up as a
difference between the two."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..api import RuleViolation, check_offered
from . import rulebook
from .checker_record import DiscardRecord, blocks, discards, public_outcome, public_view, trade_offers, trade_replies
from .codec import (
    ACCEPT,
    BLOCK_ACT,
    BUILD_ACT,
    CASH_ACT,
    DISCARD,
    NEW,
    PASS,
    PILE,
    STEAL_ACT,
    TAKE,
    TAX_ACT,
    THIEF_ACT,
    YES,
    build_action,
    decode_build,
    decode_trade,
    pyramid_text,
)
from .spec import (
    ATTACK,
    BLOCK,
    BUILD,
    C_DIE,
    C_DRAW,
    C_STEAL,
    C_TAX,
    CASH,
    DRAW,
    END,
    END_DISCARD,
    IDLE,
    JOKER,
    KIND_NAMES,
    LOSS_DISCARD,
    MAX_VALUE,
    NK,
    OVER,
    PHARAOH,
    PHASE_NAMES,
    STEAL,
    TAX,
    TAX_BLOCK,
    THIEF,
    TRADE,
    TRADE_PICK,
    TRADE_REPLY,
)

if TYPE_CHECKING:
    from .game import FaraoGame
    from .state import FaraoState


LIST_SAMPLE = 4
_AFTER_DRAW = frozenset((TRADE, TRADE_PICK, BUILD))  # steps 3 and 4: no card reaches the pile or the discard
_LISTED = frozenset((TRADE, BUILD, CASH, DRAW, ATTACK, STEAL, TRADE_PICK, TRADE_REPLY, BLOCK, TAX_BLOCK, END_DISCARD,
                     LOSS_DISCARD))
_CHANCE = frozenset((C_DIE, C_DRAW, C_TAX, C_STEAL))
_ACTIVE_ONLY = frozenset((CASH, DRAW, TRADE, TRADE_PICK, BUILD, ATTACK, STEAL, END_DISCARD, IDLE))


KIND_WEIGHT = tuple(256 ** (NK - 1 - k) for k in range(NK))
"""A kind's place in a packed count (``int.from_bytes(bytes(counts), "big")``): one byte per kind."""


class PyramidCount(dict):
    """The checker's own count of a pyramid's cards, by pyramid (filled as pyramids are
    met): ``(cards, by kind)``, the cards by kind packed like the lists (:data:`KIND_WEIGHT`:
    each row's naturals of its value, base + row, its Jokers Jokers); ``cards`` is -1 for a
    pyramid that breaks the rules (:func:`pyramid_problem`). Valid shapes are few (values
    1–9, rows narrowing): a few thousand at most."""

    def __init__(self, jokers: bool):
        super().__init__()
        self.jokers = jokers

    def __missing__(self, pyr: tuple) -> tuple[int, int]:
        if pyramid_problem(pyr, self.jokers):
            self[pyr] = (-1, 0)
            return -1, 0
        base, rows = pyr
        packed = 0
        for i, r in enumerate(rows):
            j = r & 7
            packed += ((r >> 3) - j) * KIND_WEIGHT[base + i] + j * KIND_WEIGHT[JOKER]
        count = self[pyr] = (sum(r >> 3 for r in rows), packed)
        return count


def _row(cards: int, jokers: int) -> int:
    """A pyramid row's code (see the package doc) from its cards and the Jokers among them."""
    return (cards << 3) + jokers


def pyramid_cards(pyr: tuple) -> int:
    """How many cards a pyramid holds (Jokers included)."""
    return sum(r >> 3 for r in pyr[1])


def rows_of(pyr: tuple) -> list[tuple[int, int]]:
    """A pyramid's rows as ``(cards, jokers)``, bottom up."""
    return [(r >> 3, r & 7) for r in pyr[1]]


def pyramid_problem(pyr: Any, jokers_allowed: bool) -> str | None:
    """Why a pyramid breaks the rules (None: it follows them), from the rules text alone:
    every row has fewer cards than the row below it and a value one higher; a Joker
    never stands alone in a row."""
    try:
        base, enc = pyr
        rows = rows_of(pyr)
    except (TypeError, ValueError):
        return f"{pyr!r} is no pyramid"
    if not rows:
        return "a pyramid without rows"
    if not isinstance(base, int) or not 1 <= base <= MAX_VALUE or base + len(rows) - 1 > MAX_VALUE:
        return f"values {base}…{base + len(rows) - 1} are not all building values 1–{MAX_VALUE}"
    below = None
    for i, (n, j) in enumerate(rows):
        if n < 1:
            return f"row {i + 1} is empty"
        if j and not jokers_allowed:
            return f"row {i + 1} holds a Joker, which this game does not use"
        if n - j < 1:
            return f"row {i + 1} holds Jokers only"
        if below is not None and n >= below:
            return f"row {i + 1} has {n} cards, not fewer than the {below} of the row below"
        below = n
    return None


def rule_value(pyr: tuple) -> int:
    """The value by the rules' words: the sum of the distinct values times the height."""
    base, rows = pyr
    values = {base + i for i in range(len(rows))}
    return sum(values) * len(rows)


class FaraoChecker:
    """Checks each action against the rules and the invariants, apart from the engine.

    It recomputes what an action must do from the rules (a pyramid's validity and
    value, which pyramids may be cashed and how many a player may have, a thief's
    roll against the height, a collapse) and compares the state after it. Every
    step: the action's rule, the cards add up (pile + display + discard + hands +
    pyramids + the End card = the deck), no trade offer after a build in the same
    turn, scores change only by a cash of the right value, the figure on the track
    and moving one plateau per cash, every standing pyramid valid (a verdict kept
    per pyramid shape; a seat's pyramids are judged again, and their cards counted
    again, only when they differ from those of the step before: a pyramid is an
    immutable value), the hands of the players not on turn within the limit; at
    every turn change the hand of the player who ended it at seven (fewer only when no card is left to draw) and the
    next seat on turn. Every ``full`` step: each kind counted everywhere, every
    standing pyramid valid, the pyramid caps, where the End card is (the runner
    samples them: every ``check_every`` steps, a run of draws counted as its steps).
    At the end: the End card drawn, every pyramid cashed (``final_cash:
    all``), the scores equal to the sum of the cashes, the winners.
    """

    def __init__(self, game: FaraoGame):
        self.g = game
        n = game.num_players
        self.scores = [0] * n
        self.plateau = 1
        self.turn = 0
        self.active = 0
        self.expect: tuple | None = None
        self._cards = game.checker_verdicts
        self._pyr_seen: list[list[tuple]] = [[] for _ in range(n)]  # each seat's pyramids as last judged
        self._pyr_cards = [0] * n  # and their cards
        self._pyr_total = 0
        self.who = [f"seat {q + 1}" for q in range(n)]
        self.built_in_turn = -1  # the last turn with a build: no trade offer after it
        self.total = game.total
        self.hand_limit = rulebook.HAND  # the rulebook's seven, not the engine's number
        # compulsory steps the checker waits for, from the actions it saw: a thief's roll
        # (a steal when it beats the height), a Tax collector's round, a display refill
        self.thief: tuple | None = None  # (seat robbed, slot, height)
        self.tax: tuple | None = None  # (active, hand sizes before, [(seat, blocked)] asked)
        self.refill_due = False
        self.decisions = 0  # every LIST_SAMPLE-th decision: the engine's list against the checker's own
        self.drew = -1  # the last turn with step 2 (a draw or a take)
        self.watching = -1  # the turn the checker saw begin (a position built mid-turn: none)
        self.started = False
        # the face-up discard pile as the public acts fill it; the step before was checked in
        # full (every step in the deep pass): this decision's list and views are compared too
        self.discard = DiscardRecord()
        self.prev_full = True
        self.outcome_from: FaraoState | None = None

    def before(self, s: FaraoState, player: int, action: int) -> None:
        ph = s.phase
        self.decisions += 1
        if (self.prev_full or not self.decisions % LIST_SAMPLE) and ph in _LISTED:
            self._compare_lists(s, player)
        if self.prev_full:  # what every seat sees: the table, and the step's outcome text
            public_view(s, player)
            self.outcome_from = s.clone()
        self.discard.act(s, player, action, self.g.board.plateaus)
        if ph == DRAW:
            self.drew = s.turn
        elif (ph in _AFTER_DRAW and self.watching == s.turn and self.drew != s.turn
              and (s.pile_n or s.disc_n or s.display)):
            raise RuleViolation(f"{self.who[player]} is at step 3 or 4 without step 2: a card is drawn from the pile"
                                " or taken from the display first")
        if ph == TRADE and action < BUILD_ACT:  # the most frequent question first
            self._trade_question(s, player, action)
            return
        if ph in _ACTIVE_ONLY and player != s.active:
            raise RuleViolation(f"{self.who[player]} acts in seat {s.active + 1}'s turn")
        _STEP_RULES.get(ph, FaraoChecker._no_such_step)(self, s, player, action)

    # The rulebook's turn, step by step: what each action must satisfy (the cheap checks of
    # every step; what the state must show after it is kept in ``expect`` for ``after``).
    def _cash(self, s: FaraoState, player: int, action: int) -> None:
        """1. Cash a pyramid: one of one's own, tall enough for the figure's plateau."""
        g = self.g
        who = self.who[player]
        if action == PASS:
            if not g.options.cash_optional:
                raise RuleViolation(f"{who} passes step 1 although cashing is compulsory (cash_optional: false)")
            return
        slot = action - CASH_ACT
        if not 0 <= slot < len(s.pyr[player]):
            raise RuleViolation(f"{who} cashes a pyramid it does not have")
        pyr = s.pyr[player][slot]
        need = g.options.min_rows_to_cash
        if s.plateau >= g.board.tall_only_from:
            need = max(need, g.board.tall_rows)
        if len(pyr[1]) < need:
            raise RuleViolation(f"{who} cashes a pyramid of {len(pyr[1])} row(s) with the figure on plateau"
                                f" {s.plateau}; it needs {need}")
        self.expect = ("cash", player, rule_value(pyr), min(s.plateau + 1, g.board.plateaus),
                       len(s.pyr[player]) - 1)

    def _draw(self, s: FaraoState, player: int, action: int) -> None:
        """2. Draw a card from the pile or take one from the display of three."""
        who = self.who[player]
        if len(s.display) < rulebook.DISPLAY and (s.pile_n or s.disc_n):
            raise RuleViolation(f"{who} draws with {len(s.display)} card(s) in the display although the pile"
                                f" holds cards: the display is {rulebook.DISPLAY}")
        if action != PILE:
            self.refill_due = True
        if action == PILE:
            if not (s.pile_n or s.disc_n):
                raise RuleViolation(f"{who} draws from an empty pile")
        elif action - TAKE not in s.display:
            raise RuleViolation(f"{who} takes {KIND_NAMES[action - TAKE] if 0 < action - TAKE < NK else action}"
                                " which is not in the display")

    def _trade_question(self, s: FaraoState, player: int, action: int) -> None:
        """3. Trade: the question before each offer (a build there ends the trading: step 4)."""
        g = self.g
        who = self.who[player]
        if action != PASS and action != YES:
            raise RuleViolation(f"{who} answered {action} to whether to trade")
        if action == YES:
            if s.trades >= g.options.trade_offers:
                raise RuleViolation(f"{who} offers trade {s.trades + 1}; {g.options.trade_offers} are allowed")
            if self.built_in_turn == s.turn:
                raise RuleViolation(f"{who} offers a trade after building: step 3 comes before step 4")
        if player != s.active:
            raise RuleViolation(f"{who} trades in seat {s.active + 1}'s turn")

    def _trade_offer(self, s: FaraoState, player: int, action: int) -> None:
        """3. Trade: the active player offers one of its cards to another player, before building."""
        g = self.g
        who = self.who[player]
        hand = s.hands[player]
        if g.options.trade == "none":
            raise RuleViolation(f"{who} offers a trade although trading is off")
        q, give, ask = decode_trade(action)
        if self.built_in_turn == s.turn:
            raise RuleViolation(f"{who} offers a trade after building: step 3 comes before step 4")
        if s.trades >= g.options.trade_offers:
            raise RuleViolation(f"{who} makes trade offer {s.trades + 1}; {g.options.trade_offers} are allowed")
        if not 0 <= q < g.num_players or q == player:
            raise RuleViolation(f"{who} offers a trade to seat {q + 1}: the active player trades with another")
        if not hand[give] or give == ask or ask in (0, END) or ask >= NK or (ask == JOKER and not g.options.jokers):
            raise RuleViolation(f"{who} offers {KIND_NAMES[give]} for {KIND_NAMES[ask % NK]}: not a possible trade")

    def _trade_reply(self, s: FaraoState, player: int, action: int) -> None:
        """3. Trade: the partner accepts (giving a card it holds) or declines."""
        who = self.who[player]
        hand = s.hands[player]
        offer = s.offer
        assert offer is not None  # made at the offer step
        q, give, ask = offer
        if player != q:
            raise RuleViolation(f"{who} answers a trade offered to seat {q + 1}")
        if action == ACCEPT:
            if not hand[ask]:
                raise RuleViolation(f"{who} accepts a trade giving {KIND_NAMES[ask]} it does not hold")
            a = s.active
            self.expect = ("trade", a, q, s.hands[a][give] - 1, s.hands[a][ask] + 1, hand[give] + 1,
                           hand[ask] - 1, give, ask)

    def _build(self, s: FaraoState, player: int, action: int) -> None:
        """4. Build: cards of one value onto an own pyramid or as a new one, within the caps, the
        pyramid following the rules."""
        if action == PASS:
            return
        g = self.g
        who = self.who[player]
        hand = s.hands[player]
        self.built_in_turn = s.turn
        slot, v, nat, j = decode_build(action)
        if not (BUILD_ACT <= action and 0 <= slot <= NEW and 1 <= v <= MAX_VALUE):
            raise RuleViolation(f"{who} made an impossible build ({action})")
        if hand[v] < nat or hand[JOKER] < j or (j and not g.options.jokers):
            raise RuleViolation(f"{who} builds {nat}×{v} + {j} Joker(s) without holding them")
        pyrs = s.pyr[player]
        if slot == NEW:
            cap = 2 if s.plateau >= g.board.double_from else 1
            if len(pyrs) >= cap:
                raise RuleViolation(f"{who} starts pyramid {len(pyrs) + 1} with the figure on plateau"
                                    f" {s.plateau}: the rules allow {cap}")
        elif slot >= len(pyrs):
            raise RuleViolation(f"{who} builds on a pyramid it does not have")
        new = self._grown(pyrs, slot, v, nat, j)  # a new row on top, or the row's cards and Jokers grown
        if new is None:
            base, rows = pyrs[slot]
            raise RuleViolation(f"{who} builds {v}s on a pyramid of {base}…{base + len(rows) - 1}")
        if self._cards[new][0] < 0:  # the verdict is kept per pyramid shape
            why = pyramid_problem(new, g.options.jokers)
            raise RuleViolation(f"{who}'s build {nat}×{v}+{j}J makes a pyramid that breaks the rules: {why}")
        self.expect = ("build", player, slot, new, s.hand_n[player] - nat - j, len(pyrs) + (slot == NEW))

    def _attack(self, s: FaraoState, player: int, action: int) -> None:
        """5. Send a thief against another player's pyramid, or a tax collector: one a turn where
        the house rules say so, and only one held."""
        if action == PASS:
            return
        g = self.g
        who = self.who[player]
        hand = s.hands[player]
        if g.options.one_attack_per_turn and s.attacks:
            raise RuleViolation(f"{who} sends a second thief or tax collector this turn")
        if action == TAX_ACT:
            if not hand[TAX]:
                raise RuleViolation(f"{who} plays a tax collector it does not hold")
            self.tax = (player, s.hand_n[:], [])
            return
        q, slot = divmod(action - THIEF_ACT, 2)
        if not hand[THIEF]:
            raise RuleViolation(f"{who} sends a thief it does not hold")
        if q == player or not 0 <= q < g.num_players or slot >= len(s.pyr[q]):
            raise RuleViolation(f"{who} sends a thief to a pyramid that is not another player's")

    def _block(self, s: FaraoState, player: int, action: int) -> None:
        """5. The thief's target, or each player the tax collector visits, may block with a Pharaoh."""
        ph = s.phase
        who = self.who[player]
        hand = s.hands[player]
        if action == BLOCK_ACT and not hand[PHARAOH]:
            raise RuleViolation(f"{who} blocks without a Pharaoh")
        target = s.target
        if ph == BLOCK and (target is None or player != target[0]):
            raise RuleViolation(f"{who} blocks a thief sent to seat {target[0] + 1 if target else '?'}")
        if action == BLOCK_ACT:  # the Pharaoh is played: it leaves the hand
            self.expect = ("block", player, hand[PHARAOH] - 1, s.hand_n[player] - 1)
        elif ph == BLOCK and target is not None:  # the die decides
            q, slot = target
            self.thief = (q, slot, len(s.pyr[q][slot][1]))
        if ph == TAX_BLOCK and self.tax is not None:
            self.tax[2].append((player, action == BLOCK_ACT))

    def _steal(self, s: FaraoState, player: int, action: int) -> None:
        """5. A roll higher than the pyramid's height steals one of its cards; what is left
        collapses into its owner's hand when it no longer follows the rules."""
        g = self.g
        who = self.who[player]
        if action == PASS:
            if g.options.steal != "optional":
                raise RuleViolation(f"{who} takes nothing after a winning roll, but the house rules make the theft"
                                    " compulsory")
            return
        target = s.target
        assert target is not None  # set by the thief
        q, slot = target
        pyr = s.pyr[q][slot]
        row, joker = divmod(action - STEAL_ACT, 2)
        rows = rows_of(pyr)
        if s.roll <= len(rows):
            raise RuleViolation(f"{who} steals after rolling {s.roll} against a pyramid of height {len(rows)}")
        if not 0 <= row < len(rows) or (joker and not rows[row][1]) or (not joker and rows[row][0] == rows[row][1]):
            raise RuleViolation(f"{who} steals a card that is not in the pyramid")
        rows[row] = (rows[row][0] - 1, rows[row][1] - joker)
        while rows and rows[-1][0] == 0:
            rows.pop()
        after = (pyr[0], tuple((n << 3) + j for n, j in rows))
        collapses = bool(rows) and pyramid_problem(after, g.options.jokers) is not None
        self.expect = ("steal", player, q, slot, after if rows else None, collapses, s.hand_n[player] + 1,
                       s.hand_n[q] + (pyramid_cards(after) if collapses else 0), len(s.pyr[q]))

    def _discard(self, s: FaraoState, player: int, action: int) -> None:
        """6. (and a collapse) Down to the hand limit: a card held, only while above the limit."""
        g = self.g
        who = self.who[player]
        k = action - DISCARD
        if not 0 < k < NK or not s.hands[player][k]:
            raise RuleViolation(f"{who} discards a card it does not hold")
        if s.hand_n[player] <= g.hand_limit:
            raise RuleViolation(f"{who} discards with {s.hand_n[player]} cards, within the limit")

    def _idle(self, s: FaraoState, player: int, action: int) -> None:
        """A turn in which nothing can be done: its one decision is a pass."""
        if action != PASS:
            raise RuleViolation(f"{self.who[player]} did something ({action}) in a turn where nothing can be done")

    def _no_such_step(self, s: FaraoState, player: int, action: int) -> None:
        raise RuleViolation(f"{self.who[player]} acted in the {PHASE_NAMES[s.phase]} step")

    def after(self, s: FaraoState, full: bool) -> None:
        """The checks of every step (see the class doc), the cheapest first; the full ones when due."""
        g = self.g
        if not self.started:  # the first step seen: the turn's start only if no step of it is past
            self.started = True
            if s.phase in (CASH, DRAW):
                self.watching = s.turn
        pyr = s.pyr
        if pyr != self._pyr_seen:  # a seat's pyramids changed: judge them again (the others were judged)
            for q, pyrs in enumerate(pyr):
                if pyrs != self._pyr_seen[q]:
                    self._judge_pyramids(q, pyrs)
        hand_n = s.hand_n
        total = s.pile_n + s.disc_n + len(s.display) + sum(hand_n) + self._pyr_total + s.end_out
        if total != self.total:
            raise RuleViolation(f"the cards add up to {total}, not {g.total} (pile {s.pile_n}, discard {s.disc_n},"
                                f" display {len(s.display)}, hands {s.hand_n}, pyramids {self._pyr_total},"
                                f" End card {s.end_out})")
        exp = self.expect
        if exp is not None:
            self.expect = None
            self._expected(s, exp)
        if (self.thief or self.tax or self.refill_due) and s.phase not in _CHANCE:
            self._compulsory(s)
        if s.plateau != self.plateau or s.score != self.scores:
            self._score_moved(s)
        if max(hand_n) > self.hand_limit:
            self._hands_over_the_limit(s)
        if s.turn != self.turn:
            self._turn_change(s)
        if s.phase != OVER:
            self.discard.compare(s)
        if self.outcome_from is not None:
            public_outcome(self.outcome_from, s, f"{PHASE_NAMES[self.outcome_from.phase]} step")
            self.outcome_from = None
        self.prev_full = full
        if full:  # the runner samples them: every check_every steps (chance runs counted) and at the end
            self.conservation(s)

    def _hands_over_the_limit(self, s: FaraoState) -> None:
        """Only the seat whose turn it is (or who discards for a loss) may hold more than the limit."""
        limit = self.g.hand_limit
        for q, n in enumerate(s.hand_n):
            if n > limit and q != s.active and not (s.phase == LOSS_DISCARD and q == s.player):
                raise RuleViolation(f"seat {q + 1} holds {n} cards out of turn; the limit is {limit}")

    def _grown(self, pyrs: list, slot: int, v: int, nat: int, j: int) -> tuple | None:
        """The pyramid a build of ``nat`` cards of value ``v`` and ``j`` Jokers makes on ``slot``
        (``NEW``: a new pyramid), by the rules' shape alone (None: no row of that value there)."""
        if slot == NEW:
            return (v, (_row(nat + j, j),))
        base, rows = pyrs[slot]
        i = v - base
        if i < 0 or i > len(rows):
            return None
        if i == len(rows):
            return (base, rows + (_row(nat + j, j),))
        r = rows[i]
        return (base, rows[:i] + (_row((r >> 3) + nat + j, (r & 7) + j),) + rows[i + 1:])

    def own_builds(self, s: FaraoState, p: int) -> set[int]:
        """Step 4 by the rules: every build of cards of one value (Jokers where the variant is
        on) onto a row of an own pyramid, a new row on top, or a new pyramid when the caps allow
        one, whose result is a pyramid that follows the rules."""
        g = self.g
        hand = s.hands[p]
        pyrs = s.pyr[p]
        jk = hand[JOKER] if g.options.jokers else 0
        cap = 2 if s.plateau >= g.board.double_from else 1
        slots = list(range(len(pyrs))) + ([NEW] if len(pyrs) < cap else [])
        cards = self._cards
        out = set()
        values = [v for v in range(1, MAX_VALUE + 1) if hand[v] or jk]  # nothing to build of the others
        for slot in slots:
            for v in values:
                for nat in range(hand[v] + 1):
                    for j in range(jk + 1):
                        if nat + j:
                            new = self._grown(pyrs, slot, v, nat, j)
                            if new is not None and cards[new][0] >= 0:
                                out.add(build_action(slot, v, nat, j))
        return out

    def _compare_lists(self, s: FaraoState, p: int) -> None:
        """On sampled decisions: the engine offers exactly the checker's own list for step 1
        (the pyramids that may be cashed), step 2 (the pile, each kind in the display), step 4
        (every build), step 5 (each other player's pyramid for a Thief, the Tax collector) and a
        theft (each card of the pyramid)."""
        g = self.g
        ph = s.phase
        hand = s.hands[p]
        have = set(s.legal_actions())
        if ph == TRADE or ph == BUILD:
            want = self.own_builds(s, p) | {PASS}
            have -= {YES}
        elif ph == CASH:
            need = g.options.min_rows_to_cash
            if s.plateau >= g.board.tall_only_from:
                need = max(need, g.board.tall_rows)
            want = {CASH_ACT + k for k, pyr in enumerate(s.pyr[p]) if len(pyr[1]) >= need}
            if g.options.cash_optional:
                want.add(PASS)
        elif ph == DRAW:
            want = {TAKE + k for k in s.display} | ({PILE} if s.pile_n or s.disc_n else set())
        elif ph == ATTACK:
            want = {PASS} | ({TAX_ACT} if hand[TAX] else set())
            if hand[THIEF]:
                want |= {THIEF_ACT + 2 * q + k for q in range(g.num_players) if q != p for k in range(len(s.pyr[q]))}
        elif ph == TRADE_PICK:
            want = trade_offers(s, p, g.options.jokers)
        elif ph == TRADE_REPLY:
            want = trade_replies(s, p)
        elif ph in (BLOCK, TAX_BLOCK):
            want = blocks(s, p)
        elif ph in (END_DISCARD, LOSS_DISCARD):
            want = discards(s, p)
        else:  # STEAL
            target = s.target
            assert target is not None  # set by the thief
            q, slot = target
            want = {PASS} if g.options.steal == "optional" else set()
            for i, (n, j) in enumerate(rows_of(s.pyr[q][slot])):
                if n - j:
                    want.add(STEAL_ACT + 2 * i)
                if j:
                    want.add(STEAL_ACT + 2 * i + 1)
        check_offered(have, want, f"seat {p + 1}'s {PHASE_NAMES[ph]} step", s.action_to_string)

    def _compulsory(self, s: FaraoState) -> None:
        """The steps the rules force, once the chance steps after the action are over: a
        thief whose roll beats the pyramid's height steals (step 5), a Tax collector takes a
        card from every other player who holds one and does not block, a display card taken
        is replaced."""
        g = self.g
        if self.thief is not None:
            q, slot, height = self.thief
            self.thief = None
            roll = s.roll
            if not 1 <= roll <= g.board.die:
                raise RuleViolation(f"the thief's die shows {roll}")
            if roll > height and g.options.thief_takes == "any" and (s.phase != STEAL or s.target != (q, slot)):
                raise RuleViolation(f"a thief rolled {roll} against a pyramid of height {height} but does not"
                                    " steal: a roll higher than the height steals a card")
            if roll <= height and s.phase == STEAL:
                raise RuleViolation(f"a thief rolled {roll} against a pyramid of height {height} and may steal")
        if self.tax is not None and s.phase != TAX_BLOCK:
            a, sizes, asked = self.tax
            self.tax = None
            spared_from = None
            blocked = {q for q, b in asked if b}
            order = [(a + i) % g.num_players for i in range(1, g.num_players)]
            if not g.options.pharaoh_blocks_each and blocked:
                spared_from = min(order.index(q) for q in blocked)
            for i, q in enumerate(order):
                if not sizes[q]:
                    continue
                spared = q in blocked or (spared_from is not None and i >= spared_from)
                want = sizes[q] - (0 if spared else 1) - (1 if q in blocked else 0)
                if s.hand_n[q] != want:
                    raise RuleViolation(f"seat {q + 1} holds {s.hand_n[q]} cards after the Tax collector of seat"
                                        f" {a + 1}; {want} expected (a card from every other player who does not"
                                        " block)")
        if self.refill_due:
            self.refill_due = False
            if s.phase != OVER and len(s.display) < rulebook.DISPLAY and (s.pile_n or s.disc_n):
                raise RuleViolation(f"the display holds {len(s.display)} card(s) after a take although the pile"
                                    " holds cards: a display card taken is replaced")

    def _score_moved(self, s: FaraoState) -> None:
        """The scores or the figure changed without a cash (the final cashes excepted)."""
        if s.score != self.scores and s.phase != OVER:
            raise RuleViolation(f"the scores changed without a cash: {self.scores} → {s.score}")
        if s.plateau != self.plateau:
            raise RuleViolation(f"the figure moved from plateau {self.plateau} to {s.plateau} without a cash")

    def _judge_pyramids(self, q: int, pyrs: list[tuple]) -> None:
        """Every pyramid of seat ``q`` follows the rules; its card count kept for the sum of the cards.

        Called when the seat's pyramids differ from those judged last: a pyramid is an immutable
        value, so pyramids judged before and unchanged since still follow the rules."""
        sizes = self._cards
        cards = 0
        for pyr in pyrs:
            k = sizes[pyr][0]
            if k < 0:  # every standing pyramid follows the rules, at every step
                raise RuleViolation(f"a pyramid {pyramid_text(pyr)} breaks the rules:"
                                    f" {pyramid_problem(pyr, self.g.options.jokers)}")
            cards += k
        self._pyr_seen[q] = pyrs[:]
        self._pyr_cards[q] = cards
        self._pyr_total = sum(self._pyr_cards)

    def _expected(self, s: FaraoState, exp: tuple) -> None:
        """The state after an action shows what the rules make of it (``exp``, from ``before``)."""
        what = exp[0]
        if what == "build":
            _, p, slot, new, size, count = exp
            pyrs = s.pyr[p]
            got = pyrs[-1] if slot == NEW else (pyrs[slot] if slot < len(pyrs) else None)
            if got != new or len(pyrs) != count or s.hand_n[p] != size:
                raise RuleViolation(f"seat {p + 1}'s build gave {pyramid_text(got) if got else 'nothing'} and a hand"
                                    f" of {s.hand_n[p]}; the rules give {pyramid_text(new)} and {size}")
        elif what == "cash":
            self._cashed(s, exp)
        elif what == "block":
            _, q, pharaohs, size = exp
            if s.hands[q][PHARAOH] != pharaohs or s.hand_n[q] != size:
                raise RuleViolation(f"seat {q + 1} blocked with a Pharaoh but still holds it: a Pharaoh played"
                                    " is used up")
        elif what == "trade":
            _, a, q, ag, aa, qg, qa, give, ask = exp
            if (s.hands[a][give], s.hands[a][ask], s.hands[q][give], s.hands[q][ask]) != (ag, aa, qg, qa):
                raise RuleViolation(f"the trade of {KIND_NAMES[give]} for {KIND_NAMES[ask]} between seats {a + 1}"
                                    f" and {q + 1} did not swap one card each")
        elif what == "steal":
            self._stolen(s, exp)

    def _cashed(self, s: FaraoState, exp: tuple) -> None:
        """After a cash: the score up by the pyramid's value, the figure one plateau on, the
        pyramid gone, the End card shuffled in on the last plateau."""
        _, p, value, plateau, count = exp
        self.scores[p] += value
        if s.phase != OVER and s.score[p] != self.scores[p]:
            raise RuleViolation(f"seat {p + 1} scored {s.score[p] - self.scores[p] + value} for a pyramid worth"
                                f" {value}")
        if s.plateau != plateau:
            raise RuleViolation(f"the figure stands on plateau {s.plateau} after a cash; it should be on {plateau}")
        self.plateau = plateau
        if len(s.pyr[p]) != count:
            raise RuleViolation(f"seat {p + 1} still has {len(s.pyr[p])} pyramid(s) after cashing one")
        if plateau == self.g.board.plateaus and not s.final:
            raise RuleViolation("the figure reached the last plateau but the End card is not in the pile")

    def _stolen(self, s: FaraoState, exp: tuple) -> None:
        """After a theft: the card in the thief's hand, the pyramid one card less, or gone (and
        in its owner's hand when it collapsed)."""
        _, p, q, slot, after, collapses, p_size, q_size, count = exp
        if s.hand_n[p] != p_size:
            raise RuleViolation(f"seat {p + 1} holds {s.hand_n[p]} cards after stealing one; {p_size} expected")
        if collapses or after is None:
            if len(s.pyr[q]) != count - 1:
                raise RuleViolation(f"seat {q + 1}'s pyramid should be gone after the theft"
                                    f"{' (it collapses)' if collapses else ''}")
            if collapses and s.phase != LOSS_DISCARD and s.hand_n[q] != min(q_size, self.g.hand_limit):
                raise RuleViolation(f"seat {q + 1} holds {s.hand_n[q]} cards after its pyramid collapsed;"
                                    f" {q_size} expected")
        elif s.pyr[q][slot] != after:
            raise RuleViolation(f"seat {q + 1}'s pyramid is {pyramid_text(s.pyr[q][slot])} after the theft;"
                                f" the rules leave {pyramid_text(after)}")

    def _turn_change(self, s: FaraoState) -> None:
        g = self.g
        if s.turn != self.turn + 1:
            raise RuleViolation(f"the turn count went from {self.turn} to {s.turn}")
        prev = self.active
        n = s.hand_n[prev]
        limit = self.hand_limit
        if n > limit or (n < limit and (s.pile_n or s.disc_n)):
            raise RuleViolation(f"seat {prev + 1} ended its turn with {n} cards; the rules say {limit}")

        if s.active != (prev + 1) % g.num_players:
            raise RuleViolation(f"seat {s.active + 1} plays after seat {prev + 1}")
        self.turn = s.turn
        self.watching = s.turn
        self.active = s.active

    def conservation(self, s: FaraoState) -> None:
        """Each kind of card counted everywhere; every pyramid valid; caps; the End card.

        The kinds are counted all at once as one int with a byte per kind (:data:`KIND_WEIGHT`):
        each list packed by ``bytes``, which refuses a count below 0 or above 255, each standing
        pyramid by its packed cards (kept per pyramid shape, like its verdict). With every count
        in 0…255 and all of them adding up to the deck's size (fewer than 256 cards), the packed
        sums are equal exactly when every kind's count is. Anything amiss is looked at again
        kind by kind (:meth:`_conservation_by_kind`), which names the fault."""
        g = self.g
        hands = s.hands
        hand_n = s.hand_n
        pile, discard, display = s.pile, s.discard, s.display
        try:
            packed = int.from_bytes(bytes(pile), "big") + int.from_bytes(bytes(discard), "big")
            for h in hands:
                packed += int.from_bytes(bytes(h), "big")
        except ValueError:  # a negative count (or an absurd one)
            self._conservation_by_kind(s)
            return
        weight = KIND_WEIGHT
        for k in display:
            packed += weight[k]
        cards = s.pile_n + s.disc_n + len(display) + sum(hand_n) + s.end_out
        cap = 2 if s.plateau >= g.board.double_from else 1
        sizes = self._cards
        for pyrs in s.pyr:
            if len(pyrs) > cap:
                self._conservation_by_kind(s)
                return
            for pyr in pyrs:
                k, by_kind = sizes[pyr]
                if k < 0:
                    self._conservation_by_kind(s)
                    return
                cards += k
                packed += by_kind
        packed += s.end_out * weight[END]
        if (packed != g.packed_counts or cards != g.total or g.total > 255 or list(map(sum, hands)) != hand_n
                or s.pile_n != sum(pile) or s.disc_n != sum(discard) or len(display) > g.board.display
                or not 1 <= s.plateau <= g.board.plateaus or s.final != (s.plateau == g.board.plateaus)
                or (s.phase != OVER and pile[END] != (1 if s.final else 0))):
            self._conservation_by_kind(s)

    def _conservation_by_kind(self, s: FaraoState) -> None:
        """:meth:`conservation` the long way, kind by kind and place by place: it raises, naming
        the fault, for whatever the packed count found amiss."""
        g = self.g
        hands = s.hands
        seen = [sum(x) for x in zip(s.pile, s.discard, *hands)]
        for k in s.display:
            seen[k] += 1
        if list(map(sum, hands)) != s.hand_n or min(map(min, hands)) < 0:
            for q, h in enumerate(hands):
                if sum(h) != s.hand_n[q] or min(h) < 0:
                    raise RuleViolation(f"seat {q + 1}'s hand {h} does not hold its {s.hand_n[q]} cards")
        cap = 2 if s.plateau >= g.board.double_from else 1
        sizes = self._cards
        for q, pyrs in enumerate(s.pyr):
            if len(pyrs) > cap:
                raise RuleViolation(f"seat {q + 1} has {len(pyrs)} pyramids with the figure on plateau {s.plateau}")
            for pyr in pyrs:
                if sizes[pyr][0] < 0:
                    why = pyramid_problem(pyr, g.options.jokers)
                    raise RuleViolation(f"seat {q + 1}'s pyramid {pyramid_text(pyr)} breaks the rules: {why}")
                v = pyr[0]
                for r in pyr[1]:
                    j = r & 7
                    seen[v] += (r >> 3) - j
                    seen[JOKER] += j
                    v += 1
        seen[END] += s.end_out
        if seen != g.counts_list:
            if min(s.pile) < 0 or min(s.discard) < 0:
                raise RuleViolation("a negative count in the pile or the discard")
            k = next(k for k in range(NK) if seen[k] != g.counts[k])
            raise RuleViolation(f"{seen[k]} {KIND_NAMES[k]} card(s) in play; the deck has {g.counts[k]}")
        self._pile_display_track(s)

    def _pile_display_track(self, s: FaraoState) -> None:
        """The pile's and the discard's counts, the display's size, the figure on the track and
        the End card in the pile from the last plateau on."""
        g = self.g
        if s.pile_n != sum(s.pile) or s.disc_n != sum(s.discard) or min(s.pile) < 0 or min(s.discard) < 0:
            raise RuleViolation(f"the pile counts {s.pile_n} but holds {sum(s.pile)}, the discard {s.disc_n} but"
                                f" holds {sum(s.discard)}")
        if len(s.display) > g.board.display:
            raise RuleViolation(f"{len(s.display)} cards in the display")
        if not 1 <= s.plateau <= g.board.plateaus:
            raise RuleViolation(f"the figure stands off the track (plateau {s.plateau})")
        if s.final != (s.plateau == g.board.plateaus):
            raise RuleViolation("the End card's shuffle does not match the figure's plateau")
        if s.phase != OVER and s.pile[END] != (1 if s.final else 0):
            raise RuleViolation("the End card is in the pile before the last plateau (or missing after it)")

    def at_end(self, s: FaraoState) -> None:
        g = self.g
        if s.phase != OVER:
            raise RuleViolation("the game stopped before it was over")
        if not s.final or s.end_out != g.counts[END] or s.pile[END]:
            raise RuleViolation("the game ended without the End card being drawn after the last plateau")
        self.conservation(s)
        if g.options.final_cash == "all" and any(s.pyr):
            raise RuleViolation("pyramids are left standing at the end; every one is cashed")
        final = [0] * g.num_players
        for q, pyr in s.final_cashed:
            final[q] += rule_value(pyr)
        want = [a + b for a, b in zip(self.scores, final)]
        if s.score != want:
            raise RuleViolation(f"the final scores are {s.score}; the cashes add up to {want}")
        best = max(s.score)
        for q, r in enumerate(s.returns()):
            if (r == 1.0) != (s.score[q] == best):
                raise RuleViolation(f"seat {q + 1} with {s.score[q]} points has return {r}; the most is {best}")


# the rule each decision step's action must follow (before() asks the trade question itself)
_STEP_RULES = {
    CASH: FaraoChecker._cash, DRAW: FaraoChecker._draw, TRADE: FaraoChecker._build,
    TRADE_PICK: FaraoChecker._trade_offer, TRADE_REPLY: FaraoChecker._trade_reply, BUILD: FaraoChecker._build,
    ATTACK: FaraoChecker._attack, BLOCK: FaraoChecker._block, TAX_BLOCK: FaraoChecker._block,
    STEAL: FaraoChecker._steal, LOSS_DISCARD: FaraoChecker._discard, END_DISCARD: FaraoChecker._discard,
    IDLE: FaraoChecker._idle,
}
