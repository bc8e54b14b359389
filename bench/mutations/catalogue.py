"""The mutation catalogue: engine bugs injected at run time, for each shipped game.

Each :class:`Mutation` patches the engine (its classes, a module constant or the bound
game definition) inside this process and undoes it afterwards; no file is edited.
``tests/validation/test_mutations.py`` requires the validator to catch each one (with a seed that
fails again on replay) and ``bench/mutation_score.py`` prints the score per game.

Every one must be caught: the score is 100 % for each game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .patcher import Patcher

Apply = Callable[[Patcher, Any], None]


@dataclass(frozen=True)
class Mutation:
    game: str
    name: str
    bug: str  # what is wrong, in words
    apply: Apply  # (patcher, the bound game definition) -> None
    players: int = 3
    agents: str = "random"
    games: int = 20  # seeds the bug was written against (the tests judge the games the quick pass plays)
    setup: str = "standard"
    catalogue: str = "first"  # "second": written from the rulebooks apart from the first (bench/mutations/second.py)
    pooled: bool = False  # a bug of chance: judged over the pooled games of a pass (a statistical test), not one game


CATALOGUE: list[Mutation] = []


def mutation(game: str, bug: str, **kw: Any) -> Callable[[Apply], Apply]:
    def register(fn: Apply) -> Apply:
        CATALOGUE.append(Mutation(game, fn.__name__, bug, fn, **kw))
        return fn
    return register


def by_game(game: str, catalogue: str = "first") -> list[Mutation]:
    """The mutations of one game in one catalogue ("first": this module's; "second": those
    written from the rulebooks apart from it, in bench/mutations/second.py for Hâpy and
    Egypt and bench/mutations/second_horus_farao.py for Horus and O, Farao!)."""
    from .second import SECOND

    return [m for m in (*CATALOGUE, *SECOND) if m.game == game and m.catalogue == catalogue]


def peeking_agent(p: Patcher, gd: Any, base: Callable[[Any, int], Any],
                  peek: Callable[[Any, int, Any, Any], int | None]) -> Callable[[Any, int], Any]:
    """A player factory whose player cheats as a real one could: it keeps a way to the live
    state of its game (the game definition's ``new_initial_state`` is spied on, and each
    player made for a game is handed the state that game began with) and lets
    ``peek(state, seat, legal, obs)`` choose from what its seat may not know (None: the
    honest player decides). The validator's honesty probe asks a deep copy of the player
    on a copy of the game whose hidden information is re-dealt; the copy's way to the
    state then leads to that copy, and it decides otherwise."""
    made: list[Any] = []

    def spy(honest: Callable[[], Any]) -> Callable[[], Any]:
        def new_initial_state() -> Any:
            state = honest()
            made[:] = [state]
            return state
        return new_initial_state
    p.wrap(gd, "new_initial_state", spy)

    def make(game: Any, seat: int) -> Any:
        return _Peeker(base(game, seat), seat, made[-1] if made else None, peek)
    return make


class _Peeker:
    """A player that holds its game's state (see :func:`peeking_agent`)."""

    def __init__(self, agent: Any, seat: int, state: Any, peek: Callable[..., int | None]):
        self.agent = agent
        self.seat = seat
        self.state = state
        self.peek = peek

    def act(self, obs: Any, legal: Any, rng: Any) -> int:
        got = self.peek(self.state, self.seat, legal, obs) if self.state is not None else None
        return got if got is not None else self.agent.act(obs, legal, rng)


# =============================================================================== Hâpy
HAPY = dict(setup="pyramid")


@mutation("hapy", "4 players need 4 sets instead of 3 (a wrong constant)", players=4, agents="greedy", **HAPY)
def hapy_four_sets_with_four_players(p: Patcher, gd: Any) -> None:
    p.set(gd, "win_sets", 4)


@mutation("hapy", "3 players need 3 sets instead of 4 (a wrong constant)", agents="greedy", **HAPY)
def hapy_three_sets_with_three_players(p: Patcher, gd: Any) -> None:
    p.set(gd, "win_sets", 3)


@mutation("hapy", "no number of sets ever wins", agents="greedy", **HAPY)
def hapy_sets_never_win(p: Patcher, gd: Any) -> None:
    p.set(gd, "win_sets", 99)


