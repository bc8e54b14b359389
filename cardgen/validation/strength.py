"""How strong the player that plans is: ISMCTS at one seat against greedy players at the
others, the ISMCTS seat taking each seat in turn over the same seeds (each deal is played
once with ISMCTS at every seat, so no seat's advantage counts for or against it), and
its win rate with a 95 % interval against the fair share 1/n.

Also where the command line and the runner get an ``ismcts`` player for any game."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from ..base.errors import CardgenError
from ..rules.api import RuleViolation
from ..rules.guard import call_rules
from .ismcts import DEFAULT_ITERATIONS, KIND, IsmctsAgent, can_redeal
from .simulate import wilson

AGAINST = "greedy"


def ismcts_factory(rules: Any, iterations: int = DEFAULT_ITERATIONS) -> Callable[[Any, int], Any]:
    """The ``ismcts`` player of a game's rules (picklable, for worker processes): guided by the
    rules' greedy player where they have one (its move unless paired play-outs show a better
    one, see :mod:`.ismcts`), else a tree search with random play-outs."""
    return functools.partial(IsmctsAgent, iterations=iterations, playout=rules.agents.get(AGAINST))


def kinds_with_ismcts(rules: Any, wanted: tuple[str, ...]) -> list[str]:
    """The player kinds to play: the rules' own (those asked, or all), and ``ismcts`` when asked."""
    kinds = [k for k in rules.agents if not wanted or k in wanted]
    if KIND in wanted and KIND not in rules.agents:
        kinds.append(KIND)
    return kinds


def redeal_problem(rules: Any, game: Any, setup: str, players: int) -> str | None:
    """Why ``ismcts`` cannot play this game (its states cannot re-deal what a seat cannot
    see), or None."""
    config = f"setup '{setup}', {players} players"
    gamedef = call_rules("load()", rules.load, game, players, setup, config=config)
    state = call_rules("new_initial_state()", gamedef.new_initial_state, config=config)
    if can_redeal(state):
        return None
    return (f"the rules of '{game.id}' cannot re-deal what a seat cannot see (their state has no"
            f" scrambled(seat, rng)): the ismcts player needs it")


class Duel:
    """The players of a strength game: ISMCTS at ``seat``, the rules' greedy player at the
    others (each :class:`Watched`)."""

    def __init__(self, seat: int, ismcts: Callable[[Any, int], Any], greedy: Callable[[Any, int], Any]):
        self.seat, self.ismcts, self.greedy = seat, ismcts, greedy

    def __call__(self, gamedef: Any, seat: int) -> Any:
        return self.ismcts(gamedef, seat) if seat == self.seat else Watched(self.greedy, gamedef, seat)


class Watched:
    """A greedy player of a strength game, each of whose decisions is asked again of a greedy
    player made at that decision, with the same random draws (cheap beside the search's own
    play-outs, which make one per seat each). The player that plans makes greedy players
    mid-game, for its default move and its play-outs: one that decides on more than its
    observation (something it counted at its first look, say) plays otherwise there than at
    the table, and the search judges its moves against opponents unlike the real ones. Such
    a game fails, with its seed. The checks change no decision: the seat's random source is
    put back after each."""

    def __init__(self, make: Callable[[Any, int], Any], gamedef: Any, seat: int):
        self.make, self.gamedef, self.seat = make, gamedef, seat
        self.player = make(gamedef, seat)

    def act(self, obs: Any, legal: Any, rng: Any) -> int:
        before = rng.getstate()
        fresh = self.make(self.gamedef, self.seat).act(obs, list(legal), rng)
        rng.setstate(before)
        action: int = self.player.act(obs, legal, rng)
        if fresh != action:
            raise RuleViolation(f"seat {self.seat + 1}'s greedy player chose action {action}, but a greedy player made"
                                f" at that decision chose {fresh} on the same observation: the player that plans"
                                " makes greedy players mid-game, so a greedy player must decide from its"
                                " observation alone (see Writing rules, The players)")
        return action


def duel_label(setup: str, players: int, seat: int) -> str:
    return f"{setup}, {players} players, ismcts at seat {seat + 1} against {AGAINST}"


def duels(rules: Any, gamedef: Any, ismcts: Callable[[Any, int], Any] | None) -> list[tuple[str, Duel]]:
    """The strength configurations of one game definition: (label, players) per ISMCTS seat;
    none without ``ismcts`` or when the rules have no greedy player."""
    greedy = rules.agents.get(AGAINST)
    if greedy is None or ismcts is None:
        return []
    n = gamedef.num_players
    return [(duel_label(gamedef.setup, n, k), Duel(k, ismcts, greedy)) for k in range(n)]


def strength(results: list[tuple[str, int, int, dict[str, Any]]]) -> list[dict[str, Any]]:
    """The strength lines from the figures of the duel configurations, given as
    (setup, players, ISMCTS seat, figures): per setup and player count, the games ISMCTS won
    over every seat, its rate with a 95 % interval, and the fair share."""
    out: dict[tuple[str, int], dict[str, Any]] = {}
    for setup, players, seat, fig in results:
        line = out.setdefault((setup, players), {"agent": KIND, "against": AGAINST, "setup": setup,
                                                 "players": players, "games": 0, "wins": 0, "failures": 0})
        line["games"] += fig["completed"]
        line["wins"] += fig["seats"][seat]["wins"]
        line["failures"] += fig["failure_count"]
    for line in out.values():
        n, w = line["games"], line["wins"]
        lo, hi = wilson(w, n)
        line["rate"] = w / n if n else None
        line["ci95"] = [lo, hi]
        line["fair_share"] = 1 / line["players"]
        line["verdict"] = ("stronger" if lo is not None and lo > line["fair_share"] else
                           "weaker" if hi is not None and hi < line["fair_share"] else "no clear difference")
    return list(out.values())


def ismcts_for(rules: Any, game: Any, setups: list[str], players: list[int], kinds: list[str],
               iterations: int) -> Callable[[Any, int], Any] | None:
    """The ``ismcts`` player when it is among ``kinds`` (else None); a one-line error when the
    game's states cannot re-deal what a seat cannot see."""
    if KIND not in kinds:
        return None
    problem = redeal_problem(rules, game, setups[0], players[0]) if setups and players else None
    if problem:
        raise CardgenError(problem)
    return ismcts_factory(rules, iterations)
