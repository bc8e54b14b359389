"""The second catalogue, Horus and O, Farao!: engine bugs written from the rulebooks
(``horus-rules-en.txt``, ``o-farao-regels-nl.txt``), apart from the first catalogue and
before the checks that catch them (issue 29), in the classes the first one missed: a
decision's legal list wrong (a choice missing or one too many), the wrong seat next, a
card or tile sent to the wrong place with the counts kept, a secret in what every seat
sees, biased chance, more pieces than the box holds.

Registered with :func:`.catalogue.mutation` and marked ``catalogue="second"``; importing
:mod:`.catalogue` imports this module too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .catalogue import mutation
from .patcher import Patcher


def _filter_legal(p: Patcher, cls: Any, drop: Callable[[Any, int], bool]) -> None:
    """The engine's legal list without the actions ``drop(state, action)`` names."""
    def make(honest):
        def legal_actions(self):
            out = honest(self)
            return [a for a in out if not drop(self, a)]
        return legal_actions
    p.wrap(cls, "legal_actions", make)


class _Biased:
    """A random source that favours small numbers (u² for u uniform): every draw it decides
    leans to the front of the list it picks from, while the engine declares them uniform."""

    def __init__(self, rng: Any):
        self.rng = rng

    def random(self) -> float:
        u = self.rng.random()
        return u * u


def _biased_chance(p: Patcher, cls: Any) -> None:
    def make(honest):
        def run(self, rng):
            return honest(self, _Biased(rng))
        return run
    p.wrap(cls, "apply_chance_run", make)

    def make_one(honest):
        def sample(self, rng):
            return honest(self, _Biased(rng))
        return sample
    p.wrap(cls, "sample_chance", make_one)


# ==================================================================================== Horus
# -- a decision's legal list ----------------------------------------------------------------
@mutation("horus", "Action 3: a '?' card's stack choice never offers the River / Necropolis stack (the rulebook:"
          " any stack, River / Necropolis included)", agents="random", games=20, catalogue="second")
def horus2_any_card_no_river_stack(p: Patcher, gd: Any) -> None:
    from cardgen.rules.horus import state as engine

    _filter_legal(p, engine.HorusState, lambda s, a: s.phase == engine.P_STACK
                  and a == engine.STACK_BASE + s.g.river_stack)


@mutation("horus", "a Necropolis is offered only next to the River (the rulebook: Necropolis tiles follow the"
          " placement rules of other tiles)", agents="random", games=20, catalogue="second")
def horus2_necropolis_only_by_the_river(p: Patcher, gd: Any) -> None:
    from cardgen.rules.horus import state as engine
    from cardgen.rules.horus.codec import KIND_MASK, NECRO_BASE

    _filter_legal(p, engine.HorusState, lambda s, a: s.phase == engine.P_RN and a & ~KIND_MASK == NECRO_BASE
                  and (a & KIND_MASK) not in s.adj_water)


@mutation("horus", "a River / Necropolis tile from the stack never replaces a Boat (the rulebook: River side up it"
          " may replace a Boat tile)", agents="random", games=20, catalogue="second")
def horus2_stack_river_never_moves_a_boat(p: Patcher, gd: Any) -> None:
    from cardgen.rules.horus import state as engine
    from cardgen.rules.horus.codec import BOAT_BASE, KIND_MASK

    _filter_legal(p, engine.HorusState, lambda s, a: s.phase == engine.P_RN and a & ~KIND_MASK == BOAT_BASE)


@mutation("horus", "the Nile card moves only stones standing on a tile that touches the River (the rulebook: from"
          " any tile of a region bordering the River)", agents="random", games=20, catalogue="second")
def horus2_nile_source_must_touch(p: Patcher, gd: Any) -> None:
    from cardgen.rules.horus import state as engine
    from cardgen.rules.horus.codec import KIND_MASK

    _filter_legal(p, engine.HorusState, lambda s, a: s.phase == engine.P_FROM and (a & KIND_MASK) not in s.adj_water)


