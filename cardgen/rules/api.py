"""The small rules API every game's rules engine implements (OpenSpiel style).

A rules module describes one game to the generic validator:

* what its rules need from the game's data (:class:`StaticSpec`: the cards, the
  groups of cards and what each group must carry, the setup layouts), so the
  validator can name every difference without knowing the game;
* how to play it: :meth:`Rules.load` binds the rules to a loaded game and a
  configuration (player count, setup) and returns a :class:`GameDef`, whose
  :meth:`GameDef.new_initial_state` starts a :class:`State`;
* who plays: agent factories (at least ``random`` and ``greedy``), which only
  ever see an observation of the state (a copy of plain values), never the state;
* how to check it: a :class:`Checker` that verifies each action against the
  rules independently of the engine's own move generator, the invariants after
  each step, and the end condition at the end.

A state's current player is a seat ``0..n-1``, :data:`CHANCE` (the next action is
drawn by the runner from :meth:`State.chance_outcomes` with the one seeded random
source), or :data:`TERMINAL`. Actions are plain ints.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

from ..base.errors import Where

CHANCE = -1
TERMINAL = -4


class RuleViolation(Exception):
    """The engine (or an agent) broke a rule or an invariant: a bug to report."""


def check_offered(have: set[int], want: set[int], step: str, name: Callable[[int], object] = str,
                  allow: str = "which the rules allow", detail: str = "") -> None:
    """Compare the actions a step offers (``have``) with the checker's own list (``want``)
    and name the first difference: an offered action the rules forbid, or an allowed one
    missing. ``step`` starts the message ("seat 2's take step"), ``name`` spells an action."""
    if have == want:
        return
    extra, missing = sorted(have - want), sorted(want - have)
    what = (f"offers {name(extra[0])}, which the rules forbid" if extra
            else f"does not offer {name(missing[0])}, {allow}")
    raise RuleViolation(f"{step} {what}{detail}")


# --------------------------------------------------------------------------- static
@dataclass(frozen=True)
class Problem:
    """One difference between the game's data and what the rules need."""

    message: str
    where: Where = field(default_factory=Where)

    def __str__(self) -> str:
        prefix = self.where.prefix()
        return f"{prefix}: {self.message}" if prefix else self.message


@dataclass(frozen=True)
class GroupSpec:
    """Cards that share a mapping field (e.g. a family) and what each group needs.

    ``field`` names the card field holding the group's mapping, ``id_key`` the key of
    that mapping that identifies the group. Each group needs every key of
    ``required`` (``{key: what it is, for messages}``) with a non-empty value; the
    keys of ``distinct`` must differ between groups; the keys of ``palette`` must
    name a colour of the game's palette (or be a ``#rrggbb`` value); every string
    of ``strings`` (a locale key with ``{id}``, mapped to what it is) must exist
    in every language. ``data_list`` is the ``data`` list the groups come from,
    used to point at the right line.
    """

    field: str
    label: str
    plural: str = ""
    id_key: str = "id"
    count: int | None = None
    # dataclasses.field: the name ``field`` is this record's first field here
    required: Mapping[str, str] = dataclasses.field(default_factory=dict)
    distinct: tuple[str, ...] = ()
    palette: tuple[str, ...] = ()
    strings: Mapping[str, str] = dataclasses.field(default_factory=dict)
    data_list: str | None = None


@dataclass(frozen=True)
class Arrangement:
    """A setup layout: how many places it has and which places need which cards.

    ``fixed`` maps ``(field, value)`` to how many places only take cards whose
    ``field`` equals ``value``. ``problems`` are structural mistakes the rules
    module found while reading the layout. ``detail`` is a short human summary
    (e.g. ``1+2+…+8``)."""

    name: str
    places: int
    fixed: Mapping[tuple[str, Any], int] = field(default_factory=dict)
    detail: str = ""
    where: Where = field(default_factory=Where)
    problems: tuple[Problem, ...] = ()


