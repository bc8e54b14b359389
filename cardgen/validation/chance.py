"""Chance, tested: do the engine's chance outcomes follow the distribution it declares?

Every chance step of a validation pass is seen with the outcomes and probabilities its
state declares (:meth:`~cardgen.rules.api.State.chance_outcomes`) and the outcome drawn.
The draws of one node kind (a state's optional ``chance_kind()``, e.g. "deal", "draw",
"die"; else "chance") are pooled over the games of one configuration (the games of
different configurations share their seeds, and so often their deals: they are judged
apart), through the probability integral transform: a draw of the outcome at declared position
``i`` becomes ``u = P(before i) + P(i) · v`` with ``v`` uniform from a random source of
the test's own (never chance's nor a player's). If the engine draws as it declares,
every ``u`` is uniform on [0, 1) and independent of the others, whatever the outcomes
and probabilities at each step; a biased draw (an outcome never drawn, the lowest card
always, a deck never shuffled) piles the ``u`` up somewhere. The ``u`` are counted in
:data:`BINS` equal bins and Pearson's chi-square test (``BINS - 1`` degrees of freedom)
judges each kind of each configuration; with ``k`` such tests in a pass each is judged at
``FALSE_ALARM / k`` (Bonferroni, valid whatever ties the tests together), so that a
correct engine fails a pass by chance at most once in 10,000 passes.

A kind with fewer than :data:`MIN_DRAWS` draws is not judged (said so in the report).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from itertools import accumulate
from typing import Any

from ..rules.api import RuleViolation

BINS = 10
FALSE_ALARM = 1e-4  # the chance that a correct engine fails a whole pass's chance test
FALSE_ALARM_TEXT = "1 in 10,000 passes"
MIN_DRAWS = 20 * BINS  # fewer draws of a kind: not judged (the chi-square approximation needs counts)

Tally = dict[str, list[int]]  # per node kind: the draws counted per bin of u


def pit_rng(seed: int) -> random.Random:
    """The test's own random source for one game (the ``v`` of the transform)."""
    return random.Random(f"cardgen chance test of game {seed}")


def record(state: Any, action: int, tally: Tally, rng: random.Random, checker: Any = None) -> None:
    """One chance step of ``state`` (before ``action`` is applied): the outcome must be among
    the declared ones, the declared probabilities a distribution, the checker's own (the
    rulebook's) distribution the same where the checker has one (its optional
    ``chance(state, outcomes)``); then its ``u`` is counted under its node kind."""
    outcomes = state.chance_outcomes()
    if checker is not None:
        own = getattr(checker, "chance", None)
        if own is not None:
            own(state, outcomes)
    _count(state, action, outcomes, tally, rng, getattr(state, "chance_kind", None))


def _count(state: Any, action: int, outcomes: Sequence[tuple[int, float]], tally: Tally, rng: random.Random,
           kind: Any) -> None:
    """The declared outcomes judged and the draw's ``u`` counted (see :func:`record`)."""
    actions, probs = zip(*outcomes) if outcomes else ((), ())
    try:
        first = actions.index(action)
    except ValueError:
        raise RuleViolation(f"chance outcome {_words(state, action)} is not among the announced outcomes") from None
    # left to right, as a running sum: the very floats of a plain loop (``sum`` may differ)
    running = list(accumulate(probs))
    total = running[-1] + 0.0
    below = running[first - 1] + 0.0 if first else 0.0
    p = probs[first]
    if actions.count(action) > 1:  # an outcome declared twice: its last probability is the one judged
        p = probs[len(actions) - 1 - actions[::-1].index(action)]
    if abs(total - 1.0) > 1e-6 or p <= 0:
        raise RuleViolation(f"the chance step declares probabilities that add up to {total:.6g}, not 1"
                            if abs(total - 1.0) > 1e-6 else
                            f"chance drew {_words(state, action)}, which it declares with probability {p}")
    u = (below + p * rng.random()) / total
    name = str(kind()) if kind is not None else "chance"
    bins = tally.get(name)
    if bins is None:
        bins = tally[name] = [0] * BINS
    bins[min(int(u * BINS), BINS - 1)] += 1


def record_run(shadow: Any, drawn: Sequence[int], tally: Tally, rng: random.Random, checker: Any = None,
               every_step: bool = True) -> None:
    """A run of chance steps taken at once (the fast path), replayed on ``shadow``, a copy of
    the state from before the run: each step recorded as :func:`record` does, with the
    checker's own distribution at each step (``every_step``, the deep pass) or at the run's
    first and last (the quick pass)."""
    last = len(drawn) - 1
    own = getattr(checker, "chance", None) if checker is not None else None
    kind = getattr(shadow, "chance_kind", None)
    outcomes_of, apply_action = shadow.chance_outcomes, shadow.apply_action
    for i, action in enumerate(drawn):
        outcomes = outcomes_of()
        if own is not None and (every_step or not i or i == last):
            own(shadow, outcomes)
        _count(shadow, action, outcomes, tally, rng, kind)
        if i < last:  # after the last draw the copy is not read again (the game itself took the run)
            apply_action(action)