@mutation("hapy", "the last request is never recorded (the ban never applies)", **HAPY)
def hapy_forgets_the_last_request(p: Patcher, gd: Any) -> None:
    from cardgen.rules.hapy.state import HapyState
    p.set(HapyState, "last_request", property(lambda self: -1, lambda self, value: None))


@mutation("hapy", "a missing legal move: requests for the requester's own cards left out", **HAPY)
def hapy_no_requests_for_own_cards(p: Patcher, gd: Any) -> None:
    from cardgen.rules.hapy import state as engine
    from cardgen.rules.hapy.codec import REQUEST_BASE

    def make(honest):
        def legal(self):
            out = honest(self)
            if self.phase == engine.REQUEST:
                own = self.hand[self.player]
                out = [a for a in out if a < REQUEST_BASE or not own >> ((a - REQUEST_BASE) % 100) & 1]
            return out
        return legal
    p.wrap(engine.HapyState, "legal_actions", make)
    p.set(engine.HapyState, "legal_at", None)


@mutation("hapy", "revealed cards may be requested", **HAPY)
def hapy_requests_for_revealed_cards(p: Patcher, gd: Any) -> None:
    from cardgen.rules.hapy import state as engine
    from cardgen.rules.hapy.codec import REQUEST_BASE

    def make(honest):
        def legal(self):
            out = honest(self)
            if self.phase == engine.REQUEST and self.rev_all:
                extra = [REQUEST_BASE + 100 * q + c for q in range(self.g.num_players) if q != self.player
                         for c in range(36) if self.rev_all >> c & 1]
                out = out + extra * 5
            return out
        return legal
    p.wrap(engine.HapyState, "legal_actions", make)
    p.set(engine.HapyState, "legal_at", None)


@mutation("hapy", "covered cards may be taken from the pyramid", **HAPY)
def hapy_takes_covered_cards(p: Patcher, gd: Any) -> None:
    from cardgen.rules.hapy import state as engine

    def make(honest):
        def legal(self):
            if self.phase == engine.TAKE:
                return [i for i, c in enumerate(self.slot_card) if c >= 0]
            return honest(self)
        return legal
    p.wrap(engine.HapyState, "legal_actions", make)
    p.set(engine.HapyState, "legal_at", None)


@mutation("hapy", "a skipped compulsory step: every fifth turn starts without the take", **HAPY)
def hapy_skips_the_take(p: Patcher, gd: Any) -> None:
    from cardgen.rules.hapy import state as engine

    def make(honest):
        def apply(self, action):
            honest(self, action)
            if self.phase == engine.TAKE and self.turn % 5 == 4:
                self.phase = engine.REQUEST
            return self.current_player()
        return apply
    p.wrap(engine.HapyState, "apply_action", make)


@mutation("hapy", "a requested card the target holds is not handed over", **HAPY)
def hapy_request_not_handed_over(p: Patcher, gd: Any) -> None:
    from cardgen.rules.hapy import state as engine
    p.set(engine.HapyState, "_transfer", lambda self, card, giver, taker: None)


@mutation("hapy", "the turn passes anticlockwise after a request", **HAPY)
def hapy_anticlockwise(p: Patcher, gd: Any) -> None:
    n = gd.num_players
    p.set(gd, "next_seat", tuple((s - 1) % n for s in range(n)))


@mutation("hapy", "a whole family revealed does not win", agents="greedy", games=60, **HAPY)
def hapy_whole_family_does_not_win(p: Patcher, gd: Any) -> None:
    from cardgen.rules.hapy import state as engine

    def make(honest):
        def reveal(self, mask, family):
            was = self.won
            honest(self, mask, family)
            self.won = was
        return reveal
    p.wrap(engine.HapyState, "_reveal_cards", make)


@mutation("hapy", "a skipped compulsory step: a set of three in hand is not revealed", agents="greedy", **HAPY)
def hapy_set_not_revealed(p: Patcher, gd: Any) -> None:
    from cardgen.rules.hapy import state as engine

    def make(honest):
        def reveal(self):
            if self.turn % 3 == 0:
                self.pending.clear()
            honest(self)
        return reveal
    p.wrap(engine.HapyState, "_reveal", make)