@dataclass(frozen=True)
class StaticSpec:
    """What the rules need from the game's data, for the generic deck check.

    ``key_fields`` are the dotted card fields identifying a card for the rules
    (``("family.id", "number")``), ``expected`` every key the rules need, each
    exactly once unless ``quantities`` says how many copies of it they need
    (``{key: copies}``, e.g. 12 desert tiles of the bag: the copies may be split
    over several card entries), ``name`` turns a key into the card's name for
    messages and ``expected_text`` says in words what the rules expect.

    ``key_of``, when given, computes a card's key from its fields (returning None
    for a card the rules do not know) instead of ``key_fields``; ``where_of``, when
    given, says where a wrong number of copies of a key in ``quantities`` should
    point (e.g. the data line its count comes from; None: the card or the deck).
    ``also`` lists further decks the rules play with, each checked the same way
    (its cards and groups; arrangements and problems belong to the first spec).

    ``players`` is the range of player counts the rulebook allows: the game's
    ``players`` must lie inside it (a narrower range is the designer's choice; a wider
    one promises games the rules do not describe, so it is refused, never cut back)."""

    component: str
    key_fields: tuple[str, ...]
    expected: tuple[tuple, ...]
    name: Callable[[tuple], str]
    expected_text: str
    groups: tuple[GroupSpec, ...] = ()
    arrangements: tuple[Arrangement, ...] = ()
    problems: tuple[Problem, ...] = ()  # anything else the rules module found
    quantities: Mapping[tuple, int] = field(default_factory=dict)
    key_of: Callable[[Mapping[str, Any]], tuple | None] | None = None
    where_of: Callable[[tuple], Where | None] | None = None  # where to point for a key's count (e.g. its data line)
    also: tuple[StaticSpec, ...] = ()
    players: tuple[int, int] | None = None  # the player counts the rulebook allows, lowest and highest
    players_text: str = ""  # where that range comes from, for the message

    def wanted(self, key: tuple) -> int:
        """How many copies of the card ``key`` the rules need."""
        return self.quantities.get(key, 1)

    @property
    def total(self) -> int:
        """How many cards the rules need in all."""
        return sum(self.wanted(k) for k in self.expected)


# --------------------------------------------------------------------------- play
class Observation(Protocol):
    """What one seat may know, copied out of the state: each game defines its own fields.

    An observation holds plain immutable values only (ints, floats, strings, None,
    and tuples, frozensets or :class:`FrozenDict` tables of them; a ``NamedTuple`` is
    the natural shape), so that
    nothing in it leads back to the state or can change after it was made: a player
    sees what its seat may know and nothing else, whatever it does with the object.
    The validator checks this (:func:`observation_leak`) on sampled steps."""

    @property
    def player(self) -> int: ...  # the seat it is for (read-only: a NamedTuple's field fits)


class State(Protocol):
    def current_player(self) -> int: ...
    def is_terminal(self) -> bool: ...
    def legal_actions(self) -> list[int]: ...
    def chance_outcomes(self) -> list[tuple[int, float]]: ...
    def apply_action(self, action: int) -> int | None: ...  # may return current_player()
    def clone(self) -> State: ...
    def observation(self, player: int) -> Observation: ...
    def returns(self) -> list[float]: ...
    def length(self) -> int: ...  # the game's own measure of length (e.g. turns)
    def action_to_string(self, action: int) -> str: ...


