"""A player that plans, for any game: information-set Monte Carlo tree search (ISMCTS).

Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012): one tree over the
searching seat's moves and everyone else's, built over many determinisations. Each
iteration re-deals what the seat cannot see (the state's own ``scrambled(seat, rng)``,
made playable with ``clone()``), walks the tree by UCB among the actions legal in that
deal (each child counts the iterations it was available in), adds one node, plays the
game out at random and credits every node on the way with the share of the win of the
seat that chose it. Chance steps are sampled and are not nodes of the tree (open loop),
so a deck of many outcomes does not split the statistics. The move played is the root's
most visited child.

Given a play-out policy (a factory of the rules' own players, e.g. their greedy one), the
search is guided instead, and flat: the policy's move at the seat's own observation is the
default, and up to ``width`` legal moves (it and others drawn at random) are compared. Each
iteration re-deals once and plays every candidate out on that deal with one and the same
random stream (common random numbers), every seat's player a fresh policy player choosing
from its own observation of the re-dealt game, so no opponent plays as if it saw the
searcher's hand and the comparison of two moves is not drowned by the luck of the deal. The
policy's move is kept unless another one beats it on these paired games by ``margin``
standard errors: with few iterations the player is the policy, with more it departs from it
where the evidence says so.

The player never holds the state: the runner hands it a :class:`Redeal` of its seat,
which returns nothing but re-deals. A re-deal depends only on what the seat may know and
on the random source it is given (``scrambled`` gathers the unseen cards in a fixed order
before shuffling them), and the player's only random source is its seat's own stream, so
its choice depends on nothing its seat may not know: the validator's honesty probe, which
asks a copy of the player on a re-dealt copy of the game, finds the same choice.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any

from ..rules.api import CHANCE, TERMINAL, draw_outcome

KIND = "ismcts"
DEFAULT_ITERATIONS = 20  # re-deals per decision: a quick run stays quick; the strength lines measure what it buys
EXPLORATION = 0.7  # UCB's constant for rewards in [0, 1]
WIDTH = 8  # the guided search: moves compared per decision (the policy's and up to 7 others)
MARGIN = 2.0  # the guided search: standard errors by which a move must beat the policy's


class Redeal:
    """Re-deals of what one seat cannot see in the game being played: each call is a new,
    playable copy of the game in which that seat's unseen cards are dealt again with the
    random source given (the state's ``scrambled``). The runner makes one per seat whose
    player asks for it (``takes_redeals``)."""

    def __init__(self, state: Any, seat: int):
        self.state = state  # the copy the validator's probe makes maps this to the re-dealt twin
        self.seat = seat

    def __call__(self, rng: random.Random) -> Any:
        return self.state.scrambled(self.seat, rng).clone()


def can_redeal(state: Any) -> bool:
    """Whether a game's states can re-deal what a seat cannot see (what ISMCTS needs)."""
    return callable(getattr(state, "scrambled", None))


class _Node:
    """A node of the tree: the move into it was chosen by ``player``; ``wins`` sums that
    player's share of the result over the ``visits`` through it; ``avail`` counts the
    iterations in which the move was legal (UCB's total, per child)."""

    __slots__ = ("player", "visits", "wins", "avail", "children")

    def __init__(self, player: int):
        self.player = player
        self.visits = 0
        self.wins = 0.0
        self.avail = 0
        self.children: dict[int, _Node] = {}


class IsmctsAgent:
    """Chooses by ISMCTS with ``iterations`` determinisations a decision (see the module)."""

    takes_redeals = True  # the runner hands it a Redeal of its seat (see simulate)

    def __init__(self, game: Any, seat: int, iterations: int = DEFAULT_ITERATIONS,
                 playout: Callable[[Any, int], Any] | None = None, width: int = WIDTH, margin: float = MARGIN):
        self.game = game
        self.width, self.margin = width, margin  # of the guided search (with a play-out policy)
        self.seat = seat
        self.iterations = iterations
        self.playout = playout  # the players of the play-outs (a factory of the rules' agents), None: random
        self.players = game.num_players
        self.limit = game.max_game_length()  # a playout still going after this many steps is a draw
        self.redeal: Redeal | None = None

    def take_redeals(self, redeal: Redeal) -> None:
        self.redeal = redeal

    def act(self, obs: Any, legal: Sequence[int], rng: random.Random) -> int:
        if len(legal) == 1:
            return legal[0]
        if self.redeal is None:
            raise RuntimeError("the ISMCTS player was given no re-deals of the game (see cardgen.validation.ismcts)")
        if self.playout is not None:
            return self._guided(obs, legal, rng)
        root = _Node(self.seat)
        redeal, limit, n = self.redeal, self.limit, self.players
        for _ in range(self.iterations):
            state = redeal(rng)
            path: list[_Node] = []
            p, steps = _descend(state, root, path, n, rng)
            result = _playout(state, p, rng, limit - steps, n)
            for node in path:
                node.visits += 1
                node.wins += result[node.player]
        visits = {key: child.visits for key, child in root.children.items()}
        seat = self.seat
        return max(legal, key=lambda a: visits.get(a * n + seat, -1))  # the first of the most visited

    def _guided(self, obs: Any, legal: Sequence[int], rng: random.Random) -> int:
        """The guided, flat search with a play-out policy (see the module)."""
        game, n, seat, policy, limit = self.game, self.players, self.seat, self.playout, self.limit
        assert policy is not None and self.redeal is not None
        preferred = policy(game, seat).act(obs, legal, rng)
        others = [a for a in legal if a != preferred]
        if len(others) > self.width - 1:
            others = rng.sample(others, self.width - 1)
        if not others:
            return preferred
        candidates = [preferred, *others]
        gains: list[list[float]] = [[] for _ in others]  # per other move: its share less the policy move's, per deal
        for _ in range(self.iterations):
            state = self.redeal(rng)
            seed = rng.random()
            shares_of = []
            for action in candidates:
                s = state.clone()
                p = _apply(s, action)
                players = [policy(game, q) for q in range(n)]
                shares_of.append(_policy_playout(s, p, random.Random(seed), limit, players)[seat])
            for k in range(len(others)):
                gains[k].append(shares_of[k + 1] - shares_of[0])
        return _confident_best(preferred, others, gains, self.margin)


def _confident_best(preferred: int, others: list[int], gains: list[list[float]], margin: float) -> int:
    """The move with the best mean gain over ``preferred`` among those whose gain is above
    ``margin`` standard errors of its mean; ``preferred`` if none is."""
    best, best_gain = preferred, 0.0
    for action, g in zip(others, gains):
        m = len(g)
        mean = sum(g) / m
        var = sum((x - mean) ** 2 for x in g) / (m - 1) if m > 1 else 1.0
        if mean > best_gain and mean > margin * math.sqrt(var / m) and (m > 1 or margin <= 0):
            best, best_gain = action, mean
    return best


def _descend(state: Any, node: _Node, path: list[_Node], n: int, rng: random.Random) -> tuple[int, int]:
    """Walk the tree on a re-dealt ``state`` by UCB among the moves legal in it, while every
    one has a node, then add one node; the nodes passed go into ``path``. Returns the player
    to move where the walk stopped and the steps taken. A child is keyed by its move and the
    seat that makes it (after a chance step, open loop, the seat to move may differ between
    deals); a forced move makes no node."""
    log, sqrt, rand, c = math.log, math.sqrt, rng.random, EXPLORATION
    steps = 0
    p = state.current_player()
    while p != TERMINAL:
        if p == CHANCE:
            steps += _chance(state, rng)
            p = state.current_player()
            continue
        moves = state.legal_actions()
        steps += 1
        if len(moves) == 1:
            p = _apply(state, moves[0])
            continue
        children = node.children
        fresh = [a for a in moves if a * n + p not in children]
        if fresh:
            action = fresh[int(rand() * len(fresh))]
            node = children[action * n + p] = _Node(p)
            for a in moves:
                if a * n + p in children:
                    children[a * n + p].avail += 1
            path.append(node)
            return _apply(state, action), steps
        best, best_score = moves[0], -1.0
        for a in moves:
            child = children[a * n + p]
            child.avail += 1
            score = child.wins / child.visits + c * sqrt(log(child.avail) / child.visits)
            if score > best_score:
                best, best_score = a, score
        node = children[best * n + p]
        path.append(node)
        p = _apply(state, best)
    return p, steps


def _apply(state: Any, action: int) -> int:
    """Apply ``action``; the player to move next."""
    p = state.apply_action(action)
    return p if p.__class__ is int else state.current_player()


def _chance(state: Any, rng: random.Random) -> int:
    """Play the chance steps up to the next decision; how many there were."""
    run = getattr(state, "apply_chance_run", None)
    if run is not None:
        return len(run(rng))
    sample = getattr(state, "sample_chance", None)
    state.apply_action(sample(rng) if sample is not None else draw_outcome(state.chance_outcomes(), rng))
    return 1


def _playout(state: Any, p: int, rng: random.Random, budget: int, players: int) -> list[float]:
    """Play on at random from ``state`` (``p`` to move) to the end; each seat's share of the
    win (an even share each for a draw, or a game still going after ``budget`` steps)."""
    pick = getattr(state, "legal_at", None)
    legal_actions, current_player, apply_action = state.legal_actions, state.current_player, state.apply_action
    rand = rng.random
    while p != TERMINAL:
        if budget <= 0:
            return [1.0 / players] * players
        if p == CHANCE:
            budget -= _chance(state, rng)
            p = current_player()
            continue
        if pick is not None:
            action = pick(rand())
        else:
            moves = legal_actions()
            action = moves[int(rand() * len(moves))]
        p = apply_action(action)
        if p.__class__ is not int:
            p = current_player()
        budget -= 1
    return shares(state.returns())


def _policy_playout(state: Any, p: int, rng: random.Random, budget: int, players: list) -> list[float]:
    """:func:`_playout` with ``players`` choosing (each from its seat's observation of the
    re-dealt game, as in a real game)."""
    n = len(players)
    legal_actions, current_player, apply_action = state.legal_actions, state.current_player, state.apply_action
    observation = state.observation
    acts = [q.act for q in players]
    while p != TERMINAL:
        if budget <= 0:
            return [1.0 / n] * n
        if p == CHANCE:
            budget -= _chance(state, rng)
            p = current_player()
            continue
        moves = legal_actions()
        action = moves[0] if len(moves) == 1 else acts[p](observation(p), moves, rng)
        p = apply_action(action)
        if p.__class__ is not int:
            p = current_player()
        budget -= 1
    return shares(state.returns())


def shares(returns: Sequence[float]) -> list[float]:
    """Each seat's share of a win: split between the seats with the best return, and even
    when every return is the same (a draw)."""
    best = max(returns)
    if best == min(returns):
        return [1.0 / len(returns)] * len(returns)
    k = sum(1 for r in returns if r == best)
    return [1.0 / k if r == best else 0.0 for r in returns]

