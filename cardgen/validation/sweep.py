"""A sweep: one validation per combination of house rules, player counts, player kinds and
setups (``cardgen validate GAME --sweep NAME=A,B,…``), put together into one report.

Each combination is a run: the game with those house rules set in its data (as if
``data.house_rules`` said so), played with those options, by the same runner and seeds
as a validation of its own, so a run's figures are those of that validation. The report
keeps the first run's deck and kit checks, a ``simulation`` holding every run's rows and
failures (each named by its run, each failure's replay command carrying the run's house
rules), and ``sweep``: the runs, each with its own simulation, and which runs' seat
balance differs from the others' (:func:`compare_runs`).
"""

from __future__ import annotations

import copy
import dataclasses
import itertools
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import yaml

from ..model.game import Game
from ..rules.options import read_house_rules
from .cardbalance import summarise as card_balance
from .chance import chi2_sf
from .runner import Progress, ValidateOptions, validate
from .simulate import mark_seat_balance

PLAYERS, AGENTS, SETUP = "players", "agents", "setup"
BUILT_IN = (PLAYERS, AGENTS, SETUP)  # what every game with rules can sweep; its house rules besides
ALPHA = 0.05  # the chance that a sweep says some run differs when none does


class SweepError(Exception):
    """A --sweep the game cannot play: one line naming what is wrong and the choices."""


@dataclasses.dataclass(frozen=True)
class Axis:
    """One swept name with its values (as played) and their words (as given)."""

    name: str
    values: tuple[Any, ...]
    texts: tuple[str, ...]
    spec: str  # the NAME=A,B,… given

    @property
    def house_rule(self) -> bool:
        return self.name not in BUILT_IN


def house_rules_of(rules: Any) -> type | None:
    """The rules' house-rule options: the frozen dataclass named by their optional
    ``house_rules`` member (read from ``data.house_rules``, see :mod:`cardgen.rules.options`)."""
    cls = getattr(rules, "house_rules", None)
    return cls if isinstance(cls, type) and dataclasses.is_dataclass(cls) else None


def read_axes(game: Game, rules: Any, specs: Sequence[str], player_counts: Sequence[int],
              setups: Sequence[str]) -> list[Axis]:
    """The axes of ``--sweep NAME=A,B,…`` options, each value checked against what the game
    offers; raises :class:`SweepError` for the first one that is wrong."""
    axes: list[Axis] = []
    for spec in specs:
        name, _, rest = spec.partition("=")
        name = name.strip()
        texts = tuple(dict.fromkeys(t.strip() for t in rest.split(",") if t.strip()))
        if not name or not texts:
            raise SweepError(f"{spec!r} is not NAME=A,B,… (e.g. players=2,3,4)")
        if any(a.name == name for a in axes):
            raise SweepError(f"'{name}' is swept twice: give its values in one --sweep {name}=A,B,…")
        values = tuple(_value(game, rules, name, t, player_counts, setups) for t in texts)
        axes.append(Axis(name, values, texts, spec))
    return axes


def _value(game: Game, rules: Any, name: str, text: str, player_counts: Sequence[int],
           setups: Sequence[str]) -> Any:
    """One value of a swept name, as played; :class:`SweepError` if the game has no such
    name or value."""
    if name == PLAYERS:
        if not text.isdigit() or int(text) not in player_counts:
            raise SweepError(f"{game.id} is played by {', '.join(map(str, player_counts))} players, not {text}")
        return int(text)
    if name == AGENTS:
        if text not in rules.agents:
            raise SweepError(f"unknown player kind {text} (known: {', '.join(rules.agents)})")
        return text
    if name == SETUP:
        if text not in setups:
            raise SweepError(f"unknown setup {text} (known: {', '.join(setups)})")
        return text
    options = house_rules_of(rules)
    known = [f.name for f in dataclasses.fields(options)] if options is not None else []
    if name not in known:
        if not known:
            raise SweepError(f"unknown sweep name '{name}': {game.id} has no house rules"
                             f" (choices: {', '.join(BUILT_IN)})")
        raise SweepError(f"unknown sweep name '{name}' (choices: {', '.join(BUILT_IN + tuple(known))})")
    assert options is not None
    value = _typed(options, name, text)
    wrong = _option_problems(options, name, value)
    if wrong:
        raise SweepError(f"{name}={text}: {wrong}")
    return value


def _typed(options: type, name: str, text: str) -> Any:
    """The word of a house rule as the data would hold it: a word among the choices stays a
    word, true/false a boolean, a whole number a number; anything else read as YAML reads it."""
    if name in getattr(options, "CHOICES", {}):
        return text
    if name in getattr(options, "BOOLS", ()):
        return {"true": True, "false": False}.get(text.lower(), text)
    if name in getattr(options, "INTS", {}):
        return int(text) if re.fullmatch(r"-?\d+", text) else text
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError:
        return text


