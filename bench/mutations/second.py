"""The second mutation catalogue: engine bugs written from the rulebooks (shared rules texts,
EN), apart from the first catalogue (:mod:`.catalogue`) and before the checks that catch
them, as someone misreading a rule would write them.

Each bug belongs to one class of the validator's checks (issue 29): a decision whose
legal list is wrong (``legal``), play passing to the wrong seat (``turn``), a card sent
to the wrong place with the count kept (``zone``), a secret in what every seat sees
(``public``), chance that does not follow the distribution the engine declares or the
rulebook's (``chance``). Hâpy and Egypt have no pieces (only cards), so the class
"more pieces than the box holds" has none here.

``bench/mutation_score.py --catalogue second`` scores it; ``tests/validation/test_mutations.py``
requires the ones the validator catches (listed there) to stay caught.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .catalogue import Apply, Mutation
from .patcher import Patcher

SECOND: list[Mutation] = []


def mutation(game: str, kind: str, bug: str, **kw: Any) -> Callable[[Apply], Apply]:
    def register(fn: Apply) -> Apply:
        SECOND.append(Mutation(game, fn.__name__, f"[{kind}] {bug}", fn, catalogue="second", **kw))
        return fn
    return register


def _legal_wrap(p: Patcher, cls: Any, phase: int, change: Callable[[Any, list[int]], list[int]]) -> None:
    """The engine's legal list of ``phase`` changed by ``change(state, honest list)`` (and the
    random player's fast pick turned off, so that it picks from that list)."""
    def make(honest: Callable[[Any], list[int]]) -> Callable[[Any], list[int]]:
        def legal(self: Any) -> list[int]:
            out = honest(self)
            return change(self, list(out)) if self.phase == phase else out
        return legal
    p.wrap(cls, "legal_actions", make)
    p.set(cls, "legal_at", None)


def _after_step(p: Patcher, cls: Any, change: Callable[[Any, int, int, int, int], None]) -> None:
    """After each decision the engine applies: ``change(state, action, phase, player, turn)``
    with the phase, player and turn it had before the action."""
    def make(honest: Callable[[Any, int], int]) -> Callable[[Any, int], int]:
        def apply(self: Any, action: int) -> int:
            phase, player, turn = self.phase, self.player, self.turn
            honest(self, action)
            change(self, action, phase, player, turn)
            return self.current_player()
        return apply
    p.wrap(cls, "apply_action", make)


# =============================================================================== Hâpy
HAPY = dict(setup="pyramid")


def _hapy_requests(s: Any, taboo: int) -> list[int]:
    from cardgen.rules.hapy.codec import PASS, REQUEST_BASE
    n = s.g.num_players
    return [PASS] + [REQUEST_BASE + 100 * q + c for q in range(n) if q != s.player for c in range(36)
                     if not (taboo | s.rev_all) >> c & 1]


@mutation("hapy", "legal", "a request may name the requester itself as the player asked", **HAPY)
def hapy2_request_oneself(p: Patcher, gd: Any) -> None:
    from cardgen.rules.hapy import state as engine
    from cardgen.rules.hapy.codec import REQUEST_BASE

    def change(s: Any, out: list[int]) -> list[int]:
        return out + [REQUEST_BASE + 100 * s.player + c for c in range(36) if not s.rev_all >> c & 1]
    _legal_wrap(p, engine.HapyState, engine.REQUEST, change)


@mutation("hapy", "legal", "the ban read as the requester's own previous request, not the previous player's", **HAPY)
def hapy2_ban_on_own_request(p: Patcher, gd: Any) -> None:
    from cardgen.rules.hapy import state as engine
    from cardgen.rules.hapy.codec import EV_REQUEST

    def change(s: Any, out: list[int]) -> list[int]:
        own = next((ev[3] for ev in reversed(s.events) if ev[0] == EV_REQUEST and ev[1] == s.player), -1)
        return _hapy_requests(s, 1 << own if own >= 0 else 0)
    _legal_wrap(p, engine.HapyState, engine.REQUEST, change)