@mutation("horus", "the Nile card moves a stone only onto a tile touching the River (the rulebook: the tile need"
          " not touch it)", agents="random", games=20, catalogue="second")
def horus2_nile_target_must_touch(p: Patcher, gd: Any) -> None:
    from cardgen.rules.horus import state as engine
    from cardgen.rules.horus.codec import KIND_MASK

    _filter_legal(p, engine.HorusState, lambda s, a: s.phase == engine.P_TO and (a & KIND_MASK) not in s.adj_water
                  and len(engine.HorusState.nile_targets(s, s.move_from)) > 1)


@mutation("horus", "the Nile card offers the other seats' stones too (a rule applied to the wrong seat)",
          agents="random", games=20, catalogue="second")
def horus2_nile_moves_any_seats_stone(p: Patcher, gd: Any) -> None:
    from cardgen.rules.horus import state as engine
    from cardgen.rules.horus.codec import FROM_BASE

    def sources(self):
        river = {rid for rid in self.reg_members if self.touches_water(rid)}
        target = {rid: any(m not in self.stone_at for m in self.reg_members[rid]) for rid in river}
        return sorted(FROM_BASE + self.pos[slot] for slot in self.stone_at
                      if self.reg[slot] in river and any(target[r] for r in river if r != self.reg[slot]))
    p.set(engine.HorusState, "nile_sources", sources)


@mutation("horus", "a card with '?' in the corners offers regions of 1 to 4 tiles (the rulebook: 1, 2, 3, 4 or 5)",
          agents="random", games=20, catalogue="second")
def horus2_any_size_stops_at_four(p: Patcher, gd: Any) -> None:
    p.set(gd, "max_size", 4)


@mutation("horus", "the Temple is offered places touching region tiles (the rulebook: it may touch neither a region"
          " nor a Necropolis tile)", agents="random", games=20, catalogue="second")
def horus2_temple_next_to_regions(p: Patcher, gd: Any) -> None:
    from cardgen.rules.horus import state as engine
    from cardgen.rules.horus.spec import TEMPLE

    def make(honest):
        def place_options(self, face):
            if face == TEMPLE:
                cands = self.frontier & self.adj_water.keys()
                bad = self._blocked_places(cands, False)
                return sorted(cands - bad)
            return honest(self, face)
        return place_options
    p.wrap(engine.HorusState, "place_options", make)


@mutation("horus", "no tile is offered a place touching the Temple (the rulebook: tiles may be placed next to it"
          " later)", agents="random", games=20, catalogue="second")
def horus2_nothing_next_to_the_temple(p: Patcher, gd: Any) -> None:
    from cardgen.rules.horus import state as engine
    from cardgen.rules.horus.codec import KIND_MASK
    from cardgen.rules.horus.geometry import NBR
    from cardgen.rules.horus.spec import TEMPLE

    def near_temple(s, a):
        if s.phase not in (engine.P_PLACE, engine.P_RN, engine.P_RIVERPLACE):
            return False
        c = a & KIND_MASK
        return any(s.at.get(c + d) is not None and s.kind[s.at[c + d]] == TEMPLE for d in NBR)
    _filter_legal(p, engine.HorusState, near_temple)


# -- whose turn ---------------------------------------------------------------------------
@mutation("horus", "play passes to the right (the rulebook: the player to the left takes the next turn)",
          agents="greedy", players=3, games=5, catalogue="second")
def horus2_turns_pass_right(p: Patcher, gd: Any) -> None:
    from cardgen.rules.horus import state as engine

    def make(honest):
        def end_turn(self):
            before = self.player
            honest(self)
            if self.phase != engine.P_OVER and self.player != before:
                self.player = (before - 1) % self.g.num_players
        return end_turn
    p.wrap(engine.HorusState, "_end_turn", make)


@mutation("horus", "a seat that plays its Nile card takes another turn at once", agents="random", players=3,
          games=20, catalogue="second")