def _option_problems(options: type, name: str, value: Any) -> str | None:
    """What is wrong with one house rule's value, as the game's data would be told (the
    options' own reader, with its special cases, where it has one)."""
    reader = getattr(options, "from_data", None)
    try:
        problems = reader({name: value})[1] if callable(reader) else read_house_rules(options, {name: value})[1]
    except Exception as exc:  # the reader is the rules' own code; a value it cannot read is refused
        return f"the rules cannot read {value!r} ({type(exc).__name__})"
    return problems[0].message if problems else None


def with_house_rules(game: Game, rules: Mapping[str, Any]) -> Game:
    """The game with these house rules set in its data (the others as the data says).
    Data whose ``house_rules`` is not a mapping is left alone: its deck check says why."""
    if not rules:
        return game
    own = game.data.get("house_rules")
    if own is not None and not isinstance(own, Mapping):
        return game
    data = dict(game.data)
    data["house_rules"] = {**(own or {}), **rules}
    return dataclasses.replace(game, data=data)


def combinations(axes: Sequence[Axis]) -> list[tuple[str, dict[str, Any], dict[str, str]]]:
    """Every combination of the axes' values, the last axis changing fastest: its label
    (``players=3, agents=greedy``), values and words."""
    out = []
    for picks in itertools.product(*(range(len(a.values)) for a in axes)):
        values = {a.name: a.values[i] for a, i in zip(axes, picks)}
        texts = {a.name: a.texts[i] for a, i in zip(axes, picks)}
        out.append((", ".join(f"{n}={t}" for n, t in texts.items()), values, texts))
    return out


def run_sweep(game: Game, opts: ValidateOptions, axes: Sequence[Axis], progress: Progress | None = None,
              play: Callable[..., dict[str, Any]] = validate) -> dict[str, Any]:
    """Every combination played as a validation of its own; one report of them all."""
    combos = combinations(axes)
    reports: list[dict[str, Any]] = []
    runs: list[dict[str, Any]] = []
    for k, (label, values, texts) in enumerate(combos):
        run_game = with_house_rules(game, {n: v for n, v in values.items() if n not in BUILT_IN})
        run_opts = dataclasses.replace(
            opts, players=(values[PLAYERS],) if PLAYERS in values else opts.players,
            agents=(values[AGENTS],) if AGENTS in values else opts.agents,
            setups=(values[SETUP],) if SETUP in values else opts.setups,
            kit=opts.kit if k == 0 else None)  # the kit is the same whatever is played: checked once
        tag = f"run {k + 1}/{len(combos)}"
        report = play(run_game, run_opts, None if progress is None else
                      (lambda label, done, total, tag=tag: progress(f"{tag} {label}", done, total)))
        extra = "".join(f" --sweep {n}={t}" for n, t in texts.items() if n not in BUILT_IN)
        for failure in report["simulation"]["failures"]:
            failure["replay"] += extra  # the run's house rules, for the command that plays it again
        reports.append(report)
        runs.append({"label": label, "values": values, "simulation": report["simulation"]})
    return _combined(reports, runs, axes, opts)


def _combined(reports: list[dict[str, Any]], runs: list[dict[str, Any]], axes: Sequence[Axis],
              opts: ValidateOptions) -> dict[str, Any]:
    """The runs' reports as one: the first's checks, every run's games."""
    first = reports[0]
    out = dict(first)
    out["options"] = {**first["options"], "players": list(opts.players), "setups": list(opts.setups),
                      "agents": list(opts.agents), "sweep": [a.spec for a in axes]}
    notes = list(first["notes"])
    static = copy.deepcopy(first["static"])
    for run, report in zip(runs[1:], reports[1:]):
        notes += [f"{run['label']}: {n}" for n in report["notes"] if n not in first["notes"]]
        static["problems"] += [f"{run['label']}: {p}" for p in report["static"]["problems"]
                               if p not in first["static"]["problems"]]
        static["ok"] = static["ok"] and report["static"]["ok"]
    out["notes"] = notes
    out["static"] = static
    out["simulation"] = _all_runs(runs)
    out["sweep"] = {"names": [a.name for a in axes], "runs": runs,
                    "seat_balance": compare_runs(runs, [a.name for a in axes])}
    out["ok"] = all(r["ok"] for r in reports)
    out["elapsed_s"] = round(sum(r["elapsed_s"] for r in reports), 3)
    return out