@mutation("hapy", "with four of a family the kept card is revealed too", agents="greedy", games=40, **HAPY)
def hapy_keep_reveals_four(p: Patcher, gd: Any) -> None:
    from cardgen.rules.hapy import state as engine
    from cardgen.rules.hapy.masks import FAMILY_MASK

    def keep(self, action):
        f = self.keep_family
        fam = self.hand[self.player] & FAMILY_MASK[f]
        self.keep_family = -1
        self.phase = engine.REQUEST
        self._reveal_cards(fam, f)
        self._reveal()
    p.set(engine.HapyState, "_keep", keep)


@mutation("hapy", "a leaked secret: the Mummy-side places are dealt God side up", **HAPY)
def hapy_hidden_places_shown(p: Patcher, gd: Any) -> None:
    p.set(gd, "face_up", tuple(True for _ in gd.face_up))
    p.set(gd, "face_or", tuple(0 for _ in gd.face_or))


@mutation("hapy", "a take counts two cards into the hand", **HAPY)
def hapy_take_counts_twice(p: Patcher, gd: Any) -> None:
    from cardgen.rules.hapy import state as engine

    def make(honest):
        def apply(self, action):
            taking = self.phase == engine.TAKE
            who = self.player
            honest(self, action)
            if taking:
                self.hand_n[who] += 1
            return self.current_player()
        return apply
    p.wrap(engine.HapyState, "apply_action", make)


# The leaked secrets: a player that decides on what its seat may not know makes only legal
# moves, so no rule check sees it; the honesty probe does (see peeking_agent).
@mutation("hapy", "a leaked secret: the greedy player reads the true hands and asks for a held card",
          agents="greedy", **HAPY)
def hapy_player_reads_the_hands(p: Patcher, gd: Any) -> None:
    from cardgen.rules import rules_for
    from cardgen.rules.hapy.codec import REQUEST_BASE

    def peek(s, seat, legal, obs):
        for a in legal:
            if a >= REQUEST_BASE:
                q, c = divmod(a - REQUEST_BASE, 100)
                if q < len(s.hand) and s.hand[q] >> c & 1:
                    return a
        return None
    base = rules_for("hapy").agents["greedy"]
    p.set(gd, "_agent", peeking_agent(p, gd, base, peek))


# =============================================================================== Egypt
@mutation("egypt", "the End phase keeps six cards instead of five (a wrong constant)", games=5)
def egypt_keeps_six(p: Patcher, gd: Any) -> None:
    from cardgen.rules.egypt import moves, spec, state
    p.set(spec, "KEEP", 6)
    p.set(moves, "KEEP", 6)
    cache: dict = {}  # the engine's cache of discards, rebuilt with the bug
    p.set(moves, "DISCARDS", cache)
    p.set(state, "DISCARDS", cache)


@mutation("egypt", "the game lasts nine turns (a wrong constant)", agents="greedy", games=3)
def egypt_nine_turns(p: Patcher, gd: Any) -> None:
    p.set(gd, "turns", 9)


@mutation("egypt", "the game lasts eleven turns (a wrong constant)", agents="greedy", games=3)
def egypt_eleven_turns(p: Patcher, gd: Any) -> None:
    p.set(gd, "turns", 11)


@mutation("egypt", "a skipped compulsory step: the Dynasty phase without the steal", agents="greedy", games=5)
def egypt_no_steal(p: Patcher, gd: Any) -> None:
    from cardgen.rules.egypt import state as engine

    def make(honest):
        def resolve(self):
            honest(self)
            if self.phase in (engine.VICTIM, engine.STEAL):
                self.phase = engine.DYNASTY
                self._dynasty_choice()
        return resolve
    p.wrap(engine.EgyptState, "_resolve_control", make)


@mutation("egypt", "a missing legal move: the special melds are never offered")
def egypt_no_special_melds(p: Patcher, gd: Any) -> None:
    from cardgen.rules.egypt.bits import counts_tuple
    from cardgen.rules.egypt.codec import PASS

    melds: dict = {}

    def meld_actions(sig):
        out = melds.get(sig)
        if out is None:
            out = melds[sig] = [PASS] + gd._plain_melds(counts_tuple(sig))
        return out
    p.set(gd, "_melds", melds)
    p.set(gd, "meld_actions", meld_actions)


@mutation("egypt", "a missing legal move: nobody is ever offered a meld to reveal", agents="greedy", games=5)
def egypt_no_reveals(p: Patcher, gd: Any) -> None:
    from cardgen.rules.egypt.codec import PASS
    p.set(gd, "_reveals", {})
    p.set(gd, "reveal_actions", lambda sig: [PASS])