# An agent and a checker are written for their own game's observation and state types, which
# the protocols below cannot name: they take ``Any`` there (the runner hands each only what
# its own game's states make).
class PhaseState:
    """The phase queries every engine state shares, for a state whose int ``phase`` says who
    moves: ``OVER_PHASE`` ends the game, a phase of ``CHANCE_PHASES`` is chance's, any other
    is the decision of seat ``player``. A state class sets the two class attributes and
    inherits :meth:`current_player`, :meth:`is_terminal` and :meth:`is_chance_node`."""

    __slots__ = ()
    OVER_PHASE: ClassVar[int]
    CHANCE_PHASES: ClassVar[frozenset[int]]
    phase: int
    player: int

    def current_player(self) -> int:
        phase = self.phase
        if phase in self.CHANCE_PHASES:
            return CHANCE
        if phase == self.OVER_PHASE:
            return TERMINAL
        return self.player

    def is_terminal(self) -> bool:
        return self.phase == self.OVER_PHASE

    def is_chance_node(self) -> bool:
        return self.phase in self.CHANCE_PHASES


class Agent(Protocol):
    """A player: chooses one of the legal actions from an observation (its game's own type)."""

    def act(self, obs: Any, legal: Sequence[int], rng: random.Random) -> int: ...


class Checker(Protocol):
    """Judges the steps of its own game's states (see the module's docstring)."""

    def before(self, state: Any, player: int, action: int) -> None: ...
    def after(self, state: Any, full: bool) -> None: ...
    def at_end(self, state: Any) -> None: ...


class GameDef(Protocol):
    """The rules bound to one game and configuration (OpenSpiel's ``Game``)."""

    num_players: int
    setup: str

    def new_initial_state(self) -> State: ...
    def max_game_length(self) -> int: ...  # in steps: the generous limit
    def checker(self) -> Checker: ...


AgentFactory = Callable[[Any, int], Agent]  # (the GameDef its own rules' load made, seat)


class Rules(Protocol):
    """A game's rules module, registered under the game id."""

    game_id: str
    agents: Mapping[str, AgentFactory]
    must_finish: Mapping[str, bool]  # per agent kind: is a game that never ends a failure?
    # optional: quick_games, the games per configuration of the default quick pass when the
    # simulation is slow (the command falls back to DEFAULT_GAMES)
    # optional: data_problems(game, locate) -> list[Problem], mistakes in the game's data that
    # `cardgen build` refuses too, because the kit prints them (e.g. house rules)

    def static_spec(self, game, locate: Callable[..., Where]) -> StaticSpec: ...
    def player_counts(self, game) -> tuple[int, ...]: ...
    def setups(self, game) -> tuple[str, ...]: ...
    def load(self, game, num_players: int, setup: str) -> GameDef: ...


# Optional fast paths a State may offer (the runner uses them when present):
#   sample_chance(rng) -> action: a draw from chance_outcomes() with that random source;
#   apply_chance_run(rng) -> list of actions: sample and apply every chance step up to the
#       next decision, with exactly the same draws as sample_chance + apply_action one by
#       one (so a seed replays the same game with or without it). It may take a keyword
#       ``before``: a callable it then calls with each action drawn, on the state as it is
#       just before that action is applied (the chance test reads each step there instead of
#       replaying the run on a clone of the state);
#   apply_action(action) may return the new current player (exactly current_player()): the runner
#       then does not ask for it (any other return value, e.g. None, means: ask);
#   scrambled(seat, rng) -> State: a copy (for reading: its observations and legal actions) in
#       which everything ``seat`` cannot see is dealt again with ``rng``. On sampled steps the
#       runner requires the seat's observation and legal actions to be the same on it, and a
#       copy of the player to choose there as the player does in the game.
#   legal_at(u) -> action or None: for 0 <= u < 1, legal_actions()[uniform_index(u, n)] where n is
#       the number of legal actions (None when there is none), without building the list. The
#       runner then plays a RandomAgent's turn with one rng.random() as its act() would, and on
#       full-check steps compares the action with the list.


# Optional reports a State may give once the game is over (the validate report shows them):
#   figures() -> {name: number or list of numbers}: the game's own figures of the game (scores,
#       passes…), pooled per configuration;
#   card_holders() -> {card name: seats}: for each card (by the name the designer knows it by, such
#       as its id), the seats (from 0) that held or played it in this game; a card no seat had is
#       left out. The report counts how often each card's holder won, so that a card whose holder
#       wins far more (or less) than the holders of the other cards stands out. What "held or
#       played" means is the game's: the cards in a seat's hand and tableau, the cards it melded.