def _all_runs(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """One simulation holding every run's rows and failures, each named by its run
    (``sweep``), with the seats judged against their fair share over all of them and the
    cards' holders against the holders of the other cards (each run's rows pooled per
    player kind, as a validation pools its setups and player counts)."""
    sims = [r["simulation"] for r in runs]
    played = [s for s in sims if not s["skipped"]]
    out: dict[str, Any] = {"ok": all(s["ok"] for s in sims), "skipped": None if played else sims[0]["skipped"],
                           "configs": [], "failures": []}
    for run in runs:
        out["configs"] += [{**copy.deepcopy(c), "sweep": run["label"]} for c in run["simulation"]["configs"]]
        out["failures"] += [{**f, "sweep": run["label"]} for f in run["simulation"]["failures"]]
    if played:
        elapsed = sum(s["elapsed_s"] for s in played)
        out["seat_balance"] = mark_seat_balance(out["configs"])
        cards = card_balance(out["configs"])
        if cards is not None:
            out["cards"] = cards
        out["games"] = sum(s["games"] for s in played)
        out["elapsed_s"] = round(elapsed, 3)
        out["games_per_s"] = round(out["games"] / elapsed, 1) if elapsed > 0 else None
        out["seeds"] = played[0]["seeds"]
        out["full_check_every_steps"] = played[0]["full_check_every_steps"]
        out["jobs"] = max(s.get("jobs", 1) for s in played)
    return out


# --------------------------------------------------------------------------- the runs compared
def homogeneity_p(mine: Sequence[int], others: Sequence[int]) -> float | None:
    """Pearson's chi-square test that two rows of seat wins come from the same shares
    (seats that no one won left out); None when there is nothing to test."""
    cols = [(a, b) for a, b in zip(mine, others) if a + b > 0]
    n_a, n_b = sum(a for a, _ in cols), sum(b for _, b in cols)
    if len(cols) < 2 or not n_a or not n_b:
        return None
    total = n_a + n_b
    chi2 = 0.0
    for a, b in cols:
        col = a + b
        for observed, row in ((a, n_a), (b, n_b)):
            expected = row * col / total
            chi2 += (observed - expected) ** 2 / expected
    return chi2_sf(chi2, len(cols) - 1)


def _wins(config: dict[str, Any]) -> list[int]:
    return [s["wins"] for s in config["seats"]]


def compare_runs(runs: list[dict[str, Any]], names: Sequence[str], alpha: float = ALPHA) -> dict[str, Any]:
    """Which runs' seats win in other shares than the other runs' do, beyond doubt.

    Rows are compared with the other runs' rows of as many players (and of the same setup
    and player kind, unless those are swept): each with the pooled wins of the others
    (Pearson's chi-square test of homogeneity), one at a time, step down: the row that
    differs most is set apart and the rest compared again, so that one odd run does not
    make the others look odd too; two rows left that differ both do. Every test is made at
    ``alpha`` / the number of rows compared (Bonferroni). Marks each row compared with
    ``vs_other_runs`` (``p``, ``differs``)."""
    swept = set(names)

    def key(c: dict[str, Any]) -> tuple:
        return (c["players"], None if SETUP in swept else c["setup"], None if AGENTS in swept else c["agents"])

    groups: dict[tuple, list[tuple[dict[str, Any], dict[str, Any]]]] = {}
    for run in runs:
        for c in run["simulation"].get("configs", []):
            if c.get("completed"):
                groups.setdefault(key(c), []).append((run, c))
    groups = {k: g for k, g in groups.items() if len({id(run) for run, _ in g}) > 1}
    compared = sum(len(g) for g in groups.values())
    level = alpha / compared if compared else alpha
    differ = []
    for group in groups.values():
        for run, c, p in _step_down(group, level):
            differ.append({"run": run["label"], "setup": c["setup"], "players": c["players"],
                           "agents": c["agents"], "p": p})
    order = {run["label"]: i for i, run in enumerate(runs)}
    differ.sort(key=lambda d: order[d["run"]])
    return {"test": "chi-square test of homogeneity of each row's seat wins against the other runs' rows of as"
                    " many players, step down, Bonferroni", "alpha": alpha, "compared": compared,
            "level_each": level, "differ": differ}


def _step_down(group: list[tuple[dict[str, Any], dict[str, Any]]], level: float) -> list[tuple[dict, dict, float]]:
    """The rows of one group that differ from the others (see :func:`compare_runs`)."""
    members = list(group)
    found = []
    while len(members) > 1:
        tested = []
        for run, c in members:
            others = [o for r, o in members if r is not run]
            pooled = [sum(w) for w in zip(*(_wins(o) for o in others))]
            p = homogeneity_p(_wins(c), pooled)
            c["vs_other_runs"] = {"p": p, "differs": False}
            if p is not None:
                tested.append((p, run, c))
        if not tested:
            break
        p, run, c = min(tested, key=lambda t: t[0])
        if p >= level:
            break
        odd = members if len(members) == 2 else [(run, c)]  # two that differ: each from the other
        for r, o in odd:
            o["vs_other_runs"]["differs"] = True
            found.append((r, o, o["vs_other_runs"]["p"]))
        members = [m for m in members if all(m[1] is not o for _, o in odd)]
    return found