@mutation("egypt", "the Draw phase fills hands to six (a wrong constant)", games=5)
def egypt_hands_of_six(p: Patcher, gd: Any) -> None:
    from cardgen.rules.egypt import state
    p.set(state, "HAND", 6)


@mutation("egypt", "control goes to the first seat that reveals anything", agents="greedy", games=5)
def egypt_control_to_the_first_revealer(p: Patcher, gd: Any) -> None:
    from cardgen.rules.egypt.codec import PASS
    p.set(gd, "control_winner", lambda shown: next((s for s, a in enumerate(shown) if a != PASS), -1))


@mutation("egypt", "tribute counted twice", agents="greedy", games=5)
def egypt_double_tribute(p: Patcher, gd: Any) -> None:
    honest = gd.points
    p.set(gd, "points", lambda action: 2 * honest(action))


@mutation("egypt", "the stolen card vanishes instead of reaching the controller", agents="greedy", games=5)
def egypt_stolen_card_lost(p: Patcher, gd: Any) -> None:
    from cardgen.rules.egypt import state as engine

    def make(honest):
        def steal(self, card):
            honest(self, card)
            c = self.controller
            bit = engine.CBIT[card]
            self.hand[c] &= ~bit
            self.sig[c] -= engine.CSIG[card]
            self.hand_n[c] -= 1
            self.discard |= bit
        return steal
    p.wrap(engine.EgyptState, "_steal", make)


@mutation("egypt", "the revealed melds are discarded against the house rules (option read the other way)",
          agents="greedy", games=5)
def egypt_reveal_discard_flipped(p: Patcher, gd: Any) -> None:
    p.set(gd, "discard_on_reveal", not gd.discard_on_reveal)


@mutation("egypt", "a skipped compulsory step: the End phase never happens", games=5)
def egypt_no_end_phase(p: Patcher, gd: Any) -> None:
    from cardgen.rules.egypt import state as engine

    def start_end(self):
        self.discard |= self.table
        self.table = 0
        self.player = -1
        self._end_turn()
    p.set(engine.EgyptState, "_start_end", start_end)


@mutation("egypt", "control is lost when nobody wins the Control phase", agents="greedy", games=10)
def egypt_control_lost_on_a_tie(p: Patcher, gd: Any) -> None:
    from cardgen.rules.egypt import state as engine

    def make(honest):
        def resolve(self):
            if self.g.control_winner(tuple(self.pending)) < 0:
                self.controller = -1
            honest(self)
        return resolve
    p.wrap(engine.EgyptState, "_resolve_control", make)


@mutation("egypt", "a missing legal move: the controller may only take from the next seat", players=4)
def egypt_one_victim(p: Patcher, gd: Any) -> None:
    from cardgen.rules.egypt import state as engine

    def make(honest):
        def legal(self):
            out = honest(self)
            return out[:1] if self.phase == engine.VICTIM else out
        return legal
    p.wrap(engine.EgyptState, "legal_actions", make)


@mutation("egypt", "a missing legal move: one meld a Dynasty phase, then it ends", agents="greedy", games=5)
def egypt_one_meld_a_turn(p: Patcher, gd: Any) -> None:
    from cardgen.rules.egypt import state as engine

    def make(honest):
        def play(self, action):
            honest(self, action)
            if self.phase == engine.DYNASTY:
                self._start_end()
        return play
    p.wrap(engine.EgyptState, "_play", make)


@mutation("egypt", "a leaked secret: the greedy player reads the next hand before it reveals (it holds back"
          " when that hand has a bigger meld, else reveals its biggest)", agents="greedy")
def egypt_player_reads_the_hands(p: Patcher, gd: Any) -> None:
    from cardgen.rules import rules_for
    from cardgen.rules.egypt.bits import counts_tuple
    from cardgen.rules.egypt.spec import ANKH, CONTROL

    def biggest(sig: int) -> int:
        counts = counts_tuple(sig)
        return max(counts[:ANKH]) + counts[ANKH]

    def peek(s, seat, legal, obs):
        if obs.phase_id != CONTROL or len(legal) < 2:
            return None
        nxt = (seat + 1) % len(s.sig)
        return legal[0] if biggest(s.sig[nxt]) > biggest(s.sig[seat]) else legal[-1]
    p.set(gd, "_agent", peeking_agent(p, gd, rules_for("egypt").agents["greedy"], peek))


