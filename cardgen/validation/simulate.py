"""The generic runner: plays seeded games through any game's rules API and checks them.

Game ``i`` of every configuration (setup × player count × player kind) is played
with ``random.Random(seed + i)`` for chance (the deal, draws, dice) and, for each
seat's player, a stream of its own made from the same seed (:func:`player_rng`), so
a failure is replayed by its seed alone and no player can read the dice off its
random source.

Checks per step: the rules module's checker sees every action before it is
applied (``before``, which judges it by the rules) and the state after it
(``after``); the cheap checks run every step, the full ones (e.g. every card
exactly once) every ``check_every`` steps, after the deal and at the end. A run of
chance steps (a deal, the draws that refill hands) is checked where it ends: in full
if it was the first or took in a full-check step, else by the cheap checks. The
runner itself checks at every step that a game that is not over has a legal action,
on full-check steps that the agent's choice is one of them
(and that the player ``apply_action`` returned, if it returns one, is
``current_player()``), on the step-by-step path that chance outcomes are among
the announced ones, and that the game ends within the rules' generous length
limit. The hot loop keeps to the optional fast paths of :mod:`cardgen.rules.api`
(the next player returned by ``apply_action``, the whole deal at once, a random
player's pick without the list of legal actions) when a state offers them.

Honest players: a player is given a fresh observation at each decision (the generic
random player, which reads none, is given None). On full-check steps the runner checks
that it holds plain values only, and, where the state can re-deal the hidden
information (``scrambled``), that the observation and the legal actions are the same
on a re-dealt copy and that a copy of the player chooses there as the player does.
"""

from __future__ import annotations

import copy
import inspect
import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..rules.api import (
    CHANCE,
    TERMINAL,
    RandomAgent,
    RuleViolation,
    observation_leak,
    player_rng,
    sample_chance,
    uniform_index,
)
from ..rules.guard import call_rules
from . import cardstats
from . import chance as chance_test
from .ismcts import Redeal

DEFAULT_CHECK_EVERY = 16
KEEP_FAILURES = 5


@dataclass
class GameOutcome:
    seed: int
    status: str  # "ok", "failure", "nonterminating"
    steps: int
    length: int
    winners: tuple[int, ...] = ()
    message: str = ""
    figures: dict[str, Any] | None = None  # the engine's own per-game figures, if it has any
    holders: dict[str, tuple[int, ...]] | None = None  # the seats that held or played each card (see .cardstats)


@dataclass
class ConfigResult:
    setup: str
    players: int
    agents: str
    must_finish: bool
    games: int = 0
    completed: int = 0
    lengths: list[int] = field(default_factory=list)
    wins: list[int] = field(default_factory=list)
    draws: int = 0
    nonterminating: list[int] = field(default_factory=list)
    failures: list[GameOutcome] = field(default_factory=list)
    failure_count: int = 0
    elapsed: float = 0.0
    samples: dict[str, list[float]] = field(default_factory=dict)  # per-game figures, pooled
    chance: dict[str, list[int]] = field(default_factory=dict)  # chance draws per node kind (see .chance)
    cards: cardstats.Tally = field(default_factory=dict)  # per card: holdings and the holders' wins

    def add_figures(self, figures: dict[str, Any]) -> None:
        for name, value in figures.items():
            bucket = self.samples.setdefault(name, [])
            if isinstance(value, (list, tuple)):
                bucket.extend(float(v) for v in value)
            else:
                bucket.append(float(value))

    @property
    def ok(self) -> bool:
        return self.failure_count == 0 and not (self.must_finish and self.nonterminating)

    def figures(self) -> dict[str, Any]:
        lengths = sorted(self.lengths)
        # a seat's fair share of wins: the games someone won, split evenly between the seats
        fair = (self.completed - self.draws) / self.completed / len(self.wins) if self.completed and self.wins \
            else None
        seats = []
        for s, w in enumerate(self.wins):
            lo, hi = wilson(w, self.completed)
            seats.append({"seat": s + 1, "wins": w, "rate": w / self.completed if self.completed else None,
                          "ci95": [lo, hi]})
        return {
            "setup": self.setup,
            "players": self.players,
            "agents": self.agents,
            "games": self.games,
            "completed": self.completed,
            "completion_rate": self.completed / self.games if self.games else None,
            "length_unit": "turns",
            "length": {
                "median": percentile(lengths, 50),
                "p95": percentile(lengths, 95),
                "min": lengths[0] if lengths else None,
                "max": lengths[-1] if lengths else None,
                "mean": sum(lengths) / len(lengths) if lengths else None,
                "histogram": distribution([float(x) for x in lengths])["histogram"] if lengths else [],
            },
            "seats": seats,
            "fair_share": fair,
            "draws": self.draws,
            "nonterminating": {"count": len(self.nonterminating), "seeds": self.nonterminating[:50],
                               "counts_as_failure": self.must_finish},
            "failures": [{"seed": f.seed, "step": f.steps, "turn": f.length, "message": f.message}
                         for f in self.failures],
            "failure_count": self.failure_count,
            "figures": {name: distribution(values) for name, values in self.samples.items()},
            "elapsed_s": round(self.elapsed, 4),
            "games_per_s": round(self.games / self.elapsed, 1) if self.elapsed > 0 else None,
            "ok": self.ok,
            **({"cards": cardstats.figures(self.cards)} if self.cards else {}),
        }