def horus2_nile_extra_turn(p: Patcher, gd: Any) -> None:
    from cardgen.rules.horus import state as engine

    def make(honest):
        def end_turn(self):
            before = self.player
            nile = self.card == -2
            honest(self)
            if nile and self.phase != engine.P_OVER:
                self.player = before
        return end_turn
    p.wrap(engine.HorusState, "_end_turn", make)


# -- where every card and tile is ---------------------------------------------------------
@mutation("horus", "a played Horus card goes back into the draw pile, not onto the discard", agents="greedy",
          games=5, catalogue="second")
def horus2_played_card_to_the_deck(p: Patcher, gd: Any) -> None:
    from cardgen.rules.horus import state as engine

    def make(honest):
        def play(self, action):
            honest(self, action)
            if self.card >= 0 and self.discard:
                self.deck.append(self.discard.pop())
        return play
    p.wrap(engine.HorusState, "_play_card", make)


@mutation("horus", "the cards of a depleted stack go from the hands into the draw pile (the rulebook: discarded)",
          agents="greedy", games=10, catalogue="second")
def horus2_depleted_cards_to_the_deck(p: Patcher, gd: Any) -> None:
    from cardgen.rules.horus import state as engine

    def make(honest):
        def depleted(self, s):
            before = len(self.discard)
            honest(self, s)
            moved = self.discard[before:]
            del self.discard[before:]
            self.deck.extend(moved)
        return depleted
    p.wrap(engine.HorusState, "_depleted", make)


@mutation("horus", "a hand refills with the top card of the discard pile while the draw pile still has cards",
          agents="greedy", games=5, catalogue="second")
def horus2_refill_from_the_discard(p: Patcher, gd: Any) -> None:
    from cardgen.rules.horus import state as engine

    def make(honest):
        def drew(self, c):
            if self.discard and self._usable(self.discard[-1]) and self._usable(c):
                top = self.discard.pop()
                self.discard.append(c)
                c = top
            honest(self, c)
        return drew
    p.wrap(engine.HorusState, "_drew", make)


@mutation("horus", "a Temple without a place goes back into the bag (the rulebook: it is removed from the game)",
          agents="random", games=20, catalogue="second")
def horus2_temple_back_in_the_bag(p: Patcher, gd: Any) -> None:
    from cardgen.rules.horus import state as engine

    def make(honest):
        def step_place(self, step):
            out = honest(self, step)
            if self.temple_removed and self.removed:
                self.bag.append(self.removed.pop())
                self.temple_removed = False
            return out
        return step_place
    p.wrap(engine.HorusState, "_step_place", make)


# -- pieces of the box ---------------------------------------------------------------------
@mutation("horus", "every seat has 24 Kingdom Stones (the box: 20 of each colour)", agents="greedy", players=2,
          games=5, catalogue="second")
def horus2_stones_twenty_four(p: Patcher, gd: Any) -> None:
    p.set(gd, "stones_each", [24] * gd.num_players)


# -- what every seat sees ------------------------------------------------------------------
@mutation("horus", "a leaked secret: at Action 2 the public board's card shows the first card of the seat's hand",
          agents="greedy", games=3, catalogue="second")
def horus2_public_board_shows_a_hand_card(p: Patcher, gd: Any) -> None:
    from cardgen.rules.horus import state as engine

    def make(honest):
        def public_board(self):
            board = honest(self)
            if self.phase == engine.P_CARD and self.hands[self.player]:
                board = board._replace(card=self.g.card_of[self.hands[self.player][0]])
            return board
        return public_board
    p.wrap(engine.HorusState, "_public_board", make)


@mutation("horus", "a leaked secret: the step's outcome text names the Horus cards the seat keeps",
          agents="greedy", games=3, catalogue="second")
def horus2_outcome_names_the_hand(p: Patcher, gd: Any) -> None:
    from cardgen.rules.horus import state as engine

    def make(honest):
        def outcome(self, before):
            said = honest(self, before)
            if before.phase == engine.P_CARD and self.player >= 0:
                kept = ", ".join(self.g.card_name(self.g.card_of[c]) for c in self.hands[self.player])
                said = (said + "; " if said else "") + f"seat {self.player + 1} keeps {kept}"
            return said
        return outcome
    p.wrap(engine.HorusState, "outcome_text", make)