# =============================================================================== Horus
@mutation("horus", "the first-round flag is off from the start (cards count their own size)",
          players=4, agents="greedy", games=5)
def horus_no_first_round(p: Patcher, gd: Any) -> None:
    honest = gd.new_initial_state

    def start():
        s = honest()
        s.round_one = False
        return s
    p.set(gd, "new_initial_state", start)


@mutation("horus", "the first round lasts two rounds", agents="greedy", games=5)
def horus_first_round_twice(p: Patcher, gd: Any) -> None:
    from cardgen.rules.horus import state as engine

    def make(honest):
        def end_turn(self):
            honest(self)
            self.round_one = self.turn < 2 * self.g.num_players
        return end_turn
    p.wrap(engine.HorusState, "_end_turn", make)


@mutation("horus", "a skipped step: Action 4 (the Kingdom Stone) is never offered", agents="greedy", games=5)
def horus_stone_skipped(p: Patcher, gd: Any) -> None:
    from cardgen.rules.horus import state as engine

    def make(honest):
        def play(self, action):
            honest(self, action)
            self.queue[:] = [x for x in self.queue if x[0] != "stone"]
        return play
    p.wrap(engine.HorusState, "_play_card", make)


@mutation("horus", "a Nile card can be played again", agents="random", games=10)
def horus_nile_twice(p: Patcher, gd: Any) -> None:
    from cardgen.rules.horus import state as engine
    from cardgen.rules.horus.codec import NILE_ACTION

    def make(honest):
        def play(self, action):
            honest(self, action)
            if action == NILE_ACTION:
                self.nile[self.player] = True
        return play
    p.wrap(engine.HorusState, "_play_card", make)


@mutation("horus", "the cards of a stack that ran out stay in the hands", agents="greedy", games=10)
def horus_empty_stack_cards_kept(p: Patcher, gd: Any) -> None:
    from cardgen.rules.horus import state as engine

    def depleted(self, s):
        self.depleted_at_turn.append(self.turn)
        if sum(1 for st in self.stacks if not st) < 2:
            order = [(self.player + i) % self.g.num_players for i in range(self.g.num_players)]
            self.queue.insert(0, ("refill", tuple(order)))
    p.set(engine.HorusState, "_depleted", depleted)


@mutation("horus", "the game ends when one stack is empty", agents="greedy", games=5)
def horus_ends_on_one_stack(p: Patcher, gd: Any) -> None:
    from cardgen.rules.horus import state as engine
    p.set(engine.HorusState, "_ending", lambda self: any(not st for st in self.stacks))


@mutation("horus", "the game goes on past two empty stacks", agents="greedy", games=5)
def horus_ends_on_three_stacks(p: Patcher, gd: Any) -> None:
    from cardgen.rules.horus import state as engine
    p.set(engine.HorusState, "_ending", lambda self: sum(1 for st in self.stacks if not st) >= 3)


@mutation("horus", "hands of four Horus cards (a wrong constant)", agents="greedy", games=3)
def horus_hands_of_four(p: Patcher, gd: Any) -> None:
    p.set(gd, "hand_size", 4)


@mutation("horus", "hands of six Horus cards (a wrong constant)", agents="greedy", games=3)
def horus_hands_of_six(p: Patcher, gd: Any) -> None:
    p.set(gd, "hand_size", 6)


@mutation("horus", "regions close at five tiles instead of six: no stone offered in a region of five",
          agents="greedy", games=20)
def horus_closed_at_five(p: Patcher, gd: Any) -> None:
    from cardgen.rules.horus import state as engine

    def make(honest):
        def options(self, size):
            return [a for a in honest(self, size) if len(self.reg_members[self.reg[self.at[a & 0xFFFFF]]]) < 5]
        return options
    p.wrap(engine.HorusState, "stone_options", make)


@mutation("horus", "a region may score up to 12 (a wrong constant)", agents="greedy", games=10)
def horus_cap_twelve(p: Patcher, gd: Any) -> None:
    p.set(gd, "temple_cap", 12)