class FrozenDict(dict):
    """A mapping that cannot be changed, for an observation's tables (a copy of the
    state's dict: reading it costs what reading a dict costs)."""

    __slots__ = ()

    def _refuse(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("an observation cannot be changed")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = __ior__ = _refuse  # type: ignore

    def __copy__(self) -> FrozenDict:
        return self

    def __deepcopy__(self, memo: dict) -> FrozenDict:
        return self

    def __reduce__(self) -> tuple:
        return (FrozenDict, (dict(self),))


_PLAIN = frozenset({int, float, str, bytes, bool, type(None), complex})


def observation_leak(obs: Any, limit: int = 1_000_000) -> str | None:
    """None if ``obs`` holds plain immutable values only (see :class:`Observation`); else
    what it holds that could lead back to the state or change (e.g. "a list"), found by
    walking everything the object refers to. Tuple subclasses (``NamedTuple`` views),
    frozensets and :class:`FrozenDict` tables are allowed."""
    plain = _PLAIN
    stack = [obs]
    walked = 0
    while stack:
        x = stack.pop()
        t = type(x)
        if t is tuple or t is frozenset or isinstance(x, (tuple, frozenset)):
            walked += len(x)
            if walked > limit:
                return f"more than {limit:,} values"
            for item in x:
                if type(item) not in plain:
                    stack.append(item)
            if t is not tuple and t is not frozenset and getattr(x, "__dict__", None):
                return f"a {t.__name__} with attributes of its own"
            continue
        if t in plain:
            continue
        if t is FrozenDict:
            walked += 2 * len(x)
            if walked > limit:
                return f"more than {limit:,} values"
            for pair in x.items():
                for item in pair:
                    if type(item) not in plain:
                        stack.append(item)
            continue
        return f"a {t.__name__}"
    return None


def uniform_index(u: float, count: int) -> int:
    """The index a uniform pick ``u`` in [0, 1) chooses among ``count`` items (RandomAgent's
    rule, shared with the states' ``legal_at`` so that both choose alike)."""
    return int(u * count)


def player_rng(seed: int, seat: int) -> random.Random:
    """The random source of one seat's player in the game of ``seed``: a stream of its own,
    never the one chance draws from, so a player cannot foresee a roll or a draw (string
    seeds are hashed the same way on every platform and run)."""
    return random.Random(f"cardgen player {seat} of game {seed}")


def sample_chance(state: State, rng: random.Random) -> int:
    """Draw a chance outcome with the one seeded random source."""
    fast = getattr(state, "sample_chance", None)
    if fast is not None:
        return fast(rng)
    return draw_outcome(state.chance_outcomes(), rng)


def draw_outcome(outcomes: Sequence[tuple[int, float]], rng: random.Random) -> int:
    """One of ``(action, probability)`` outcomes, drawn with a single ``rng.random()``."""
    r = rng.random()
    acc = 0.0
    for action, p in outcomes:
        acc += p
        if r < acc:
            return action
    return outcomes[-1][0]


def most_points_win(scores: Sequence[float]) -> list[float]:
    """Returns for a game won on points: 1 for every seat with the most (all 1: a draw), 0 else."""
    best = max(scores)
    return [1.0 if x == best else 0.0 for x in scores]


class RandomAgent:
    """Picks uniformly among the legal actions (passing included), for any game; one
    ``rng.random()`` a choice, so a seed replays the same game."""

    def __init__(self, game: Any, seat: int):
        self.seat = seat

    def act(self, obs: Any, legal: Sequence[int], rng: random.Random) -> int:
        return legal[int(rng.random() * len(legal))]  # uniform_index, inline (a call per pick costs)