def wilson(successes: int, n: int, z: float = 1.959963984540054) -> tuple[float | None, float | None]:
    """Wilson score interval for a proportion (95 % by default)."""
    if n <= 0:
        return (None, None)
    p = successes / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mark_seat_balance(configs: list[dict[str, Any]], alpha: float = 0.05) -> dict[str, Any]:
    """Mark each seat of each configuration's figures whose wins lie, beyond doubt, above
    or below the fair share (``vs_fair_share``: "above", "below" or "fair").

    A report holds many seats (Hâpy's quick pass: 90), so at 95 % each a few would
    stand out by chance alone; the intervals used here are widened for the number of
    seats judged (Bonferroni), so that all of them together are wrong at most ``alpha``
    of the time. Returns what was judged, for the report."""
    judged = [(c, seat) for c in configs if c.get("fair_share") is not None for seat in c["seats"]]
    if not judged:
        return {"seats_judged": 0}
    z = statistics.NormalDist().inv_cdf(1 - alpha / (2 * len(judged)))
    for c, seat in judged:
        lo, hi = wilson(seat["wins"], c["completed"], z)
        fair = c["fair_share"]
        seat["vs_fair_share"] = "above" if lo > fair else "below" if hi < fair else "fair"
        seat["balance_interval"] = [lo, hi]
    return {"seats_judged": len(judged), "confidence_each": 1 - alpha / len(judged), "confidence_all": 1 - alpha}


def percentile(sorted_values: Sequence[float], q: float) -> float | None:
    """Nearest-rank percentile of sorted values."""
    if not sorted_values:
        return None
    if q == 50:
        n = len(sorted_values)
        mid = n // 2
        return float(sorted_values[mid]) if n % 2 else (sorted_values[mid - 1] + sorted_values[mid]) / 2
    rank = max(1, math.ceil(q / 100 * len(sorted_values)))
    return float(sorted_values[rank - 1])


