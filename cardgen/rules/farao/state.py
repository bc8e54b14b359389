"""O, Farao!: the game state, the engine proper — the legal actions of each step, the
chance outcomes (every draw is a uniform pick of the cards left in the pile, which is the
shuffle) and the moves, as plain ints and short lists because this is the hot loop of
``cardgen validate``. The rules it follows are in the package doc."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from itertools import compress, islice
from typing import TYPE_CHECKING

from ..api import CHANCE, TERMINAL, PhaseState, RuleViolation, draw_outcome, most_points_win
from .codec import (
    ACCEPT,
    ALLOW,
    BLOCK_ACT,
    CASH_ACT,
    DECLINE,
    DISCARD,
    NEW,
    PASS,
    PILE,
    STEAL_ACT,
    TAKE,
    TAX_ACT,
    THIEF_ACT,
    YES,
    action_text,
    decode_build,
    decode_trade,
    state_text,
)
from .observation import FaraoObservation
from .spec import (
    ATTACK,
    BLOCK,
    BUILD,
    C_DIE,
    C_DRAW,
    C_STEAL,
    C_TAX,
    CASH,
    DISPLAY_TARGET,
    DRAW,
    END,
    END_DISCARD,
    IDLE,
    JOKER,
    KIND_NAMES,
    LOSS_DISCARD,
    NK,
    OVER,
    PHARAOH,
    STEAL,
    TAX,
    TAX_BLOCK,
    THIEF,
    TRADE,
    TRADE_PICK,
    TRADE_REPLY,
    pyramid_value,
)

if TYPE_CHECKING:
    from .game import FaraoGame


_new_observation = tuple.__new__


class FaraoState(PhaseState):
    OVER_PHASE = OVER
    CHANCE_PHASES = frozenset((C_DRAW, C_DIE, C_TAX, C_STEAL))  # a draw, the die, the tax collector's pick, a theft

    __slots__ = ("g", "phase", "player", "active", "hands", "hand_n", "pile", "pile_n", "display", "discard",
                 "disc_n", "pyr", "score", "plateau", "final", "end_out", "turn", "steps", "trades", "attacks",
                 "offer", "target", "roll", "tax_queue", "draw_to", "draw_left", "after", "cashed", "final_cashed",
                 "thefts", "collapses", "blocks", "reshuffles", "attacks_made", "decided", "builds",
                 "trade_or_build", "display_owed", "played")

    def __init__(self, game: FaraoGame):
        n = game.num_players
        self.g = game
        self.hands = [[0] * NK for _ in range(n)]
        self.hand_n = [0] * n
        self.pile = list(game.counts)
        self.pile[END] = 0  # RULES: set aside until the last plateau
        self.pile_n = game.total - game.counts[END]
        self.display: list[int] = []
        self.discard = [0] * NK
        self.disc_n = 0
        self.display_owed = 0  # display cards that could not be replaced (pile and discard empty)
        self.pyr: list[list[tuple]] = [[] for _ in range(n)]
        self.score = [0] * n
        self.plateau = 1
        self.final = False
        self.end_out = game.counts[END]  # the End card, set aside (1) or drawn (1) — not in the pile
        self.turn = 0
        self.steps = 0
        self.trades = 0
        self.attacks = 0
        self.offer: tuple | None = None
        self.target: tuple | None = None
        self.roll = 0
        self.tax_queue: list[int] = []
        self.active = 0
        self.player = 0
        self.cashed: list[int] = []  # the value of every pyramid cashed in play
        self.final_cashed: list[tuple] = []  # (seat, pyramid) cashed at the end
        self.thefts = self.collapses = self.blocks = self.reshuffles = self.attacks_made = 0
        self.decided = True
        self.played = 0  # bit seat * NK + kind: the seat built or played a card of that kind (card_holders)
        self.builds: list[int] = _PASS_ONLY
        self.trade_or_build: list[int] = _PASS_YES
        # the deal: the display, then seven cards each
        self.phase = C_DRAW
        self.draw_to = DISPLAY_TARGET
        self.draw_left = game.board.display
        self.after: Callable[[], None] = self._deal_hands  # what follows the draw under way

    def _deal_hands(self) -> None:
        if self.draw_to == DISPLAY_TARGET:
            self._draw(0, self.g.hand_limit, self._deal_hands)
        elif self.draw_to + 1 < self.g.num_players:
            self._draw(self.draw_to + 1, self.g.hand_limit, self._deal_hands)
        else:
            self._start_turn(0)

    # -- queries ------------------------------------------------------------------
    def chance_outcomes(self) -> list[tuple[int, float]]:
        ph = self.phase
        if ph == C_DRAW:
            n = self.pile_n
            return [(k, c / n) for k, c in enumerate(self.pile) if c]
        if ph == C_DIE:
            return [(r, 1.0 / self.g.die) for r in range(1, self.g.die + 1)]
        if ph == C_TAX:
            q = self.tax_queue[0]
            n = self.hand_n[q]
            return [(k, c / n) for k, c in enumerate(self.hands[q]) if c]
        if ph == C_STEAL:
            target = self.target
            assert target is not None  # set by the thief
            seat, slot = target
            base, rows = self.pyr[seat][slot]
            total = sum(r >> 3 for r in rows)
            out = []
            for i, r in enumerate(rows):
                nat = (r >> 3) - (r & 7)
                if nat:
                    out.append((STEAL_ACT + 2 * i, nat / total))
                if r & 7:
                    out.append((STEAL_ACT + 2 * i + 1, (r & 7) / total))
            return out
        return []

    def sample_chance(self, rng: random.Random) -> int:
        ph = self.phase
        if ph == C_DRAW:
            return _pick(self.pile, int(rng.random() * self.pile_n))
        if ph == C_DIE:
            return 1 + int(rng.random() * self.g.die)
        if ph == C_TAX:
            q = self.tax_queue[0]
            return _pick(self.hands[q], int(rng.random() * self.hand_n[q]))
        return draw_outcome(self.chance_outcomes(), rng)

    def apply_chance_run(self, rng: random.Random, before: Callable[[int], None] | None = None) -> list[int]:
        """Every chance step up to the next decision, with exactly the draws of
        ``sample_chance`` + ``apply_action`` one by one; ``before``, if given, is called with
        each drawn action on the state just before it is applied (the chance test reads the
        step there instead of replaying the run on a clone)."""
        out: list[int] = []
        while True:
            ph = self.phase
            if ph == C_DRAW:  # the common case, inlined: the same draw, no dispatch
                a = _pick(self.pile, int(rng.random() * self.pile_n))
                if before is not None:
                    before(a)
                self._drawn(a)
                self.steps += 1
            elif C_DRAW < ph < OVER:
                a = self.sample_chance(rng)
                if before is not None:
                    before(a)
                self.apply_action(a)
            else:
                return out
            out.append(a)

    def legal_actions(self) -> list[int]:
        """The legal actions (sometimes a shared list: read it, never change it)."""
        ph = self.phase
        p = self.player
        g = self.g
        if ph == TRADE:  # the most frequent questions first
            return self.trade_or_build
        if ph == BUILD:
            return self.builds
        if ph == CASH:
            return self._cash_options()
        if ph == DRAW:
            return self._draw_options()
        if ph == END_DISCARD or ph == LOSS_DISCARD:  # every kind held, in kind order
            return list(compress(_DISCARD_RUN, islice(self.hands[p], 1, None)))
        if ph == TRADE_PICK:
            return g.offers(p, self.hands[p], self.hand_n)
        if ph == TRADE_REPLY:
            offer = self.offer
            assert offer is not None  # made in TRADE_PICK
            return _ACCEPT_DECLINE if self.hands[p][offer[2]] else _DECLINE
        if ph == ATTACK:
            return self._attacks()
        if ph == BLOCK or ph == TAX_BLOCK:
            return _ALLOW_BLOCK if self.hands[p][PHARAOH] else _ALLOW_ONLY
        if ph == STEAL:
            return self._steal_options()
        if ph == IDLE:
            return _PASS_ONLY
        if ph < OVER:
            return [a for a, _ in self.chance_outcomes()]
        return []

    def _cash_options(self) -> list[int]:
        """Step 1: the own pyramids tall enough for the figure's plateau (``PASS`` first when optional)."""
        g = self.g
        need = g.rows_to_cash[self.plateau]
        out = [CASH_ACT + s for s, pyr in enumerate(self.pyr[self.player]) if len(pyr[1]) >= need]
        return ([PASS] + out) if g.options.cash_optional else out

    def _draw_options(self) -> list[int]:
        """Step 2: the pile (when it or the discard holds a card), each kind of the display once."""
        out = [PILE] if self.pile_n or self.disc_n else []
        seen = 0
        for k in self.display:
            if not seen >> k & 1:
                seen |= 1 << k
                out.append(TAKE + k)
        return out

    def _steal_options(self) -> list[int]:
        """Step 5, a theft: each row's natural card and Joker the thief may take."""
        target = self.target
        assert target is not None  # set by the thief
        seat, slot = target
        out = [PASS] if self.g.options.steal == "optional" else []
        for i, r in enumerate(self.pyr[seat][slot][1]):
            if (r >> 3) - (r & 7):
                out.append(STEAL_ACT + 2 * i)
            if r & 7:
                out.append(STEAL_ACT + 2 * i + 1)
        return out

    def _attacks(self) -> list[int]:
        p = self.player
        h = self.hands[p]
        out = [PASS]
        if h[THIEF]:
            for q, pyrs in enumerate(self.pyr):
                if q != p:
                    for slot in range(len(pyrs)):
                        out.append(THIEF_ACT + 2 * q + slot)
        if h[TAX]:
            out.append(TAX_ACT)
        return out

    def observation(self, player: int) -> FaraoObservation:
        """What ``player`` may know now, as a copy (see :class:`~.observation.FaraoObservation`)."""
        return _new_observation(FaraoObservation, (
            player, self.g.num_players, self.phase, self.active, tuple(self.hands[player]), tuple(self.hand_n),
            tuple(map(tuple, self.pyr)), tuple(self.display), tuple(self.discard), self.pile_n, self.plateau,
            self.final, tuple(self.score), self.offer, self.target, self.roll, self.trades, self.turn))

    def scrambled(self, seat: int, rng: random.Random) -> FaraoState:
        """A copy in which everything ``seat`` cannot see is dealt again: the cards of the
        other hands and of the pile (the End card aside), shuffled together and dealt back,
        each hand keeping its size; a trade offered and not yet answered shows that the
        seat offering holds the card it offers, which stays in its hand. The validator asks
        a player on it and on the real game, and requires the same decision. The copy is
        for reading: it shares the lists it leaves alone with this state, so it must not be
        played (its ``clone()`` may be)."""
        twin = type(self).__new__(type(self))
        for name in FaraoState.__slots__:
            setattr(twin, name, getattr(self, name))
        others = [q for q in range(self.g.num_players) if q != seat]
        offered = self.offer[1] if self.offer is not None and self.active != seat else -1
        pool = [k for k, c in enumerate(self.pile) if k != END for _ in range(c)]
        for q in others:
            pool.extend(k for k, c in enumerate(self.hands[q]) for _ in range(c))
        if offered >= 0:
            pool.remove(offered)
        pool.sort()  # the unseen cards in an order that does not tell where they lay
        rng.shuffle(pool)
        twin.hands = [h[:] for h in self.hands]
        at = 0
        for q in others:
            dealt = self.hand_n[q] - (offered >= 0 and q == self.active)
            hand = twin.hands[q] = [0] * len(self.hands[q])
            for k in pool[at:at + dealt]:
                hand[k] += 1
            if offered >= 0 and q == self.active:
                hand[offered] += 1
            at += dealt
        pile = twin.pile = [0] * len(self.pile)
        pile[END] = self.pile[END]
        for k in pool[at:]:
            pile[k] += 1
        a = self.active
        if a != seat:  # the builds the engine keeps for the active seat's next question: of its new hand
            can_new = len(self.pyr[a]) < self.g.pyramid_caps[self.plateau]
            if self.phase in (TRADE, TRADE_PICK, TRADE_REPLY):
                twin.trade_or_build = self.g.build_actions(twin.hands[a], self.pyr[a], can_new, _PASS_YES)
            elif self.phase == BUILD:
                twin.builds = self.g.build_actions(twin.hands[a], self.pyr[a], can_new)
        return twin

    def returns(self) -> list[float]:
        """1 for every seat with the most points (all 1: a draw), 0 for the others."""
        if self.phase != OVER:
            return [0.0] * self.g.num_players
        return most_points_win(self.score)

    def length(self) -> int:
        """Turns played."""
        return self.turn

    def figures(self) -> dict[str, float | list[float]]:
        """Per-game figures for the report: lists are pooled over the games."""
        return {
            "score": [float(x) for x in self.score],
            "winning_score": float(max(self.score)),
            "pyramid_value": [float(v) for v in self.cashed] + [float(pyramid_value(p)) for _, p in self.final_cashed],
            "pyramids_cashed": float(len(self.cashed) + len(self.final_cashed)),
            "turns": float(self.turn),
            "thefts": float(self.thefts),
            "collapses": float(self.collapses),
            "blocks": float(self.blocks),
            "reshuffles": float(self.reshuffles),
        }

    def card_holders(self) -> dict[str, tuple[int, ...]]:
        """The seats that built cards of each kind into a pyramid or played them (a Thief,
        a Tax Collector, a Pharaoh that blocked), by card id (the cards of a kind are
        alike), for the report's per-card figures. Cashed pyramids and played cards go
        to the discard, so the end alone would not tell: the engine notes each as it
        happens (one bit per seat and kind)."""
        played = self.played
        out: dict[str, tuple[int, ...]] = {}
        for k in range(1, NK):
            seats = tuple(q for q in range(self.g.num_players) if played >> (q * NK + k) & 1)
            if seats:
                out[KIND_NAMES[k]] = seats
        return out

    def clone(self) -> FaraoState:
        s = FaraoState.__new__(FaraoState)
        for name in self.__slots__:
            v = getattr(self, name)
            if isinstance(v, list):
                v = [x[:] if isinstance(x, list) else x for x in v]
            setattr(s, name, v)
        # bound continuations point at the old state: rebind by name
        s.after = getattr(s, self.after.__name__)
        return s

    # -- moves --------------------------------------------------------------------
    def apply_action(self, action: int) -> int:
        ph = self.phase
        if ph < IDLE:
            self.decided = True
        # the most frequent steps first; step 5's questions and the rest in _apply_attack_step
        if ph == TRADE:
            self._on_trade(action)
        elif ph == DRAW:
            self._on_draw(action)
        elif ph == BUILD:
            self._on_build(action)
        elif ph == TRADE_PICK:
            self._on_trade_offer(action)
        elif ph == TRADE_REPLY:
            self._on_trade_reply(action)
        elif ph == END_DISCARD:
            self._on_end_discard(action)
        elif ph == ATTACK:
            self._attack(action)
        elif ph == CASH:
            self._on_cash(action)
        elif ph == C_DRAW:
            self._drawn(action)
        else:
            self._apply_attack_step(ph, action)
        self.steps += 1
        ph = self.phase
        if ph >= C_DRAW:
            return TERMINAL if ph == OVER else CHANCE
        return self.player

    def _apply_attack_step(self, ph: int, action: int) -> None:
        """Step 5's later questions and chance steps (a block, the die, the tax, the theft, a
        collapse's discards), and the pass of a turn with nothing to decide."""
        if ph == BLOCK:
            self._on_thief_block(action)
        elif ph == C_DIE:
            self._on_die(action)
        elif ph == TAX_BLOCK:
            self._on_tax_block(action)
        elif ph == C_TAX:
            self._on_tax_draw(action)
        elif ph == STEAL and action == PASS:  # steal: optional, and the Thief's player takes nothing
            self.target = None
            self._to_attack()
        elif ph == STEAL or ph == C_STEAL:
            self._steal(action)
        elif ph == LOSS_DISCARD:
            self._on_collapse_discard(action)
        elif ph == IDLE:
            self.decided = True
            self._end_turn()
        else:
            raise RuleViolation("an action was applied after the end of the game")

    # step 1: cash
    def _on_cash(self, action: int) -> None:
        if action != PASS:
            self._cash(action - CASH_ACT)
        self._to_draw()

    # step 2: draw, from the pile or the display
    def _on_draw(self, action: int) -> None:
        if action == PILE:
            self._draw(self.player, 1, self._to_trade)
        else:
            k = action - TAKE
            self.display.remove(k)
            self._gain(self.player, k)
            self._draw(DISPLAY_TARGET, 1, self._to_trade)

    # step 3: trade (the question before each offer, the offer, the partner's reply)
    def _on_trade(self, action: int) -> None:
        if action == YES:
            self.phase = TRADE_PICK
        elif action == PASS:  # no (more) trades and no building
            self._to_attack()
        else:  # no (more) trades: the turn's first build
            self._build(action)

    def _on_trade_offer(self, action: int) -> None:
        offer = self.offer = decode_trade(action)
        self.trades += 1
        self.player = offer[0]
        self.phase = TRADE_REPLY

    def _on_trade_reply(self, action: int) -> None:
        offer = self.offer
        assert offer is not None  # made in TRADE_PICK
        q, give, ask = offer
        if action == ACCEPT:
            p = self.active
            hp, hq = self.hands[p], self.hands[q]
            hp[give] -= 1
            hq[give] += 1
            hq[ask] -= 1
            hp[ask] += 1
        self.offer = None
        self.player = self.active
        self._to_trade(same_cards=action != ACCEPT)

    # step 4: build, until PASS
    def _on_build(self, action: int) -> None:
        if action == PASS:
            self._to_attack()
        else:
            self._build(action)

    # step 5: thief or tax collector (the attack itself is _attack)
    def _on_thief_block(self, action: int) -> None:
        seat = self.player
        self.player = self.active
        if action == BLOCK_ACT:
            self._lose(seat, PHARAOH)
            self.played |= 1 << (seat * NK + PHARAOH)
            self.blocks += 1
            self.target = None
            self._to_attack()
        else:
            self.phase = C_DIE

    def _on_die(self, action: int) -> None:
        self.roll = action
        target = self.target
        assert target is not None  # set by the thief
        seat, slot = target
        if action > len(self.pyr[seat][slot][1]):
            self.phase = STEAL if self.g.options.thief_takes == "any" else C_STEAL
        else:
            self.target = None
            self._to_attack()

    def _on_tax_block(self, action: int) -> None:
        q = self.player
        self.player = self.active
        if action == BLOCK_ACT:
            self._lose(q, PHARAOH)
            self.played |= 1 << (q * NK + PHARAOH)
            self.blocks += 1
            if self.g.options.pharaoh_blocks_each:
                del self.tax_queue[0]
            else:
                self.tax_queue.clear()
            self._next_tax()
        else:
            self.phase = C_TAX

    def _on_tax_draw(self, action: int) -> None:
        q = self.tax_queue.pop(0)
        hq = self.hands[q]
        hq[action] -= 1
        self.hand_n[q] -= 1
        self._gain(self.active, action)
        self._next_tax()

    def _on_collapse_discard(self, action: int) -> None:
        q = self.player
        self._lose(q, action - DISCARD)
        if self.hand_n[q] <= self.g.hand_limit:
            self.player = self.active
            self._to_attack()

    # step 6: hand to seven
    def _on_end_discard(self, action: int) -> None:
        p = self.player
        self._lose(p, action - DISCARD)
        if self.hand_n[p] <= self.g.hand_limit:
            self._end_turn()

    # cards in and out of hands
    def _gain(self, seat: int, kind: int) -> None:
        self.hands[seat][kind] += 1
        self.hand_n[seat] += 1

    def _lose(self, seat: int, kind: int) -> None:
        """A card from a hand to the discard pile."""
        self.hands[seat][kind] -= 1
        self.hand_n[seat] -= 1
        self.discard[kind] += 1
        self.disc_n += 1

    # draws
    def _draw(self, target: int, n: int, then: Callable[[], None]) -> None:
        self.draw_to = target
        self.draw_left = n
        self.after = then
        self._next_draw()

    def _next_draw(self) -> None:
        if self.draw_left <= 0:
            self.after()
            return
        if not self.pile_n:
            if self.disc_n:  # ours: the discard becomes the new pile
                self.pile, self.discard = self.discard, self.pile
                self.pile_n, self.disc_n = self.disc_n, 0
                self.reshuffles += 1
            else:
                if self.draw_to == DISPLAY_TARGET:  # owed to the display until there are cards again
                    self.display_owed += self.draw_left
                self.draw_left = 0
                self.after()
                return
        self.phase = C_DRAW

    def _drawn(self, kind: int) -> None:
        self.pile[kind] -= 1
        self.pile_n -= 1
        if kind == END:  # RULES: the game ends at once
            self.end_out += 1
            self._finish()
            return
        t = self.draw_to
        if t == DISPLAY_TARGET:
            self.display.append(kind)
        else:
            self.hands[t][kind] += 1
            self.hand_n[t] += 1
        self.draw_left -= 1
        self._next_draw()

    # the turn's steps
    def _start_turn(self, p: int) -> None:
        self.active = self.player = p
        self.decided = False
        self.trades = 0
        self.attacks = 0
        need = self.g.rows_to_cash[self.plateau]
        for pyr in self.pyr[p]:
            if len(pyr[1]) >= need:
                self.phase = CASH
                return
        self._to_draw()

    def _cash(self, slot: int) -> None:
        p = self.player
        pyr = self.pyr[p].pop(slot)
        v = pyramid_value(pyr)
        self.score[p] += v
        self.cashed.append(v)
        self._to_discard(pyr)
        if self.plateau < self.g.last:
            self.plateau += 1
            if self.plateau == self.g.last:  # RULES: discard, pile and End card shuffled together
                pile = self.pile
                disc = self.discard
                for k in range(NK):
                    pile[k] += disc[k]
                    disc[k] = 0
                pile[END] += 1
                self.end_out -= 1
                self.pile_n += self.disc_n + 1
                self.disc_n = 0
                self.final = True

    def _to_discard(self, pyr: tuple) -> None:
        base, rows = pyr
        disc = self.discard
        for i, r in enumerate(rows):
            j = r & 7
            disc[base + i] += (r >> 3) - j
            disc[JOKER] += j
            self.disc_n += r >> 3

    def _to_draw(self) -> None:
        # the display holds three face-up cards (Start): one that ran short while pile and
        # discard were empty is filled again before step 2, once there are cards to draw
        short = self.display_owed
        if short and (self.pile_n or self.disc_n):
            self.display_owed = 0
            self._draw(DISPLAY_TARGET, short, self._to_draw)
            return
        if self.pile_n or self.disc_n or self.display:
            self.phase = DRAW
        else:
            self._to_trade()

    def _to_trade(self, same_cards: bool = False) -> None:
        """Step 3, when a trade offer is possible: one question, "offer a trade", "no (more) trades,
        build this" or "no trades, no building" (the end of trading and the first build decided at
        once: nothing happens between them, so the player knows no less). ``same_cards``: after a
        declined offer the builds are those of the last question."""
        p = self.active
        self.player = p
        g = self.g
        if self.trades < g.trade_offers and self.hand_n[p]:
            for q, n in enumerate(self.hand_n):
                if n and q != p:
                    if not same_cards:
                        self.trade_or_build = self._builds(_PASS_YES)
                    self.phase = TRADE
                    return
        self._to_build()

    def _builds(self, head: Sequence[int] = (PASS,)) -> list[int]:
        """``head`` (``PASS``) and the active player's legal builds now."""
        p = self.player
        g = self.g
        return g.build_actions(self.hands[p], self.pyr[p], len(self.pyr[p]) < g.pyramid_caps[self.plateau], head)

    def _to_build(self) -> None:
        """Step 4 (again after each build): build or ``PASS``; skipped when nothing can be built."""
        builds = self._builds()
        if len(builds) > 1:
            self.builds = builds
            self.phase = BUILD
        else:
            self._to_attack()

    def _build(self, action: int) -> None:
        slot, v, nat, j = decode_build(action)
        p = self.player
        h = self.hands[p]
        h[v] -= nat
        h[JOKER] -= j
        self.hand_n[p] -= nat + j
        if nat:
            self.played |= 1 << (p * NK + v)
        if j:
            self.played |= 1 << (p * NK + JOKER)
        pyrs = self.pyr[p]
        add = ((nat + j) << 3) + j
        if slot == NEW:
            pyrs.append((v, (add,)))
        else:
            base, rows = pyrs[slot]
            i = v - base
            if i == len(rows):
                pyrs[slot] = (base, rows + (add,))
            else:
                pyrs[slot] = (base, rows[:i] + (rows[i] + add,) + rows[i + 1:])
        self._to_build()

    def _to_attack(self) -> None:
        p = self.active
        self.player = p
        h = self.hands[p]
        if (h[THIEF] or h[TAX]) and (self.attacks == 0 or not self.g.options.one_attack_per_turn):
            if h[TAX]:
                self.phase = ATTACK
                return
            for q, pyrs in enumerate(self.pyr):
                if q != p and pyrs:
                    self.phase = ATTACK
                    return
        self._to_end()

    def _attack(self, action: int) -> None:
        p = self.player
        if action == PASS:
            self._to_end()
            return
        self.attacks += 1
        self.attacks_made += 1
        if action == TAX_ACT:
            self._lose(p, TAX)
            self.played |= 1 << (p * NK + TAX)
            n = self.g.num_players
            self.tax_queue = [(p + i) % n for i in range(1, n)]
            self._next_tax()
            return
        self._lose(p, THIEF)
        self.played |= 1 << (p * NK + THIEF)
        q, slot = divmod(action - THIEF_ACT, 2)
        self.target = (q, slot)
        self.player = q  # always asked, Pharaoh or not, so that nobody learns who holds one
        self.phase = BLOCK

    def _steal(self, action: int) -> None:
        row, joker = divmod(action - STEAL_ACT, 2)
        target = self.target
        assert target is not None  # set by the thief
        q, slot = target
        self.target = None
        base, rows = self.pyr[q][slot]
        r = rows[row] - 8 - joker
        self._gain(self.active, JOKER if joker else base + row)
        self.thefts += 1
        n = r >> 3
        top = row == len(rows) - 1
        if n == 0 and top:
            rows = rows[:-1]
            if rows:
                self.pyr[q][slot] = (base, rows)
            else:
                del self.pyr[q][slot]
        elif n and n - (r & 7) and (top or n > rows[row + 1] >> 3):
            self.pyr[q][slot] = (base, rows[:row] + (r,) + rows[row + 1:])
        else:  # RULES: it no longer follows the rules: it collapses into its owner's hand
            self.collapses += 1
            del self.pyr[q][slot]
            hq = self.hands[q]
            rows = rows[:row] + (r,) + rows[row + 1:]
            for i, x in enumerate(rows):
                j = x & 7
                hq[base + i] += (x >> 3) - j
                hq[JOKER] += j
                self.hand_n[q] += x >> 3
            if self.hand_n[q] > self.g.hand_limit:
                self.player = q
                self.phase = LOSS_DISCARD
                return
        self._to_attack()

    def _next_tax(self) -> None:
        queue = self.tax_queue
        while queue:
            q = queue[0]
            if not self.hand_n[q]:
                del queue[0]
                continue
            self.player = q  # always asked (see _attack)
            self.phase = TAX_BLOCK
            return
        self.player = self.active
        self._to_attack()

    def _to_end(self) -> None:
        p = self.active
        self.player = p
        n = self.hand_n[p]
        limit = self.g.hand_limit
        if n > limit:
            self.phase = END_DISCARD
        elif n < limit:
            self._draw(p, limit - n, self._end_turn)
        else:
            self._end_turn()

    def _end_turn(self) -> None:
        if not self.decided:  # a turn with nothing to decide is one decision: pass (no endless loop of turns)
            self.player = self.active
            self.phase = IDLE
            return
        self.turn += 1
        self._start_turn((self.active + 1) % self.g.num_players)

    def _finish(self) -> None:
        """The End card is drawn: the standing pyramids are cashed and the game is over."""
        g = self.g
        need = g.cash_rows(self.plateau) if g.options.final_cash == "eligible" else 0
        for q, pyrs in enumerate(self.pyr):
            keep = []
            for pyr in pyrs:
                if len(pyr[1]) >= need:
                    self.score[q] += pyramid_value(pyr)
                    self.final_cashed.append((q, pyr))
                    self._to_discard(pyr)
                else:
                    keep.append(pyr)
            self.pyr[q] = keep
        self.phase = OVER
        self.player = -1
        self.draw_left = 0
        self.offer = self.target = None

    # -- text (worded by the codec) -----------------------------------------------
    def action_to_string(self, action: int) -> str:
        return action_text(self, action)

    def outcome_text(self, before: FaraoState) -> str:
        """For ``--trace``: what the step from ``before`` did: points scored, a theft, a
        collapse, a block."""
        out = [f"seat {q + 1} scores {b - a} (now {b})" for q, (a, b) in enumerate(zip(before.score, self.score))
               if b != a]
        for what, n in (("a theft", self.thefts - before.thefts), ("a collapse", self.collapses - before.collapses),
                        ("a Pharaoh blocks", self.blocks - before.blocks)):
            if n:
                out.append(what)
        return "; ".join(out)

    def __str__(self) -> str:
        return state_text(self)

    # -- constructed positions (tests, debugging) --------------------------------
    @classmethod
    def from_position(cls, game: FaraoGame, hands: Sequence[Mapping[int, int]], pyramids: Sequence[Sequence] = (),
                      display: Sequence[int] = (), discard: Mapping[int, int] | None = None, plateau: int = 1,
                      active: int = 0, scores: Sequence[int] = (), final: bool = False,
                      pile: Mapping[int, int] | None = None) -> FaraoState:
        """A position at the start of ``active``'s turn. ``hands``: per seat ``{kind: count}``;
        ``pyramids``: per seat a list of ``(base, [(cards, jokers) or cards, …])``. Every card not
        placed lies in the pile (the End card too when ``final``) unless ``pile`` is given."""
        s = cls.__new__(cls)
        n = game.num_players
        s.g = game
        s.hands = [_counted(h) for h in hands] + [[0] * NK for _ in range(n - len(hands))]
        s.hand_n = [sum(h) for h in s.hands]
        s.pyr = [[] for _ in range(n)]
        for q, pyrs in enumerate(pyramids):
            for base, rows in pyrs:
                enc = tuple(((r[0] << 3) + r[1]) if isinstance(r, tuple) else (r << 3) for r in rows)
                s.pyr[q].append((base, enc))
        s.display = list(display)
        s.display_owed = 0
        s.discard = _counted(discard or {})
        s.disc_n = sum(s.discard)
        used = s._cards_out_of_pile()
        if pile is not None:
            s.pile = _counted(pile)
        else:
            s.pile = [game.counts[k] - used[k] for k in range(NK)]
            s.pile[END] = 1 if final else 0
        for k in range(NK):
            if used[k] + s.pile[k] + (0 if k != END else (0 if final else 1)) > game.counts[k]:
                raise ValueError(f"a position uses more {KIND_NAMES[k]} cards than the game has")
        s.pile_n = sum(s.pile)
        s.score = list(scores) + [0] * (n - len(scores))
        s.plateau = plateau
        s.final = final
        s.end_out = game.counts[END] - s.pile[END]
        s.turn = 0
        s.steps = 0
        s.trades = s.attacks = 0
        s.offer = s.target = None
        s.roll = 0
        s.tax_queue = []
        s.draw_to = 0
        s.draw_left = 0
        s.after = s._no_draw_pending
        s.cashed = []
        s.final_cashed = []
        s.thefts = s.collapses = s.blocks = s.reshuffles = s.attacks_made = 0
        s.decided = True
        s.played = 0
        s.builds = _PASS_ONLY
        s.trade_or_build = _PASS_YES
        s._start_turn(active)
        return s

    def _cards_out_of_pile(self) -> list[int]:
        """Per kind, the cards in the hands, the display, the discard and the pyramids."""
        used = [0] * NK
        for h in self.hands:
            for k in range(NK):
                used[k] += h[k]
        for k in self.display:
            used[k] += 1
        for k in range(NK):
            used[k] += self.discard[k]
        for pyrs in self.pyr:
            for base, rows in pyrs:
                for i, r in enumerate(rows):
                    used[base + i] += (r >> 3) - (r & 7)
                    used[JOKER] += r & 7
        return used

    def _no_draw_pending(self) -> None:
        """What follows a draw, in a constructed position before its first draw: never called."""
        raise RuleViolation("a draw ended that was never started")


def _counted(counts: Mapping[int, int]) -> list[int]:
    """``{kind: count}`` as a list of counts per kind."""
    out = [0] * NK
    for k, c in counts.items():
        out[k] += c
    return out


_DISCARD_RUN = tuple(DISCARD + k for k in range(1, NK))  # a discard of each kind, in kind order
_PASS_YES = [PASS, YES]
_PASS_ONLY = [PASS]
_ACCEPT_DECLINE = [DECLINE, ACCEPT]
_DECLINE = [DECLINE]
_ALLOW_BLOCK = [ALLOW, BLOCK_ACT]
_ALLOW_ONLY = [ALLOW]


def _pick(counts: Sequence[int], r: int) -> int:
    """The kind of the ``r``-th card of a list of counts."""
    for k, c in enumerate(counts):
        if r < c:
            return k
        r -= c
    raise RuleViolation("a draw from an empty pile")