def recorder(state: Any, tally: Tally, rng: random.Random, checker: Any = None) -> Callable[[int], None]:
    """What a state's ``apply_chance_run(rng, before=...)`` calls with each action it draws,
    on the state just before it applies it: the step recorded as :func:`record` does, with
    the checker's own distribution at every step (the run's last is not known before it is
    drawn). The same tallies as :func:`record_run` on a clone, without the clone."""
    own = getattr(checker, "chance", None) if checker is not None else None
    kind = getattr(state, "chance_kind", None)
    outcomes_of = state.chance_outcomes

    def before(action: int) -> None:
        outcomes = outcomes_of()
        if own is not None:
            own(state, outcomes)
        _count(state, action, outcomes, tally, rng, kind)

    return before


def merge(into: Tally, other: Tally) -> None:
    for kind, bins in other.items():
        mine = into.setdefault(kind, [0] * len(bins))
        for i, k in enumerate(bins):
            mine[i] += k


def chi2_sf(x: float, df: int) -> float:
    """P(X ≥ x) for X chi-square with ``df`` degrees of freedom (the regularized upper
    incomplete gamma function Q(df/2, x/2), by its series or continued fraction)."""
    if x <= 0:
        return 1.0
    a, z = df / 2.0, x / 2.0
    lg = math.lgamma(a)
    if z < a + 1:  # series for P, then Q = 1 - P
        term = total = 1.0 / a
        n = a
        for _ in range(500):
            n += 1
            term *= z / n
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(-z + a * math.log(z) - lg))
    # Lentz's continued fraction for Q
    tiny = 1e-300
    b = z + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 500):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return min(1.0, math.exp(-z + a * math.log(z) - lg) * h)


def judge(tallies: Sequence[tuple[str, Tally]], false_alarm: float = FALSE_ALARM) -> dict[str, Any]:
    """The test of a pass: ``tallies`` are (configuration, its tally); per configuration and
    node kind its draws, chi-square, p-value and verdict, each judged at ``false_alarm``
    divided by the number of tests made (kinds with too few draws are not judged)."""
    tests = []
    for label, tally in tallies:
        for kind in sorted(tally):
            bins = tally[kind]
            n = sum(bins)
            test: dict[str, Any] = {"config": label, "kind": kind, "draws": n, "judged": n >= MIN_DRAWS, "ok": True}
            if test["judged"]:
                e = n / len(bins)
                x = sum((k - e) ** 2 for k in bins) / e
                test.update(chi2=round(x, 2), p=float(f"{chi2_sf(x, len(bins) - 1):.3g}"), bins=list(bins))
            tests.append(test)
    judged = [t for t in tests if t["judged"]]
    level = false_alarm / len(judged) if judged else false_alarm
    for t in judged:
        t["ok"] = t["p"] >= level
    kinds: dict[str, Any] = {}
    for t in tests:
        k = kinds.setdefault(t["kind"], {"configs": 0, "judged": 0, "draws": 0, "smallest_p": None, "ok": True})
        k["configs"] += 1
        k["draws"] += t["draws"]
        if t["judged"]:
            k["judged"] += 1
            k["smallest_p"] = t["p"] if k["smallest_p"] is None else min(k["smallest_p"], t["p"])
        k["ok"] = k["ok"] and t["ok"]
    return {"test": f"chi-square on {BINS} bins of the probability integral transform, per configuration and node"
                    " kind", "false_alarm": FALSE_ALARM_TEXT if false_alarm == FALSE_ALARM else f"{false_alarm:g} a pass",
            "tests": len(judged), "level_each": level, "kinds": kinds, "failed": [t for t in tests if not t["ok"]],
            "ok": all(t["ok"] for t in tests)}


def failure_message(test: dict[str, Any], false_alarm: str) -> str:
    return (f"chance node '{test['kind']}': the {test['draws']} outcomes drawn in these games do not follow the"
            f" distribution the engine declares (chi-square {test['chi2']}, p = {test['p']:.3g}; a correct"
            f" engine fails this test {false_alarm})")


def _words(state: Any, action: int) -> str:
    try:
        return repr(state.action_to_string(action))
    except Exception:  # the words are a courtesy
        return str(action)