# -- chance --------------------------------------------------------------------------------
@mutation("horus", "biased chance: bag tiles and Horus cards drawn lean to the front of the bag and the pile,"
          " declared uniform", agents="random", games=25, catalogue="second", pooled=True)
def horus2_biased_draws(p: Patcher, gd: Any) -> None:
    from cardgen.rules.horus import state as engine

    _biased_chance(p, engine.HorusState)


# ================================================================================ O, Farao!
# -- a decision's legal list ----------------------------------------------------------------
@mutation("farao", "3. trade offers go to the next seat only (the rulebook: with fellow players)", agents="random",
          games=10, catalogue="second")
def farao2_trade_with_the_next_seat_only(p: Patcher, gd: Any) -> None:
    from cardgen.rules.farao.codec import decode_trade

    def make(honest):
        def offers(p_, hand, hand_n):
            n = gd.num_players
            return [a for a in honest(p_, hand, hand_n) if decode_trade(a)[0] == (p_ + 1) % n]
        return offers
    p.wrap(gd, "offers", make)


@mutation("farao", "3. a trade offer may ask for the End card (not a card anyone may hold)", agents="random",
          games=10, catalogue="second")
def farao2_trade_asks_for_the_end_card(p: Patcher, gd: Any) -> None:
    from cardgen.rules.farao.codec import decode_trade, trade_action
    from cardgen.rules.farao.spec import END

    def make(honest):
        def offers(p_, hand, hand_n):
            out = list(honest(p_, hand, hand_n))
            extra = {trade_action(q, g, END) for q, g, _ in map(decode_trade, out)}
            return out + sorted(extra - set(out))
        return offers
    p.wrap(gd, "offers", make)


@mutation("farao", "3. the partner may not accept when it holds only one card of the kind asked", agents="random",
          games=10, catalogue="second")
def farao2_reply_needs_two(p: Patcher, gd: Any) -> None:
    from cardgen.rules.farao import state as engine
    from cardgen.rules.farao.codec import ACCEPT

    _filter_legal(p, engine.FaraoState, lambda s, a: s.phase == engine.TRADE_REPLY and a == ACCEPT
                  and s.hands[s.player][s.offer[2]] < 2)


@mutation("farao", "5. a Pharaoh blocks a thief only, never the tax collector (the rulebook: both)",
          agents="random", games=20, catalogue="second")
def farao2_tax_collector_not_blockable(p: Patcher, gd: Any) -> None:
    from cardgen.rules.farao import state as engine
    from cardgen.rules.farao.codec import BLOCK_ACT

    _filter_legal(p, engine.FaraoState, lambda s, a: s.phase == engine.TAX_BLOCK and a == BLOCK_ACT)


@mutation("farao", "5. a thief is sent only against a seat's first pyramid", agents="random", games=20,
          catalogue="second")
def farao2_thief_first_pyramid_only(p: Patcher, gd: Any) -> None:
    from cardgen.rules.farao import state as engine
    from cardgen.rules.farao.codec import THIEF_ACT

    _filter_legal(p, engine.FaraoState, lambda s, a: s.phase == engine.ATTACK and THIEF_ACT <= a < THIEF_ACT + 30
                  and (a - THIEF_ACT) % 2 == 1)


@mutation("farao", "6. a Thief or a Tax collector may not be discarded down to seven", agents="random", games=20,
          catalogue="second")
def farao2_no_discarding_attackers(p: Patcher, gd: Any) -> None:
    from cardgen.rules.farao import state as engine
    from cardgen.rules.farao.codec import DISCARD
    from cardgen.rules.farao.spec import TAX, THIEF

    def make(honest):
        def legal_actions(self):
            out = honest(self)
            if self.phase == engine.END_DISCARD:
                kept = [a for a in out if a not in (DISCARD + THIEF, DISCARD + TAX)]
                return kept or out
            return out
        return legal_actions
    p.wrap(engine.FaraoState, "legal_actions", make)