@mutation("horus", "seat 1 scores a point it did not earn", agents="greedy", games=3)
def horus_wrong_score(p: Patcher, gd: Any) -> None:
    from cardgen.rules.horus import state as engine

    def make(honest):
        def scores(self):
            out = list(honest(self))
            out[0] += 1
            return out
        return scores
    p.wrap(engine.HorusState, "scores", make)


@mutation("horus", "stones offered in regions one larger than the card says", agents="random", games=5)
def horus_stone_size_off_by_one(p: Patcher, gd: Any) -> None:
    from cardgen.rules.horus import state as engine
    from cardgen.rules.horus.spec import ANY

    def make(honest):
        def options(self, size):
            return honest(self, size if size == ANY else size + 1)
        return options
    p.wrap(engine.HorusState, "stone_options", make)


@mutation("horus", "a missing legal move: a bag River tile never moves a Boat", agents="random", games=10)
def horus_river_never_moves_a_boat(p: Patcher, gd: Any) -> None:
    from cardgen.rules.horus import state as engine
    from cardgen.rules.horus.spec import RIVER

    def make(honest):
        def took(self, t):
            if self.g.tile_kind[t] == RIVER:
                self.tile = t
                self.face = RIVER
                self.queue[:0] = [("riverplace",), ("rn",)]
                return
            honest(self, t)
        return took
    p.wrap(engine.HorusState, "_took_tile", make)


@mutation("horus", "a skipped compulsory step: the hand is not refilled after a card", agents="greedy", games=3)
def horus_no_refill(p: Patcher, gd: Any) -> None:
    from cardgen.rules.horus import state as engine

    def make(honest):
        def play(self, action):
            honest(self, action)
            self.queue[:] = [x for x in self.queue if x[0] != "refill"]
        return play
    p.wrap(engine.HorusState, "_play_card", make)


@mutation("horus", "the Nile card moves a stone to any region, by the River or not", agents="random", games=20)
def horus_nile_anywhere(p: Patcher, gd: Any) -> None:
    from cardgen.rules.horus import state as engine
    from cardgen.rules.horus.codec import TO_BASE

    def targets(self, from_slot):
        src = self.reg[from_slot]
        return sorted(TO_BASE + self.pos[m] for rid, members in self.reg_members.items() if rid != src
                      for m in members if m not in self.stone_at)
    p.set(engine.HorusState, "nile_targets", targets)


@mutation("horus", "a leaked secret: the greedy player reads the next seat's Horus cards and lets them choose"
          " its move", agents="greedy")
def horus_player_reads_the_hands(p: Patcher, gd: Any) -> None:
    from cardgen.rules import rules_for

    def peek(s, seat, legal, obs):
        hand = s.hands[(seat + 1) % len(s.hands)]
        return legal[sum(hand) % len(legal)] if hand and len(legal) > 1 else None
    p.set(gd, "_agent", peeking_agent(p, gd, rules_for("horus").agents["greedy"], peek))


# =============================================================================== O, Farao!
@mutation("farao", "a hand of six (a wrong constant)", agents="greedy", games=3)
def farao_hand_of_six(p: Patcher, gd: Any) -> None:
    p.set(gd, "hand_limit", 6)


@mutation("farao", "a hand of eight (a wrong constant)", agents="greedy", games=3)
def farao_hand_of_eight(p: Patcher, gd: Any) -> None:
    p.set(gd, "hand_limit", 8)


@mutation("farao", "a skipped compulsory step: no theft on a roll of 6", agents="greedy", games=10)
def farao_no_theft_on_six(p: Patcher, gd: Any) -> None:
    from cardgen.rules.farao import state as engine

    def make(honest):
        def apply(self, action):
            if self.phase == engine.C_DIE and action == 6:
                self.roll = action
                self.target = None
                self._to_attack()
                self.steps += 1
                return self.current_player()
            return honest(self, action)
        return apply
    p.wrap(engine.FaraoState, "apply_action", make)


@mutation("farao", "a thief steals whatever the roll", agents="greedy", games=10)
def farao_theft_on_any_roll(p: Patcher, gd: Any) -> None:
    from cardgen.rules.farao import state as engine

    def make(honest):
        def apply(self, action):
            if self.phase == engine.C_DIE:
                self.roll = action
                self.phase = engine.STEAL if self.g.options.thief_takes == "any" else engine.C_STEAL
                self.steps += 1
                return self.current_player()
            return honest(self, action)
        return apply
    p.wrap(engine.FaraoState, "apply_action", make)


