"""Rules of Night Sky (docs/examples/first-game), a worked example of a rules module.

Named with ``--rules`` (``cardgen validate docs/examples/first-game --rules
docs/examples/rules/night_sky.py``), or installed as the package of this folder's
``pyproject.toml`` (its ``cardgen.rules`` entry point), it makes ``cardgen validate``
compare the deck with these rules and play seeded games with random and greedy players. Everything the engine knows about
the cards it reads from the loaded game, so the deck can change without this file.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from cardgen.rules import register
from cardgen.rules.api import CHANCE, TERMINAL, Arrangement, RandomAgent, RuleViolation, StaticSpec

DECK = "cards"
HAND = 4  # cards dealt to each player
RANKS = range(1, 7)
COMETS = 2
DRAW, PASS = 1000, 1001  # actions besides playing a card
SETUP = "standard"


# --8<-- [start:engine]
# -- the rules engine ---------------------------------------------------------------
@dataclass(frozen=True)
class Card:
    suit: str | None  # None: a Comet
    rank: int


class NightSkyGame:
    """The rules bound to one game and player count (what the runner calls a GameDef)."""

    def __init__(self, cards: tuple[Card, ...], suits: tuple[str, ...], num_players: int):
        self.cards = cards
        self.suits = suits
        self.num_players = num_players
        self.setup = SETUP

    def new_initial_state(self) -> NightSkyState:
        return NightSkyState(self)

    def max_game_length(self) -> int:
        return 5000  # steps; a game lasts tens of turns

    def checker(self) -> NightSkyChecker:
        return NightSkyChecker(self)


def play_action(card: int, suit: int = 0) -> int:
    """Playing card ``card``; a Comet also names a suit (its index + 1)."""
    return card * 4 + suit


class NightSkyState:
    """Hands, the pile (top last), the draw pile and whose turn it is."""

    def __init__(self, game: NightSkyGame):
        self.game = game
        self.hands: list[list[int]] = [[] for _ in range(game.num_players)]
        self.pile: list[int] = []
        self.draw: list[int] = list(range(len(game.cards)))  # face down; draws are chance steps
        self.named: str | None = None  # the suit a Comet on top asks for
        self.seat = 0  # whose turn it is, or who is drawing
        self.drawing = True  # the deal (and each draw) is chance
        self.dealt = 0  # cards dealt so far
        self.passes = 0  # passes in a row
        self.turns = 0
        self.winners: tuple[int, ...] = ()

    # what the runner asks
    def current_player(self) -> int:
        if self.winners:
            return TERMINAL
        return CHANCE if self.drawing else self.seat

    def is_terminal(self) -> bool:
        return bool(self.winners)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(c, 1 / len(self.draw)) for c in self.draw]

    def legal_actions(self) -> list[int]:
        if self.drawing or self.winners:
            return []
        plays = [a for c in self.hands[self.seat] for a in self._plays(c)]
        if self.draw or len(self.pile) > 1:
            plays.append(DRAW)
        return plays or [PASS]

    def _plays(self, c: int) -> list[int]:
        card = self.game.cards[c]
        if card.suit is None:  # a Comet goes on anything and names a suit
            return [play_action(c, s + 1) for s in range(len(self.game.suits))]
        top = self.game.cards[self.pile[-1]]
        follows = card.suit == self.named if top.suit is None else card.suit == top.suit or card.rank == top.rank
        return [play_action(c)] if follows or (top.suit is None and self.named is None) else []

    def apply_action(self, action: int) -> None:
        if self.drawing:
            self._chance(action)
            return
        self.turns += 1
        hand = self.hands[self.seat]
        if action == PASS:
            self.passes += 1
            if self.passes == self.game.num_players:  # a whole round: the fewest cards win
                fewest = min(len(h) for h in self.hands)
                self.winners = tuple(s for s, h in enumerate(self.hands) if len(h) == fewest)
                return
        elif action == DRAW:
            self.passes = 0
            if not self.draw:  # the pile but its top card becomes the draw pile
                self.draw, self.pile = self.pile[:-1], self.pile[-1:]
            self.drawing = True
            return
        else:
            self.passes = 0
            card, suit = divmod(action, 4)
            hand.remove(card)
            self.pile.append(card)
            self.named = self.game.suits[suit - 1] if suit else None
            if not hand:
                self.winners = (self.seat,)
                return
        self.seat = (self.seat + 1) % self.game.num_players

    def _chance(self, card: int) -> None:
        self.draw.remove(card)
        if self.dealt < HAND * self.game.num_players:  # the deal, one card to each player in turn
            self.hands[self.dealt % self.game.num_players].append(card)
            self.dealt += 1
        elif not self.pile:  # the first card of the pile
            self.pile.append(card)
            self.drawing = False
        else:  # a player's draw ends their turn
            self.hands[self.seat].append(card)
            self.drawing = False
            self.seat = (self.seat + 1) % self.game.num_players

    def clone(self) -> NightSkyState:
        other = object.__new__(NightSkyState)
        other.__dict__.update(self.__dict__)
        other.hands = [list(h) for h in self.hands]
        other.pile, other.draw = list(self.pile), list(self.draw)
        return other

    def observation(self, player: int) -> Observation:
        return Observation(player, tuple(self.hands[player]), self.pile[-1] if self.pile else None, self.named,
                           tuple(len(h) for h in self.hands))

    # --8<-- [start:scrambled]
    def scrambled(self, seat: int, rng: random.Random) -> NightSkyState:
        """A copy with what ``seat`` cannot see dealt again: the other hands and the draw
        pile, shuffled together and dealt back (each hand keeps its size). The validator
        asks a player on both and requires the same decision."""
        other = self.clone()
        others = [s for s in range(self.game.num_players) if s != seat]
        pool = sorted(self.draw + [c for s in others for c in self.hands[s]])  # an order that tells nothing
        rng.shuffle(pool)
        for s in others:
            other.hands[s], pool = pool[:len(self.hands[s])], pool[len(self.hands[s]):]
        other.draw = pool
        return other
    # --8<-- [end:scrambled]

    def returns(self) -> list[float]:
        return [1.0 if s in self.winners else 0.0 for s in range(self.game.num_players)]

    def length(self) -> int:
        return self.turns

    def action_to_string(self, action: int) -> str:
        if self.drawing:
            return f"draws {self._name(action)}"
        if action in (DRAW, PASS):
            return "draw" if action == DRAW else "pass"
        card, suit = divmod(action, 4)
        return f"play {self._name(card)}" + (f", naming {self.game.suits[suit - 1]}" if suit else "")

    def _name(self, c: int) -> str:
        card = self.game.cards[c]
        return "comet" if card.suit is None else f"{card.suit}-{card.rank}"


class Observation(NamedTuple):
    """What one player may know: their own hand and the table, never the others' hands.
    A copy of plain values (a tuple): nothing in it leads back to the state."""

    player: int
    hand: tuple[int, ...]
    top: int | None
    named: str | None
    hand_sizes: tuple[int, ...]
# --8<-- [end:engine]


# --8<-- [start:players]
# -- the players --------------------------------------------------------------------
class GreedyAgent:
    """Plays whenever it can, keeps its Comets for last, names the suit it holds most."""

    def __init__(self, game: NightSkyGame, seat: int):
        self.game = game

    def act(self, obs: Observation, legal: Sequence[int], rng: random.Random) -> int:
        cards = self.game.cards
        held = [cards[c].suit for c in obs.hand]
        plays = [a for a in legal if a not in (DRAW, PASS)]
        if not plays:
            return legal[0]
        plain = [a for a in plays if cards[a // 4].suit is not None]
        if plain:
            return max(plain, key=lambda a: (held.count(cards[a // 4].suit), cards[a // 4].rank))
        return max(plays, key=lambda a: held.count(self.game.suits[a % 4 - 1]))
# --8<-- [end:players]


# --8<-- [start:checker]
# -- the checker: the rules judged again, apart from the engine's move list ----------
class NightSkyChecker:
    def __init__(self, game: NightSkyGame):
        self.game = game

    def before(self, state: NightSkyState, player: int, action: int) -> None:
        cards = self.game.cards
        hand = state.hands[player]
        if action == DRAW:
            if not state.draw and len(state.pile) < 2:
                raise RuleViolation(f"seat {player + 1} draws, but there is no card to draw")
            return
        if action == PASS:
            can_draw = bool(state.draw) or len(state.pile) > 1
            if can_draw or any(self._follows(state, c) for c in hand):
                raise RuleViolation(f"seat {player + 1} passes, but could play or draw")
            return
        card, suit = divmod(action, 4)
        if card not in hand:
            raise RuleViolation(f"seat {player + 1} plays card {card}, which is not in their hand")
        if (suit != 0) != (cards[card].suit is None):
            raise RuleViolation(f"seat {player + 1}: only a Comet names a suit")
        if not self._follows(state, card):
            raise RuleViolation(f"seat {player + 1} plays {state._name(card)} on {state._name(state.pile[-1])},"
                                " which follows neither its suit nor its number")

    def _follows(self, state: NightSkyState, c: int) -> bool:
        card, top = self.game.cards[c], self.game.cards[state.pile[-1]]
        if card.suit is None:
            return True
        if top.suit is None:
            return state.named is None or card.suit == state.named
        return card.suit == top.suit or card.rank == top.rank

    def after(self, state: NightSkyState, full: bool) -> None:
        places = [*state.draw, *state.pile, *(c for h in state.hands for c in h)]
        if len(places) != len(self.game.cards):
            raise RuleViolation(f"{len(places)} cards in play, the deck has {len(self.game.cards)}")
        if full and sorted(places) != list(range(len(self.game.cards))):
            raise RuleViolation("a card is in two places at once, or nowhere")

    def at_end(self, state: NightSkyState) -> None:
        empty = [s for s, h in enumerate(state.hands) if not h]
        if empty and state.winners != tuple(empty):
            raise RuleViolation(f"seat {empty[0] + 1} has no card left, but the winners are {state.winners}")
        if not empty and state.passes < self.game.num_players:
            raise RuleViolation("the game ended with cards in every hand before a whole round of passes")
# --8<-- [end:checker]


# --8<-- [start:rules]
# -- what the validator needs: the deck the rules expect, setups, players -----------
def card_key(fields: Mapping[str, Any]) -> tuple | None:
    """A card as the rules tell cards apart: (suit, rank), or ("comet", 0)."""
    suit = fields.get("suit")
    if isinstance(suit, Mapping):
        return (suit.get("id"), fields.get("rank"))
    return ("comet", 0) if fields.get("rank") == 0 else None


class NightSkyRules:
    game_id = "night-sky"
    agents = {"random": RandomAgent, "greedy": GreedyAgent}
    must_finish = {"random": True, "greedy": True}  # a round of passes always ends it

    def static_spec(self, game, locate) -> StaticSpec:
        suits = tuple(s["id"] for s in game.data["suits"])
        comet = ("comet", 0)
        return StaticSpec(
            component=DECK,
            key_fields=(),
            key_of=card_key,
            expected=(*((s, r) for s in suits for r in RANKS), comet),
            quantities={comet: COMETS},
            name=lambda key: "comet" if key == comet else f"{key[0]}-{key[1]}",
            expected_text=f"{len(suits)} suits × ranks 1–{RANKS[-1]} and {COMETS} Comets",
            arrangements=(Arrangement(SETUP, len(suits) * len(RANKS) + COMETS, detail="one shuffled deck",
                                      where=locate("suits")),),
        )

    def player_counts(self, game) -> tuple[int, ...]:
        lo, hi = game.players
        return tuple(range(lo, hi + 1))

    def setups(self, game) -> tuple[str, ...]:
        return (SETUP,)

    def load(self, game, num_players: int, setup: str) -> NightSkyGame:
        deck = game.component(DECK)
        cards = tuple(Card(c.fields["suit"]["id"] if "suit" in c.fields else None, c.fields["rank"])
                      for c in deck.cards for _ in range(c.quantity))
        return NightSkyGame(cards, tuple(s["id"] for s in game.data["suits"]), num_players)


register(NightSkyRules())
# --8<-- [end:rules]