@mutation("farao", "4. no new pyramid while an own pyramid stands, even from the first special plateau on",
          agents="greedy", games=10, catalogue="second")
def farao2_second_pyramid_never_offered(p: Patcher, gd: Any) -> None:
    p.set(gd, "pyramid_caps", tuple(1 for _ in gd.pyramid_caps))


# -- whose turn ---------------------------------------------------------------------------
@mutation("farao", "5. the tax collector's Pharaoh question goes to the active player, not the seat robbed",
          agents="random", games=20, catalogue="second")
def farao2_tax_question_to_the_active(p: Patcher, gd: Any) -> None:
    from cardgen.rules.farao import state as engine

    def make(honest):
        def next_tax(self):
            honest(self)
            if self.phase == engine.TAX_BLOCK:
                self.player = self.active
        return next_tax
    p.wrap(engine.FaraoState, "_next_tax", make)


@mutation("farao", "a seat that cashes a pyramid plays again (the rulebook: play goes clockwise)", agents="greedy",
          games=5, catalogue="second")
def farao2_cash_gives_another_turn(p: Patcher, gd: Any) -> None:
    from cardgen.rules.farao import state as engine

    cashes_at_start: dict[int, int] = {}  # id of a game's state -> its cashes when the last turn began

    def make(honest):
        def start_turn(self, seat):
            if self.turn and len(self.cashed) > cashes_at_start.get(id(self), 0):
                seat = (seat - 1) % self.g.num_players
            cashes_at_start[id(self)] = len(self.cashed)
            honest(self, seat)
        return start_turn
    p.wrap(engine.FaraoState, "_start_turn", make)


# -- where every card is -------------------------------------------------------------------
@mutation("farao", "2. a card taken from the display goes to the discard and the hand gets the pile's top card"
          " instead (counts kept)", agents="greedy", games=10, catalogue="second")
def farao2_display_take_to_the_discard(p: Patcher, gd: Any) -> None:
    from cardgen.rules.farao import state as engine
    from cardgen.rules.farao.codec import PILE

    def make(honest):
        def on_draw(self, action):
            if action == PILE or not self.pile_n:
                return honest(self, action)
            k = action - engine.TAKE
            self.display.remove(k)
            self.discard[k] += 1
            self.disc_n += 1
            self._draw(engine.DISPLAY_TARGET, 1, lambda: self._draw(self.player, 1, self._to_trade))
        return on_draw
    p.wrap(engine.FaraoState, "_on_draw", make)


@mutation("farao", "1. a cashed pyramid's cards go back into the draw pile (the rulebook: taken away)",
          agents="greedy", games=5, catalogue="second")
def farao2_cashed_cards_to_the_pile(p: Patcher, gd: Any) -> None:
    from cardgen.rules.farao import state as engine

    def make(honest):
        def to_discard(self, pyr):
            if self.phase == engine.OVER or self.phase == engine.C_DRAW:
                return honest(self, pyr)
            before = self.discard[:]
            honest(self, pyr)
            for k, c in enumerate(self.discard):
                self.pile[k] += c - before[k]
                self.pile_n += c - before[k]
                self.disc_n -= c - before[k]
            self.discard[:] = before
        return to_discard
    p.wrap(engine.FaraoState, "_to_discard", make)


@mutation("farao", "6. cards discarded down to seven go into the draw pile, not onto the discard", agents="greedy",
          games=10, catalogue="second")
def farao2_end_discards_to_the_pile(p: Patcher, gd: Any) -> None:
    from cardgen.rules.farao import state as engine
    from cardgen.rules.farao.codec import DISCARD

    def make(honest):
        def on_end_discard(self, action):
            k = action - DISCARD
            honest(self, action)
            self.discard[k] -= 1
            self.disc_n -= 1
            self.pile[k] += 1
            self.pile_n += 1
        return on_end_discard
    p.wrap(engine.FaraoState, "_on_end_discard", make)