@mutation("farao", "a Pharaoh that blocks is not used up", agents="greedy", games=20)
def farao_pharaoh_kept(p: Patcher, gd: Any) -> None:
    from cardgen.rules.farao import state as engine
    from cardgen.rules.farao.codec import BLOCK_ACT

    def make(honest):
        def apply(self, action):
            seat = self.player
            blocking = self.phase in (engine.BLOCK, engine.TAX_BLOCK) and action == BLOCK_ACT
            out = honest(self, action)
            if blocking:  # the Pharaoh back from the discard into the hand
                self.discard[engine.PHARAOH] -= 1
                self.disc_n -= 1
                self.hands[seat][engine.PHARAOH] += 1
                self.hand_n[seat] += 1
            return out
        return apply
    p.wrap(engine.FaraoState, "apply_action", make)


@mutation("farao", "a Tax collector robs one seat only", agents="greedy", games=20)
def farao_tax_one_seat(p: Patcher, gd: Any) -> None:
    from cardgen.rules.farao import state as engine
    from cardgen.rules.farao.codec import TAX_ACT

    def make(honest):
        def attack(self, action):
            if action == TAX_ACT:
                p_ = self.player
                self.attacks += 1
                self.attacks_made += 1
                self._lose(p_, engine.TAX)
                self.tax_queue = [(p_ + 1) % self.g.num_players]
                self._next_tax()
                return
            honest(self, action)
        return attack
    p.wrap(engine.FaraoState, "_attack", make)


@mutation("farao", "a skipped compulsory step: the display is not refilled after a take", agents="greedy",
          games=10)
def farao_display_not_refilled(p: Patcher, gd: Any) -> None:
    from cardgen.rules.farao import state as engine
    from cardgen.rules.farao.codec import PILE, TAKE

    def make(honest):
        def apply(self, action):
            if self.phase == engine.DRAW and action != PILE:
                k = action - TAKE
                self.display.remove(k)
                self._gain(self.player, k)
                self.decided = True
                self._to_trade()
                self.steps += 1
                return self.current_player()
            return honest(self, action)
        return apply
    p.wrap(engine.FaraoState, "apply_action", make)


@mutation("farao", "a pyramid scores one point more than its value", agents="greedy", games=3)
def farao_value_off_by_one(p: Patcher, gd: Any) -> None:
    from cardgen.rules.farao import state
    honest = state.pyramid_value
    p.set(state, "pyramid_value", lambda pyr: honest(pyr) + 1)


@mutation("farao", "the figure does not move on a cash", agents="greedy", games=3)
def farao_figure_stays(p: Patcher, gd: Any) -> None:
    from cardgen.rules.farao import state as engine

    def make(honest):
        def cash(self, slot):
            before = self.plateau
            honest(self, slot)
            if not self.final:
                self.plateau = before
        return cash
    p.wrap(engine.FaraoState, "_cash", make)


@mutation("farao", "two pyramids from the start (the first special plateau ignored)", agents="random", games=20)
def farao_two_pyramids_early(p: Patcher, gd: Any) -> None:
    p.set(gd, "pyramid_caps", tuple(2 for _ in gd.pyramid_caps))


@mutation("farao", "short pyramids cashed after the second special plateau", agents="greedy", games=10)
def farao_short_cash_late(p: Patcher, gd: Any) -> None:
    p.set(gd, "rows_to_cash", tuple(1 for _ in gd.rows_to_cash))


@mutation("farao", "the turn passes anticlockwise", agents="greedy", games=3)
def farao_anticlockwise(p: Patcher, gd: Any) -> None:
    from cardgen.rules.farao import state as engine

    def end_turn(self):
        if not self.decided:
            self.player = self.active
            self.phase = engine.IDLE
            return
        self.turn += 1
        self._start_turn((self.active - 1) % self.g.num_players)
    p.set(engine.FaraoState, "_end_turn", end_turn)


@mutation("farao", "an accepted trade swaps nothing", agents="random", games=10)
def farao_trade_swaps_nothing(p: Patcher, gd: Any) -> None:
    from cardgen.rules.farao import state as engine
    from cardgen.rules.farao.codec import ACCEPT

    def make(honest):
        def apply(self, action):
            if self.phase == engine.TRADE_REPLY and action == ACCEPT:
                self.offer = None
                self.player = self.active
                self.decided = True
                self._to_trade(same_cards=False)
                self.steps += 1
                return self.current_player()
            return honest(self, action)
        return apply
    p.wrap(engine.FaraoState, "apply_action", make)