def distribution(values: list[float], bins: int = 10) -> dict[str, Any]:
    """Summary of one per-game figure: mean, spread, percentiles and a histogram.

    The histogram has at most ``bins`` equal-width bins over [min, max] (one bin per
    value when the values are few whole numbers), as ``[[low, high, count], …]``."""
    xs = sorted(values)
    n = len(xs)
    if not n:
        return {"n": 0}
    mean = sum(xs) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1)) if n > 1 else 0.0
    lo, hi = xs[0], xs[-1]
    whole = all(x == int(x) for x in xs)
    if whole and hi - lo < bins:
        edges = [lo + k for k in range(int(hi - lo) + 2)]
    else:
        width = (hi - lo) / bins or 1.0
        if whole:
            width = math.ceil(width)
        edges = [lo + k * width for k in range(bins + 1)]
        if edges[-1] < hi:
            edges.append(edges[-1] + width)
    counts = [0] * (len(edges) - 1)
    for x in xs:
        k = min(int((x - lo) // (edges[1] - edges[0])), len(counts) - 1)
        counts[k] += 1
    hist = [[edges[k], edges[k + 1] - (1 if whole else 0), c] for k, c in enumerate(counts)]
    return {"n": n, "mean": round(mean, 3), "sd": round(sd, 3), "min": lo, "p5": percentile(xs, 5),
            "median": percentile(xs, 50), "p95": percentile(xs, 95), "max": hi, "histogram": hist}


Trace = Callable[[int, int, str], None]  # (step, seat or CHANCE, or -2 for a step's outcome, or TERMINAL, text)


def play_game(gamedef: Any, make_agent: Callable[[Any, int], Any], seed: int,
              check_every: int = DEFAULT_CHECK_EVERY, trace: Trace | None = None,
              final: list | None = None, chance: chance_test.Tally | None = None) -> GameOutcome:
    """Play one seeded game with every check on; never raises for a game's fault once it
    has begun (a rules module that cannot begin one raises :class:`RulesCrash`).

    The chance fast path is taken whether or not the game is traced (the trace reads
    the words of each draw off a copy), so a replay runs the same code and fails at
    the same step.
    ``final``: a list that receives the state as the game left it (e.g. to draw it).
    ``chance``: a tally that receives every chance step's draw with what the state declared
    (see :mod:`.chance`), each step checked against the checker's own distribution too."""
    game = _Play(gamedef, make_agent, seed, check_every, trace, final, chance)
    state = game.state
    try:
        game.loop()
        figures = game.finish()
        holders = cardstats.holders_of(state, gamedef.num_players)
    except _TooLong:
        return _unfinished(seed, game.step, state)
    except RuleViolation as exc:
        return GameOutcome(seed, "failure", game.step, _length(state), message=str(exc))
    except Exception as exc:  # a crash in a rules engine is a finding, reported with its seed
        return GameOutcome(seed, "failure", game.step, _length(state), message=f"the engine crashed: "
                           f"{type(exc).__name__}: {exc}")
    return GameOutcome(seed, "ok", game.step, state.length(), _winners(state.returns()), figures=figures,
                       holders=holders)


class _TooLong(Exception):
    """The game is still going at the rules' length limit (nonterminating, not a failure)."""


def _winners(returns: list[float]) -> tuple[int, ...]:
    """The seats (from 0) with the best return, or none if all returns are equal (a draw)."""
    best = max(returns) if returns else 0
    return tuple(s for s, r in enumerate(returns) if r == best) if returns and best > min(returns) else ()


class _Play:
    """One seeded game being played: its state, players, checker and random sources.

    ``step`` is the number of steps played so far (kept exact when a check fails)."""

    def __init__(self, gamedef: Any, make_agent: Callable[[Any, int], Any], seed: int, check_every: int,
                 trace: Trace | None, final: list | None, chance: chance_test.Tally | None) -> None:
        self.gamedef = gamedef
        self.seed = seed
        self.check_every = check_every
        self.trace = trace
        self.rng = random.Random(seed)  # chance only: deals, draws, dice
        n = gamedef.num_players
        # each seat's own stream, apart from chance: a player that read its random source
        # could otherwise foresee the next roll or draw
        self.seat_rngs = [player_rng(seed, s) for s in range(n)]
        config = f"setup '{gamedef.setup}', {n} players"  # a crash before the first step stops the run: no game to fail
        state = self.state = call_rules("new_initial_state()", gamedef.new_initial_state, config=config)
        if final is not None:
            final.append(state)
        agents = self.agents = [call_rules(f"making seat {s + 1}'s player", make_agent, gamedef, s, config=config)
                                for s in range(n)]
        self.checker = call_rules("checker()", gamedef.checker, config=config)
        self.limit: int = call_rules("max_game_length()", gamedef.max_game_length, config=config)
        # the fast chance run is taken with or without a trace, so that a replay (which traces)
        # plays the very code path of the run that failed
        self.chance_run: Callable[..., list[int]] | None = getattr(state, "apply_chance_run", None)
        # the chance test reads each step of a run on the state itself where the run can say each
        # draw before it applies it, and where that checks what a replay on a clone would (the
        # checker's own distribution, if any, at every step: the deep pass's, on a clone)
        self.run_says = (chance is not None and trace is None and _says_draws(self.chance_run)
                         and (getattr(self.checker, "chance", None) is None or check_every == 1))
        self.sample: Callable[[random.Random], int] | None = getattr(state, "sample_chance", None)
        # what a step did, for --trace
        self.outcome: Callable[[Any], str] | None = \
            getattr(state, "outcome_text", None) if trace is not None else None
        # a random player's pick needs no list of legal actions where the state can index them
        self.legal_at: Callable[[float], int | None] | None = getattr(state, "legal_at", None)
        # the generic random player reads nothing of its observation: it is given none, and not probed
        self.blind = [type(a).act is RandomAgent.act for a in agents]
        # on sampled steps, each player is asked again on a copy whose hidden information is
        # re-dealt (a state's optional scrambled(seat, rng)) and must decide alike
        self.scrambled: Callable[[int, random.Random], Any] | None = getattr(state, "scrambled", None)
        if self.scrambled is not None:  # a player that plans is handed re-deals of what its seat cannot see
            for s, agent in enumerate(agents):
                if getattr(agent, "takes_redeals", False):
                    agent.take_redeals(Redeal(state, s))
        self.kinds = [type(a).__name__ for a in agents]
        self.probes = _Probes(seed)
        self.tally = (chance, chance_test.pit_rng(seed)) if chance is not None else None
        self.step = 0

    def loop(self) -> None:
        """Plays the game to its end; raises :class:`RuleViolation` at a broken rule and
        :class:`_TooLong` at the length limit."""
        # hot loop: bound methods and fixed values in locals
        state = self.state
        current_player = state.current_player
        legal_actions = state.legal_actions
        apply_action = state.apply_action
        before = self.checker.before
        after = self.checker.after
        check_every, limit, trace = self.check_every, self.limit, self.trace
        acts = [a.act for a in self.agents]
        # a random player's pick by index, per seat (None: the player is asked with the list)
        pickers = [self.legal_at if b else None for b in self.blind]
        seat_rngs, blind, observation = self.seat_rngs, self.blind, state.observation
        step = 0
        earlier = None
        try:
            p = current_player()
            while True:
                if p < 0:
                    if p == TERMINAL:
                        return
                    self.step = step
                    p = self._chance_steps(p)
                    step = self.step
                    continue
                if step >= limit:
                    raise _TooLong
                full = not (step + 1) % check_every
                pick = pickers[p]
                if pick is not None:
                    u = seat_rngs[p].random()
                    action = pick(u)
                    if action is None:
                        raise RuleViolation(f"seat {p + 1} has no legal action although the game is not over")
                    if full:  # sampled: the action drawn is the one the list gives
                        _check_legal_at(legal_actions(), u, action)
                else:
                    legal = legal_actions()
                    if not legal:
                        raise RuleViolation(f"seat {p + 1} has no legal action although the game is not over")
                    if full:
                        action = self._decide_sampled(p, legal)
                    else:
                        action = acts[p](None if blind[p] else observation(p), legal, seat_rngs[p])
                if trace is not None:
                    earlier = self._trace_action(step, p, action)
                before(state, p, action)
                p = apply_action(action)
                if p.__class__ is not int:  # apply_action may return the new current player
                    p = current_player()
                elif full and p != current_player():
                    raise RuleViolation(f"applying {action} returned player {p}, but {current_player()} is to move")
                if earlier is not None:
                    self._trace_outcome(step, earlier)
                step += 1
                after(state, full)
        finally:  # the steps played, whichever of the loop and a chance run counted last
            if step > self.step:
                self.step = step

    def _chance_steps(self, p: int) -> int:
        """Plays a run of chance steps (a deal, the draws that refill hands) from ``self.step``
        and checks the state where it ends: in full after the first run (the deal) and after a
        run that reaches a full-check step, else by the cheap checks. Returns the player to
        move after it."""
        if p != CHANCE:
            raise RuleViolation(f"current player {p} is neither a seat, chance nor terminal")
        run_from = self.step  # the step where the run began
        current_player = self.state.current_player
        while p == CHANCE:
            if self.step >= self.limit:
                raise _TooLong
            if self.chance_run is not None:  # fast path: the same draws as one by one
                self._fast_chance(self.chance_run)
            else:
                self._slow_chance(p)
            p = current_player()
        every = self.check_every
        self.checker.after(self.state, not run_from or self.step // every > run_from // every)
        return p

    def _fast_chance(self, chance_run: Callable[..., list[int]]) -> None:
        """The state's whole run of chance steps at once (``apply_chance_run``)."""
        trace, tally = self.trace, self.tally
        if self.run_says and tally is not None:  # each draw recorded on the state as the run reaches it
            self.step += len(chance_run(self.rng, before=chance_test.recorder(self.state, tally[0], tally[1],
                                                                              self.checker)))
            return
        # a copy from before the run: for the words of each draw, and for what each step declared
        shadow = self.state.clone() if trace is not None or tally is not None else None
        drawn = chance_run(self.rng)
        if trace is not None and shadow is not None:
            _trace_run(trace, self.step, shadow.clone() if tally is not None else shadow, drawn)
        if tally is not None:
            chance_test.record_run(shadow, drawn, tally[0], tally[1], self.checker, self.check_every == 1)
        self.step += len(drawn)

    def _slow_chance(self, p: int) -> None:
        """One chance step, drawn among the outcomes the state announces."""
        state = self.state
        action = self.sample(self.rng) if self.sample is not None else sample_chance(state, self.rng)
        if self.tally is not None:
            chance_test.record(state, action, self.tally[0], self.tally[1], self.checker)
        elif action not in [a for a, _ in state.chance_outcomes()]:
            raise RuleViolation(f"chance outcome {action} is not among the announced outcomes")
        if self.trace is not None:
            self.trace(self.step, p, state.action_to_string(action))
        state.apply_action(action)
        self.step += 1

    def _decide_sampled(self, p: int, legal: list[int]) -> int:
        """A player's decision on a full-check step: the observation is a copy, the player
        decides on it alone, and its choice is legal."""
        obs = None if self.blind[p] else self.state.observation(p)
        probe = None
        if obs is not None:
            probe = _honesty_probe(self.gamedef, self.state, p, obs, legal, self.agents[p], self.seat_rngs[p],
                                   self.rng, self.probes, self.scrambled)
        action: int = self.agents[p].act(obs, legal, self.seat_rngs[p])
        if action not in legal:  # the checker judges every action by the rules
            raise RuleViolation(f"seat {p + 1} chose action {action}, which is not legal")
        if probe is not None:
            _compare_decision(self.state, probe, action, p, self.kinds[p])
        return action

    def _trace_action(self, step: int, p: int, action: int) -> Any:
        """Traces a seat's action; returns a copy of the state before it if the state can
        say what the step did (else None)."""
        assert self.trace is not None
        self.trace(step, p, self.state.action_to_string(action))
        return self.state.clone() if self.outcome is not None else None

    def _trace_outcome(self, step: int, earlier: Any) -> None:
        assert self.trace is not None and self.outcome is not None
        said = self.outcome(earlier)
        if said:
            self.trace(step, -2, f"→ {said}")

    def finish(self) -> dict[str, Any] | None:
        """The end-of-game checks (and trace); the engine's own per-game figures, if any."""
        state = self.state
        self.checker.at_end(state)
        if self.trace is not None:
            returns = state.returns()
            won = [s + 1 for s in _winners(returns)]
            self.trace(self.step, TERMINAL, f"game over after {state.length()} turns: "
                       + (f"seat {', '.join(map(str, won))} won" if won else "a draw") + f" (returns {returns})")
        return state.figures() if hasattr(state, "figures") else None


_SAYS_DRAWS: dict[Any, bool] = {}


def _says_draws(chance_run: Callable[..., list[int]] | None) -> bool:
    """Whether a state's ``apply_chance_run`` takes ``before`` (see :mod:`cardgen.rules.api`).
    Remembered per function, not per state class: a class's method may be replaced (a
    wrapper that does not take ``before``) after the class was first asked about."""
    if chance_run is None:
        return False
    function = getattr(chance_run, "__func__", chance_run)
    known = _SAYS_DRAWS.get(function)
    if known is None:
        try:
            known = "before" in inspect.signature(chance_run).parameters
        except (TypeError, ValueError):
            known = False
        _SAYS_DRAWS[function] = known
    return known


def _check_legal_at(legal: list[int], u: float, action: int) -> None:
    """On a sampled step, a random player's pick by index is the legal action the list puts there."""
    if not legal or legal[uniform_index(u, len(legal))] != action:
        raise RuleViolation(f"legal_at({u}) gave {action}, not the legal action the list puts there")


class _Probes:
    """The random sources of one game's honesty probes (made once: seeding costs), and how
    many were made."""

    __slots__ = ("seed", "scramble", "dice", "player", "count")

    def __init__(self, seed: int):
        self.seed = seed
        self.count = 0

    def start(self) -> None:
        """The sources, at the first probe of the game (a game of random players has none)."""
        self.scramble = random.Random(f"cardgen scramble of game {self.seed}")  # neither chance's nor a player's
        self.dice = random.Random(self.scramble.random())  # what a player holding chance's source would read
        self.player = random.Random(0)  # a copy of the player's own stream, set afresh for each probe


LEAK_EVERY = 4  # the walk through an observation for anything not plain: every 4th probe (and the first)


def _honesty_probe(gamedef: Any, state: Any, seat: int, obs: Any, legal: list[int], agent: Any,
                   seat_rng: random.Random, chance_rng: random.Random, probes: _Probes,
                   scrambled: Callable[[int, random.Random], Any] | None) -> Any:
    """Checks, on a sampled decision, that what ``seat`` is given holds only what it may
    know, and returns the decision a copy of its player makes on a copy of the game whose
    hidden information is re-dealt (None if the state cannot re-deal), for
    :func:`_compare_decision` to hold against the real one.

    The observation must be made of plain immutable values (nothing leads back to the
    state), and the same on the re-dealt copy; so must the legal actions. The player's
    copy is a deep copy in which the state is the re-dealt copy and chance's random
    source another one: a player that kept a way to the state or to the dice reads the
    copy's, and decides otherwise."""
    if not probes.count:
        probes.start()
    if not probes.count % LEAK_EVERY:
        leak = observation_leak(obs)
        if leak is not None:
            raise RuleViolation(f"seat {seat + 1}'s observation holds {leak}: an observation must be a copy of"
                                " plain values that cannot lead back to the state")
    probes.count += 1
    if scrambled is None:
        return None
    twin = scrambled(seat, probes.scramble)
    seen = twin.observation(seat)
    if seen != obs:
        fields = getattr(obs, "_fields", ())
        differ = [f for f in fields if getattr(seen, f, None) != getattr(obs, f, None)]
        raise RuleViolation(f"seat {seat + 1}'s observation changes when only what it may not know is re-dealt"
                            + (f" ({', '.join(differ)})" if differ else "")
                            + ": it shows hidden information")
    if twin.legal_actions() != legal:
        raise RuleViolation(f"seat {seat + 1}'s legal actions change when only what it may not know is re-dealt:"
                            " they show hidden information")
    memo = {id(state): twin, id(chance_rng): probes.dice, id(gamedef): gamedef}  # the game's rules: shared
    try:
        twin_agent = copy.deepcopy(agent, memo)
    except Exception:  # a player that cannot be copied is not probed
        return None
    probes.player.setstate(seat_rng.getstate())
    return twin_agent.act(seen, list(legal), probes.player)


def _compare_decision(state: Any, probe: Any, action: int, seat: int, kind: str) -> None:
    if probe != action:
        raise RuleViolation(f"seat {seat + 1}'s player ({kind}) chose {_words(state, action)!r}, but"
                            f" {_words(state, probe)!r} on a copy of the game whose hidden information was re-dealt:"
                            " it decides on what its seat may not know")


def _words(state: Any, action: Any) -> str:
    try:
        return f"{state.action_to_string(action)}"
    except Exception:  # the words are a courtesy: the number says it too
        return f"action {action}"


def _trace_run(trace: Trace, step: int, shadow: Any, drawn: list[int]) -> None:
    """Trace the draws of a fast chance run, each in words, read off a copy of the state
    taken before the run (the copy plays them one by one; the game itself took the run)."""
    for k, action in enumerate(drawn):
        try:
            text = shadow.action_to_string(action)
            shadow.apply_action(action)
        except Exception:  # the words are a courtesy: a copy that cannot follow still shows the number
            text = f"action {action}"
        trace(step + k, CHANCE, text)


def _unfinished(seed: int, step: int, state: Any) -> GameOutcome:
    return GameOutcome(seed, "nonterminating", step, state.length(),
                       message=f"still going after {step} steps ({state.length()} turns)")


def _length(state: Any) -> int:
    try:
        return int(state.length())
    except Exception:
        return -1


def run_config(gamedef: Any, make_agent: Callable, agents: str, must_finish: bool, games: int, seed: int,
               check_every: int = DEFAULT_CHECK_EVERY, progress: Callable[[int], None] | None = None,
               trace: Trace | None = None) -> ConfigResult:
    res = ConfigResult(gamedef.setup, gamedef.num_players, agents, must_finish)
    res.wins = [0] * gamedef.num_players
    start = time.perf_counter()
    for i in range(games):
        out = play_game(gamedef, make_agent, seed + i, check_every, trace, chance=res.chance)
        res.games += 1
        if out.status == "ok":
            res.completed += 1
            res.lengths.append(out.length)
            if out.figures:
                res.add_figures(out.figures)
            if out.holders is not None:
                cardstats.tally(res.cards, out.holders, out.winners)
            if len(out.winners) == 1:
                res.wins[out.winners[0]] += 1
            else:
                res.draws += 1
        elif out.status == "nonterminating":
            res.nonterminating.append(out.seed)
        else:
            res.failure_count += 1
            if len(res.failures) < KEEP_FAILURES:
                res.failures.append(out)
        if progress is not None and (i + 1) % 25 == 0:
            progress(25)
    if progress is not None and games % 25:
        progress(games % 25)
    res.elapsed = time.perf_counter() - start
    return res