@mutation("farao", "5. a stolen card goes to the discard and the thief draws from the pile instead (counts kept)",
          agents="greedy", games=20, catalogue="second")
def farao2_stolen_card_to_the_discard(p: Patcher, gd: Any) -> None:
    from cardgen.rules.farao import state as engine

    def make(honest):
        def steal(self, action):
            base_hand = self.hands[self.active][:]
            honest(self, action)
            got = [k for k, (a, b) in enumerate(zip(base_hand, self.hands[self.active])) if b > a]
            if got and self.pile_n:
                k = got[0]
                self.hands[self.active][k] -= 1
                self.discard[k] += 1
                self.disc_n += 1
                top = next(j for j, c in enumerate(self.pile) if c and j != engine.END) if any(
                    c for j, c in enumerate(self.pile) if j != engine.END) else None
                if top is None:
                    self.hands[self.active][k] += 1
                    self.discard[k] -= 1
                    self.disc_n -= 1
                    return
                self.pile[top] -= 1
                self.pile_n -= 1
                self.hands[self.active][top] += 1
        return steal
    p.wrap(engine.FaraoState, "_steal", make)


# -- pieces of the box ---------------------------------------------------------------------
@mutation("farao", "the display is refilled to four cards (the rulebook: three)", agents="greedy", games=5,
          catalogue="second")
def farao2_display_of_four(p: Patcher, gd: Any) -> None:
    from dataclasses import replace

    p.set(gd, "board", replace(gd.board, display=4))


# -- what every seat sees ------------------------------------------------------------------
@mutation("farao", "a leaked secret: the public display shows the draw pile's top card too", agents="greedy",
          games=3, catalogue="second")
def farao2_public_display_shows_the_pile(p: Patcher, gd: Any) -> None:
    from cardgen.rules.farao import state as engine

    def make(honest):
        def observation(self, player):
            obs = honest(self, player)
            top = next((k for k, c in enumerate(self.pile) if c), None)
            return obs._replace(display=obs.display + ((top,) if top is not None else ()))
        return observation
    p.wrap(engine.FaraoState, "observation", make)


@mutation("farao", "a leaked secret: the public die roll carries the active seat's Pharaoh count between thefts",
          agents="greedy", games=3, catalogue="second")
def farao2_public_roll_leaks_pharaohs(p: Patcher, gd: Any) -> None:
    from cardgen.rules.farao import state as engine
    from cardgen.rules.farao.spec import PHARAOH

    def make(honest):
        def observation(self, player):
            obs = honest(self, player)
            if self.phase not in (engine.STEAL, engine.C_STEAL):
                obs = obs._replace(roll=self.hands[self.active][PHARAOH])
            return obs
        return observation
    p.wrap(engine.FaraoState, "observation", make)


@mutation("farao", "a leaked secret: a declined trade's outcome text names the partner's hand", agents="random",
          games=10, catalogue="second")
def farao2_outcome_names_the_partner_hand(p: Patcher, gd: Any) -> None:
    from cardgen.rules.farao import state as engine
    from cardgen.rules.farao.spec import KIND_NAMES

    def make(honest):
        def outcome(self, before):
            said = honest(self, before)
            if before.phase == engine.TRADE_REPLY and before.offer is not None:
                q = before.offer[0]
                held = ", ".join(KIND_NAMES[k] for k, c in enumerate(self.hands[q]) for _ in range(c))
                said = (said + "; " if said else "") + f"seat {q + 1} holds {held}"
            return said
        return outcome
    p.wrap(engine.FaraoState, "outcome_text", make)


# -- chance --------------------------------------------------------------------------------
@mutation("farao", "biased chance: the die and the draws lean to low outcomes, declared uniform", agents="greedy",
          games=25, catalogue="second", pooled=True)
def farao2_biased_chance(p: Patcher, gd: Any) -> None:
    from cardgen.rules.farao import state as engine

    _biased_chance(p, engine.FaraoState)