@mutation("farao", "a skipped compulsory step: step 2 (draw or take) is left out", agents="greedy", games=3)
def farao_no_draw_step(p: Patcher, gd: Any) -> None:
    from cardgen.rules.farao import state as engine
    p.set(engine.FaraoState, "_to_draw", lambda self: self._to_trade())


@mutation("farao", "the End card is shuffled in one plateau early", agents="greedy", games=5)
def farao_end_card_early(p: Patcher, gd: Any) -> None:
    p.set(gd, "last", gd.last - 1)


@mutation("farao", "a leaked secret: the greedy player reads the next seat's hand and draws from the pile by it",
          agents="greedy")
def farao_player_reads_the_hands(p: Patcher, gd: Any) -> None:
    from cardgen.rules import rules_for
    from cardgen.rules.farao.codec import PILE

    def peek(s, seat, legal, obs):
        hand = s.hands[(seat + 1) % len(s.hands)]
        return PILE if PILE in legal and sum(k * c for k, c in enumerate(hand)) % 2 else None
    p.set(gd, "_agent", peeking_agent(p, gd, rules_for("farao").agents["greedy"], peek))


# ------------------------------------------------------- missing legal moves, found by the lists
@mutation("hapy", "a missing legal move: the first free card of the layout cannot be taken", **HAPY)
def hapy_first_free_card_not_offered(p: Patcher, gd: Any) -> None:
    from cardgen.rules.hapy import state as engine

    def make(honest):
        def legal(self):
            out = honest(self)
            return out[1:] if self.phase == engine.TAKE and len(out) > 1 else out
        return legal
    p.wrap(engine.HapyState, "legal_actions", make)
    p.set(engine.HapyState, "legal_at", None)


@mutation("horus", "a missing legal move: the Nile card is never offered", agents="random", games=10)
def horus_nile_never_offered(p: Patcher, gd: Any) -> None:
    from cardgen.rules.horus import state as engine
    from cardgen.rules.horus.codec import NILE_ACTION

    def make(honest):
        def legal(self):
            return [a for a in honest(self) if a != NILE_ACTION]
        return legal
    p.wrap(engine.HorusState, "legal_actions", make)


@mutation("farao", "a missing legal move: the display's cards are never offered", agents="greedy", games=5)
def farao_display_never_offered(p: Patcher, gd: Any) -> None:
    from cardgen.rules.farao import state as engine
    from cardgen.rules.farao.codec import PILE

    def make(honest):
        def legal(self):
            out = honest(self)
            return [PILE] if self.phase == engine.DRAW and PILE in out else out
        return legal
    p.wrap(engine.FaraoState, "legal_actions", make)


@mutation("farao", "a missing legal move: no second pyramid after the first special plateau", agents="greedy",
          games=10)
def farao_no_second_pyramid(p: Patcher, gd: Any) -> None:
    p.set(gd, "pyramid_caps", tuple(1 for _ in gd.pyramid_caps))


@mutation("egypt", "a wrong constant: the Priests special meld pays 12 instead of 10", agents="greedy", games=10)
def egypt_priests_pay_twelve(p: Patcher, gd: Any) -> None:
    from cardgen.rules.egypt import game as engine
    p.set(engine, "COMBOS", (engine.COMBOS[0], (engine.COMBOS[1][0], engine.COMBOS[1][1], 12)))
    p.set(gd, "_points", {})  # the engine's cache of tributes, rebuilt with the bug


@mutation("horus", "a skipped compulsory step: after a stack runs out only the player on turn draws back",
          agents="greedy", games=10)
def horus_depletion_refills_one_seat(p: Patcher, gd: Any) -> None:
    from cardgen.rules.horus import state as engine

    def make(honest):
        def depleted(self, s):
            honest(self, s)
            for i, step in enumerate(self.queue):
                if step[0] == "refill" and len(step[1]) > 1:
                    self.queue[i] = ("refill", (self.player,))
                    break
        return depleted
    p.wrap(engine.HorusState, "_depleted", make)


# the second catalogue of Horus and O, Farao! registers itself here (after ``mutation`` exists)
from . import second_horus_farao  # noqa: E402,F401