@mutation("hapy", "legal", "the ban covers the whole family of the previous request, not the one card", **HAPY)
def hapy2_ban_whole_family(p: Patcher, gd: Any) -> None:
    from cardgen.rules.hapy import state as engine

    def change(s: Any, out: list[int]) -> list[int]:
        last = s.last_request
        return _hapy_requests(s, 63 << (6 * (last // 6)) if last >= 0 else 0)
    _legal_wrap(p, engine.HapyState, engine.REQUEST, change)


@mutation("hapy", "legal", "with four of a family only the highest card may be kept", agents="greedy", games=40,
          **HAPY)
def hapy2_keep_only_highest(p: Patcher, gd: Any) -> None:
    from cardgen.rules.hapy import state as engine
    _legal_wrap(p, engine.HapyState, engine.KEEP, lambda s, out: [max(out)])


@mutation("hapy", "legal", "with four of a family a card of another family is offered to keep", agents="greedy",
          games=40, **HAPY)
def hapy2_keep_other_family(p: Patcher, gd: Any) -> None:
    from cardgen.rules.hapy import state as engine
    from cardgen.rules.hapy.codec import KEEP_BASE

    def change(s: Any, out: list[int]) -> list[int]:
        hand = s.hand[s.player] & ~(63 << (6 * s.keep_family))
        extra = [KEEP_BASE + c for c in range(36) if hand >> c & 1][:1]
        return out + extra
    _legal_wrap(p, engine.HapyState, engine.KEEP, change)


@mutation("hapy", "turn", "a request that finds its card lets the requester play again (ask again)", **HAPY)
def hapy2_ask_again(p: Patcher, gd: Any) -> None:
    from cardgen.rules.hapy import state as engine
    from cardgen.rules.hapy.codec import EV_REQUEST, EV_SKIP

    def change(s: Any, action: int, phase: int, player: int, turn: int) -> None:
        if phase != engine.REQUEST or s.phase == engine.OVER or s.turn != turn + 1:
            return
        events = s.events
        if events and events[-1][0] == EV_SKIP:
            events.pop()
        if any(ev[0] == EV_REQUEST and ev[1] == player and ev[4] for ev in events[-1:]):
            s.turn, s.player, s.phase = turn, player, engine.REQUEST
            s.last_request = -1
    _after_step(p, engine.HapyState, change)


@mutation("hapy", "turn", "a seat that revealed a set plays again", agents="greedy", **HAPY)
def hapy2_reveal_plays_again(p: Patcher, gd: Any) -> None:
    from cardgen.rules.hapy import state as engine
    from cardgen.rules.hapy.codec import EV_REVEAL

    def make(honest: Callable[[Any], None]) -> Callable[[Any], None]:
        def end_turn(self: Any) -> None:
            player = self.player
            honest(self)
            if self.phase != engine.OVER and any(ev[0] == EV_REVEAL and ev[1] == player for ev in self.events[-3:]):
                self.player = player
        return end_turn
    p.wrap(engine.HapyState, "_end_turn", make)


@mutation("hapy", "turn", "once the pyramid is empty the turn skips a seat", **HAPY)
def hapy2_empty_pyramid_skips(p: Patcher, gd: Any) -> None:
    from cardgen.rules.hapy import state as engine

    def change(s: Any, action: int, phase: int, player: int, turn: int) -> None:
        if s.turn == turn + 1 and not s.pyr and s.phase != engine.OVER:
            s.player = (s.player + 1) % s.g.num_players
    _after_step(p, engine.HapyState, change)


@mutation("hapy", "zone", "the card taken from the pyramid goes to the next seat's hand", **HAPY)
def hapy2_take_to_next_hand(p: Patcher, gd: Any) -> None:
    from cardgen.rules.hapy import state as engine

    def make(honest: Callable[[Any, int], int]) -> Callable[[Any, int], int]:
        def take(self: Any, action: int) -> int:
            card = self.slot_card[action]
            q = self.player
            r = (q + 1) % self.g.num_players
            out = honest(self, action)
            if self.turn % 7 == 3:  # now and then
                self.hand[q] &= ~(1 << card)
                self.hand_n[q] -= 1
                self.hand[r] |= 1 << card
                self.hand_n[r] += 1
            return out
        return take
    p.wrap(engine.HapyState, "_take", make)


@mutation("hapy", "zone", "with four of a family the lowest card is kept, not the one chosen", agents="greedy",
          games=40, **HAPY)
def hapy2_keep_lowest(p: Patcher, gd: Any) -> None:
    from cardgen.rules.hapy import state as engine
    from cardgen.rules.hapy.codec import KEEP_BASE

    def make(honest: Callable[[Any, int], None]) -> Callable[[Any, int], None]:
        def keep(self: Any, action: int) -> None:
            fam = (self.hand[self.player] >> (6 * self.keep_family)) & 63
            low = (fam & -fam).bit_length() - 1
            honest(self, KEEP_BASE + 6 * self.keep_family + low)
        return keep
    p.wrap(engine.HapyState, "_keep", make)


@mutation("hapy", "zone", "a requested card goes among the requester's revealed cards, not into its hand", **HAPY)
def hapy2_request_to_revealed(p: Patcher, gd: Any) -> None:
    from cardgen.rules.hapy import state as engine

    def transfer(self: Any, card: int, giver: int, taker: int) -> None:
        bit = 1 << card
        self.hand[giver] &= ~bit
        self.hand_n[giver] -= 1
        self.rev[taker] |= bit
        self.rev_all |= bit
    p.set(engine.HapyState, "_transfer", transfer)


@mutation("hapy", "public", "the public log names the card of a Mummy-side take", **HAPY)
def hapy2_log_mummy_take(p: Patcher, gd: Any) -> None:
    from cardgen.rules.hapy import state as engine

    def make(honest: Callable[[Any, int], int]) -> Callable[[Any, int], int]:
        def take(self: Any, action: int) -> int:
            card = self.slot_card[action]
            out = honest(self, action)
            ev = self.events[-1]
            self.events[-1] = (*ev[:3], card)
            return out
        return take
    p.wrap(engine.HapyState, "_take", make)


@mutation("hapy", "public", "revealing three of four, the log lists the kept card too", agents="greedy", games=40,
          **HAPY)
def hapy2_log_kept_card(p: Patcher, gd: Any) -> None:
    from cardgen.rules.hapy import state as engine
    from cardgen.rules.hapy.codec import EV_REVEAL, KEEP_BASE

    def make(honest: Callable[[Any, int], None]) -> Callable[[Any, int], None]:
        def keep(self: Any, action: int) -> None:
            at = len(self.events)
            honest(self, action)
            for i in range(at, len(self.events)):
                ev = self.events[i]
                if ev[0] == EV_REVEAL:
                    self.events[i] = (ev[0], ev[1], tuple(sorted((*ev[2], action - KEEP_BASE))))
                    break
        return keep
    p.wrap(engine.HapyState, "_keep", make)


@mutation("hapy", "public", "a refused request is logged with the cards of that family the player asked holds",
          **HAPY)
def hapy2_log_refusal_hint(p: Patcher, gd: Any) -> None:
    from cardgen.rules.hapy import state as engine
    from cardgen.rules.hapy.codec import EV_REQUEST

    def change(s: Any, action: int, phase: int, player: int, turn: int) -> None:
        for i in range(len(s.events) - 1, max(-1, len(s.events) - 4), -1):
            ev = s.events[i]
            if ev[0] == EV_REQUEST and len(ev) == 5 and not ev[4] and ev[1] == player and phase == engine.REQUEST:
                fam = ev[3] // 6
                s.events[i] = (*ev, (s.hand[ev[2]] >> (6 * fam)) & 63)
                break
    _after_step(p, engine.HapyState, change)


def _hapy_deal(p: Patcher, pick: Callable[[Any, list[int], float], int]) -> None:
    """The deal drawn card by card with ``pick(state, candidates, rng.random())`` (both the
    one-by-one draw and the whole-deal fast path)."""
    from cardgen.rules.hapy import state as engine

    def sample(self: Any, rng: Any) -> int:
        return pick(self, self._deal_candidates(), rng.random())

    def run(self: Any, rng: Any) -> list[int]:
        out = []
        while self.phase == engine.DEAL:
            card = pick(self, list(self._deal_candidates()), rng.random())
            self.apply_action(card)
            out.append(card)
        return out
    p.set(engine.HapyState, "sample_chance", sample)
    p.set(engine.HapyState, "apply_chance_run", run)


@mutation("hapy", "chance", "the deal's draw is off by one: the last card left is never drawn until it is alone",
          games=100, pooled=True, **HAPY)
def hapy2_deal_off_by_one(p: Patcher, gd: Any) -> None:
    _hapy_deal(p, lambda s, cands, u: cands[int(u * (len(cands) - 1))] if len(cands) > 1 else cands[0])


@mutation("hapy", "chance", "the God-side places are dealt the lowest card left (only the Mummy side shuffled)",
          games=100, pooled=True, **HAPY)
def hapy2_god_side_in_order(p: Patcher, gd: Any) -> None:
    def pick(s: Any, cands: list[int], u: float) -> int:
        if s.g.face_up[s.g.deal_order[s.deal_k]]:
            return min(cands)
        return cands[int(u * len(cands))]
    _hapy_deal(p, pick)


@mutation("hapy", "chance", "the deal declares every card at each place, dealt ones included", games=20, pooled=True,
          **HAPY)
def hapy2_declares_dealt_cards(p: Patcher, gd: Any) -> None:
    from cardgen.rules.hapy import state as engine

    def make(honest: Callable[[Any], list]) -> Callable[[Any], list]:
        def outcomes(self: Any) -> list:
            if self.phase != engine.DEAL:
                return honest(self)
            return [(c, 1 / 36) for c in range(36)]
        return outcomes
    p.wrap(engine.HapyState, "chance_outcomes", make)


# =============================================================================== Egypt
@mutation("egypt", "legal", "the controller may name itself as the player to take a card from", players=3)
def egypt2_victim_self(p: Patcher, gd: Any) -> None:
    from cardgen.rules.egypt import state as engine
    from cardgen.rules.egypt.codec import VICTIM_BASE
    _legal_wrap(p, engine.EgyptState, engine.VICTIM, lambda s, out: sorted(out + [VICTIM_BASE + s.player]))


@mutation("egypt", "legal", "the controller may not take from the seat it took from last turn", players=4,
          games=20)
def egypt2_victim_not_again(p: Patcher, gd: Any) -> None:
    from cardgen.rules.egypt import state as engine
    from cardgen.rules.egypt.codec import VICTIM_BASE
    from cardgen.rules.egypt.spec import EV_STEAL

    def change(s: Any, out: list[int]) -> list[int]:
        last = next((ev[2] for ev in reversed(s.events) if ev[0] == EV_STEAL and ev[1] == s.player), -1)
        left = [a for a in out if a != VICTIM_BASE + last]
        return left or out
    _legal_wrap(p, engine.EgyptState, engine.VICTIM, change)


@mutation("egypt", "legal", "the End phase requires at least one discard ('may' read as 'must')", games=10)
def egypt2_must_discard(p: Patcher, gd: Any) -> None:
    from cardgen.rules.egypt import state as engine
    from cardgen.rules.egypt.codec import DISCARD_BASE
    _legal_wrap(p, engine.EgyptState, engine.DISCARD,
                lambda s, out: [a for a in out if a != DISCARD_BASE] if len(out) > 1 else out)


@mutation("egypt", "legal", "'up to 3' and 'down to 5' added: four cards may go from a hand of six to eight",
          games=10)
def egypt2_discard_four(p: Patcher, gd: Any) -> None:
    from cardgen.rules.egypt import state as engine
    from cardgen.rules.egypt.bits import mask_cards
    from cardgen.rules.egypt.codec import discard_action

    def change(s: Any, out: list[int]) -> list[int]:
        size = s.hand_n[s.player]
        if 6 <= size <= 8:
            four = discard_action(sorted(c // 7 for c in mask_cards(s.hand[s.player])[:4]))
            if four not in out:
                out.append(four)
        return out
    _legal_wrap(p, engine.EgyptState, engine.DISCARD, change)


@mutation("egypt", "legal", "a single card is offered as a meld to reveal ('2 or more' missed)", games=10)
def egypt2_reveal_single_card(p: Patcher, gd: Any) -> None:
    from cardgen.rules.egypt import state as engine
    from cardgen.rules.egypt.codec import MELD

    def change(s: Any, out: list[int]) -> list[int]:
        hand = s.hand[s.player]
        t = next(t for t in range(8) if (hand >> (8 * t)) & 255 or t == 7)
        return out + [MELD + 100 * t + 10]
    _legal_wrap(p, engine.EgyptState, engine.CONTROL, change)


@mutation("egypt", "legal", "the controller may not pass while it can play a meld", agents="greedy", games=10)
def egypt2_dynasty_no_pass(p: Patcher, gd: Any) -> None:
    from cardgen.rules.egypt import state as engine
    from cardgen.rules.egypt.codec import PASS
    _legal_wrap(p, engine.EgyptState, engine.DYNASTY, lambda s, out: [a for a in out if a != PASS] or out)


@mutation("egypt", "legal", "a seat holding a meld must reveal one (the choice not to is missing)", games=10)
def egypt2_reveal_no_pass(p: Patcher, gd: Any) -> None:
    from cardgen.rules.egypt import state as engine
    from cardgen.rules.egypt.codec import PASS
    _legal_wrap(p, engine.EgyptState, engine.CONTROL, lambda s, out: [a for a in out if a != PASS] or out)


def _skip_seat(p: Patcher, phase_of: Callable[[Any], bool], skip: Callable[[Any], None]) -> None:
    from cardgen.rules.egypt import state as engine

    def make(honest: Callable[..., Any]) -> Callable[..., Any]:
        def step(self: Any, *args: Any) -> Any:
            out = honest(self, *args)
            while phase_of(self):
                skip(self)
            return self.current_player() if args else out
        return step
    for name in ("apply_action", "_next_discard", "_next_reveal", "apply_chance_run"):
        if name == "apply_chance_run":
            def chance(honest: Callable[..., Any]) -> Callable[..., Any]:
                def run(self: Any, rng: Any) -> list[int]:
                    out = honest(self, rng)
                    while phase_of(self):
                        skip(self)
                    return out
                return run
            p.wrap(engine.EgyptState, name, chance)
        else:
            p.wrap(engine.EgyptState, name, make)


@mutation("egypt", "turn", "the controller, having played, does not take part in the End phase", agents="greedy",
          games=10)
def egypt2_controller_skips_end(p: Patcher, gd: Any) -> None:
    from cardgen.rules.egypt import state as engine
    from cardgen.rules.egypt.moves import discard_actions

    def skip(s: Any) -> None:
        q = s.player + 1
        n = s.g.num_players
        while q < n and not s.hand_n[q]:
            q += 1
        if q < n:
            s.player = q
            s.legal = discard_actions(s.sig[q])
        else:
            s._end_turn()
    _skip_seat(p, lambda s: s.phase == engine.DISCARD and s.player == s.controller >= 0, skip)


@mutation("egypt", "turn", "the seat in control is not asked to reveal in the next Control phase", agents="greedy",
          games=10)
def egypt2_controller_skips_control(p: Patcher, gd: Any) -> None:
    from cardgen.rules.egypt import state as engine
    from cardgen.rules.egypt.codec import PASS

    def skip(s: Any) -> None:
        s.pending[s.player] = PASS
        s._next_reveal()
    _skip_seat(p, lambda s: s.phase == engine.CONTROL and s.player == s.controller >= 0, skip)


@mutation("egypt", "turn", "the Dynasty phase is played by the seat after the controller", agents="greedy", games=5)
def egypt2_dynasty_next_seat(p: Patcher, gd: Any) -> None:
    from cardgen.rules.egypt import state as engine

    def make(honest: Callable[[Any], None]) -> Callable[[Any], None]:
        def choice(self: Any) -> None:
            self.player = (self.controller + 1) % self.g.num_players
            honest(self)
        return choice
    p.wrap(engine.EgyptState, "_dynasty_choice", make)


@mutation("egypt", "zone", "the End phase's discards go back into the deck, not onto the discard pile", games=10)
def egypt2_discards_to_deck(p: Patcher, gd: Any) -> None:
    from cardgen.rules.egypt import state as engine
    from cardgen.rules.egypt.bits import mask_cards

    def make(honest: Callable[[Any, int], None]) -> Callable[[Any, int], None]:
        def discard(self: Any, action: int) -> None:
            old = self.discard
            honest(self, action)
            moved = self.discard & ~old
            self.discard &= ~moved
            self.deck.extend(mask_cards(moved))
        return discard
    p.wrap(engine.EgyptState, "_discard", make)


@mutation("egypt", "zone", "melds played in the Dynasty phase go to the discard at once, not on the table",
          agents="greedy", games=10)
def egypt2_melds_straight_to_discard(p: Patcher, gd: Any) -> None:
    from cardgen.rules.egypt import state as engine

    def make(honest: Callable[[Any, int], None]) -> Callable[[Any, int], None]:
        def play(self: Any, action: int) -> None:
            honest(self, action)
            self.discard |= self.table
            self.table = 0
        return play
    p.wrap(engine.EgyptState, "_play", make)


@mutation("egypt", "zone", "the card taken in the Dynasty phase lands on the table, not in the controller's hand",
          agents="greedy", games=10)
def egypt2_stolen_to_table(p: Patcher, gd: Any) -> None:
    from cardgen.rules.egypt import state as engine
    from cardgen.rules.egypt.bits import CBIT, CSIG

    def make(honest: Callable[[Any, int], None]) -> Callable[[Any, int], None]:
        def steal(self: Any, card: int) -> None:
            honest(self, card)
            c = self.controller
            if self.hand[c] & CBIT[card]:
                self.hand[c] &= ~CBIT[card]
                self.sig[c] -= CSIG[card]
                self.hand_n[c] -= 1
                self.table |= CBIT[card]
        return steal
    p.wrap(engine.EgyptState, "_steal", make)


@mutation("egypt", "public", "the public log names the card the controller takes", agents="greedy", games=5)
def egypt2_log_stolen_card(p: Patcher, gd: Any) -> None:
    from cardgen.rules.egypt import state as engine

    def make(honest: Callable[[Any, int], None]) -> Callable[[Any, int], None]:
        def steal(self: Any, card: int) -> None:
            at = len(self.events)
            honest(self, card)
            self.events[at] = (*self.events[at], card)
        return steal
    p.wrap(engine.EgyptState, "_steal", make)


@mutation("egypt", "public", "each reveal is logged as it is chosen, before every seat has chosen", games=5)
def egypt2_log_reveals_early(p: Patcher, gd: Any) -> None:
    from cardgen.rules.egypt import state as engine
    from cardgen.rules.egypt.spec import EV_REVEAL

    def change(s: Any, action: int, phase: int, player: int, turn: int) -> None:
        if phase == engine.CONTROL and s.phase == engine.CONTROL:
            s.events.append((EV_REVEAL, tuple(s.pending)))
    _after_step(p, engine.EgyptState, change)


@mutation("egypt", "public", "a reshuffle logs the cards of the new deck", agents="greedy", games=10)
def egypt2_log_reshuffled_deck(p: Patcher, gd: Any) -> None:
    from cardgen.rules.egypt import state as engine
    from cardgen.rules.egypt.spec import EV_RESHUFFLE

    def make(honest: Callable[[Any], None]) -> Callable[[Any], None]:
        def next_draw(self: Any) -> None:
            at = len(self.events)
            honest(self)
            for i in range(at, len(self.events)):
                if self.events[i][0] == EV_RESHUFFLE:
                    self.events[i] = (EV_RESHUFFLE, tuple(sorted(self.deck)))
        return next_draw
    p.wrap(engine.EgyptState, "_next_draw", make)


def _egypt_chance(p: Patcher, draw: Callable[[Any, float], int], steal: Callable[[Any, float], int]) -> None:
    """Chance drawn step by step with ``draw(state, rng.random())`` in the Draw phase and
    ``steal(state, rng.random())`` for the card the controller takes."""
    from cardgen.rules.egypt import state as engine

    def pick(s: Any, u: float) -> int:
        return draw(s, u) if s.phase == engine.DRAW else steal(s, u)

    def run(self: Any, rng: Any) -> list[int]:
        out = []
        while self.phase in (engine.DRAW, engine.STEAL):
            card = pick(self, rng.random())
            self.apply_action(card)
            out.append(card)
        return out
    p.set(engine.EgyptState, "sample_chance", lambda self, rng: pick(self, rng.random()))
    p.set(engine.EgyptState, "apply_chance_run", run)


def _fair_draw(s: Any, u: float) -> int:
    return s.deck[int(u * len(s.deck))]


def _fair_steal(s: Any, u: float) -> int:
    from cardgen.rules.egypt.bits import kth_card
    return kth_card(s.hand[s.victim], int(u * s.hand_n[s.victim]))


@mutation("egypt", "chance", "every draw takes the top card of a deck that was never shuffled", games=100,
          pooled=True)
def egypt2_draw_top_card(p: Patcher, gd: Any) -> None:
    _egypt_chance(p, lambda s, u: s.deck[-1], _fair_steal)


@mutation("egypt", "chance", "the card the controller takes is the victim's lowest, not a random one", games=100,
          pooled=True, agents="greedy")
def egypt2_steal_lowest(p: Patcher, gd: Any) -> None:
    from cardgen.rules.egypt.bits import kth_card
    _egypt_chance(p, _fair_draw, lambda s, u: kth_card(s.hand[s.victim], 0))


@mutation("egypt", "chance", "the Draw phase declares the discard pile's cards among the draws", games=20,
          pooled=True)
def egypt2_declares_discard(p: Patcher, gd: Any) -> None:
    from cardgen.rules.egypt import state as engine
    from cardgen.rules.egypt.bits import mask_cards

    def make(honest: Callable[[Any], list]) -> Callable[[Any], list]:
        def outcomes(self: Any) -> list:
            if self.phase != engine.DRAW or not self.discard:
                return honest(self)
            cards = sorted(self.deck + mask_cards(self.discard))
            return [(c, 1 / len(cards)) for c in cards]
        return outcomes
    p.wrap(engine.EgyptState, "chance_outcomes", make)
