"""One validation run: static checks, simulations, kit check → one report (a plain dict).

Nothing here knows a game: the rules module found in the registry says what to
check and how to play.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..base.errors import CardgenError
from ..model.game import Game
from ..rules import rules_for
from ..rules.guard import RulesCrash, call_rules
from ..version import __version__
from . import adaptive, chance, strength
from .cardbalance import summarise as card_balance
from .expect import check_expectations
from .ismcts import DEFAULT_ITERATIONS, KIND
from .parallel import Config, play_all, play_here, worker_count, workers_can_play
from .simulate import DEFAULT_CHECK_EVERY, mark_seat_balance
from .static import check_generic, check_static

DEFAULT_GAMES = 100
DEFAULT_SEED = 1


@dataclass
class ValidateOptions:
    games: int = DEFAULT_GAMES  # per setup × player count × player kind
    seed: int = DEFAULT_SEED
    players: tuple[int, ...] = ()  # empty: every count the rules support
    setups: tuple[str, ...] = ()  # empty: every setup
    agents: tuple[str, ...] = ()  # empty: every player kind
    check_every: int = DEFAULT_CHECK_EVERY
    kit: Path | None = None
    langs: tuple[str, ...] = ()
    game_arg: str = ""  # how the user named the game, for replay commands
    trace: Callable[[str], None] | None = None
    jobs: int = 1  # worker processes for the games; 0 = one per usable core
    cluster: Any = None  # a cluster.Session to play the games on instead (cardgen validate --cluster)
    adaptive: adaptive.Plan | None = None  # the adaptive quick pass (then ``games`` is its budget)
    ismcts_iterations: int = DEFAULT_ITERATIONS  # the ismcts player's determinisations per decision


Progress = Callable[[str, int, int], None]  # (what, games done, games in all)


def plan(game: Game, rules, static_setups: list[str], opts: ValidateOptions) -> tuple[list[str], list[int], list[str]]:
    """The setups, player counts and player kinds to play, after the options' filters."""
    setups = [s for s in static_setups if not opts.setups or s in opts.setups]
    players = list(opts.players or call_rules("player_counts()", lambda: tuple(rules.player_counts(game)),
                                              owner=rules.player_counts))
    return setups, players, strength.kinds_with_ismcts(rules, opts.agents)


def replay_command(opts: ValidateOptions, seed: int, setup: str, players: int, kind: str) -> str:
    extra = f" --check-every {opts.check_every}" if opts.check_every != DEFAULT_CHECK_EVERY else ""
    return (f"cardgen validate {opts.game_arg} --seed {seed} --games 1 --players {players} --setup {setup}"
            f" --agents {kind}{extra} --trace")


def validate(game: Game, opts: ValidateOptions, progress: Progress | None = None) -> dict[str, Any]:
    started = time.perf_counter()
    rules = rules_for(game.id)
    report: dict[str, Any] = {
        "cardgen": __version__,
        "game": game.id,
        "name": game.name("en" if "en" in game.languages else game.languages[0]),
        "rules": None,
        "notes": [],
        "options": {"games": opts.games, "seed": opts.seed, "check_every": opts.check_every,
                    "players": list(opts.players), "setups": list(opts.setups), "agents": list(opts.agents),
                    "kit": str(opts.kit) if opts.kit else None, "langs": list(opts.langs)},
    }

    report["unfinished"] = {lang: list(keys) for lang, keys in game.unfinished.items()}
    for lang, keys in game.unfinished.items():  # a language in progress is not an error of the game
        report["notes"].append(f"language {lang} is unfinished: {len(keys)} string(s) not translated yet "
                               f"(cardgen i18n status {opts.game_arg or game.id} --lang {lang} lists them); "
                               f"the kit check leaves it out")

    kit = None
    if opts.kit is not None:
        from .kitcheck import check_kit  # local: the kit check reads the papers of impose (and so shapely, numpy)

        kit = check_kit(game, opts.kit, opts.langs)

    # 1. the deck against the rules
    spec = None
    if rules is None:
        static = check_generic(game)
        checked = "the generic checks, game.yaml's expect" if game.expect else "generic"
        report["notes"].append(f"no rules module for game '{game.id}': the deck is not compared with any rules and"
                               f" no games are played; only {checked} and kit checks run")
    else:
        report["rules"] = type(rules).__module__
        spec = call_rules("static_spec()", rules.static_spec, game, game.data_marks)
        # the spec's own functions (a card's key, name and place) run in the deck check
        static = call_rules("the deck check of its static_spec()", check_static, game, spec, game.data_marks,
                            owner=rules.static_spec)
    if game.expect:
        expected = check_expectations(game)
        static.passed.extend(expected.passed)
        static.problems.extend(expected.problems)
    report["static"] = {"ok": static.ok, "passed": static.passed, "problems": [str(p) for p in static.problems]}

    # 2. the rules, played
    sim: dict[str, Any] = {"ok": True, "skipped": None, "configs": [], "failures": []}
    report["simulation"] = sim
    if rules is None or spec is None:  # (the spec is there whenever the rules are)
        sim["skipped"] = "no rules module"
    elif not static.deck_ok:
        sim["skipped"] = "the deck does not match the rules: fix the problems above first"
        sim["ok"] = False
    else:
        names = [a.name for a in spec.arrangements if a.name not in static.bad_setups]
        setups, players, kinds = plan(game, rules, names, opts)
        skipped = [a.name for a in spec.arrangements if a.name in static.bad_setups]
        if skipped:
            report["notes"].append(f"setup(s) {', '.join(skipped)} not played: their layout has problems")
        configs: list[Config] = []
        duels: list[tuple[int, Config]] = []  # ismcts against greedy: (ISMCTS seat, configuration)
        ismcts = strength.ismcts_for(rules, game, setups, players, kinds, opts.ismcts_iterations)
        for setup in setups:
            for n in players:
                try:
                    gamedef = call_rules("load()", rules.load, game, n, setup, config=f"setup '{setup}', {n} players")
                except RulesCrash:
                    raise
                except CardgenError as exc:
                    if not spec.problems:  # else the data problems listed above say why, at their lines
                        report["notes"].append(f"setup '{setup}' with {n} players cannot be played: {exc}")
                    sim["ok"] = False
                    continue
                configs += [Config(f"{setup}, {n} players, {kind}", gamedef,
                                   ismcts if kind == KIND and ismcts is not None else rules.agents[kind], kind,
                                   rules.must_finish.get(kind, True)) for kind in kinds]
                duels += [(k, Config(label, gamedef, players_of, KIND, True))
                          for k, (label, players_of) in enumerate(strength.duels(rules, gamedef, ismcts))]
        if configs:
            _play(configs + [c for _, c in duels], opts, sim, progress)
            _set_apart(sim, len(configs), duels)
        else:
            sim["ok"] = False
            sim["skipped"] = ("the game's data does not match the rules: fix the problems above first" if spec.problems
                              else "no setup and player count can be played (see the notes above)")

    # 3. the built kit (checked first, so that a wrong folder fails at once)
    report["kit"] = None
    if kit is not None:
        report["kit"] = {"folder": kit.folder, "ok": kit.ok, "passed": kit.passed, "problems": kit.problems,
                         "warnings": kit.warnings, "files": kit.files}
    report["ok"] = bool(static.ok and sim["ok"] and (report["kit"] is None or report["kit"]["ok"]))
    report["elapsed_s"] = round(time.perf_counter() - started, 3)
    return report


def _play(configs: list[Config], opts: ValidateOptions, sim: dict[str, Any], progress: Progress | None) -> None:
    """Play every configuration and put its figures and failures into ``sim``."""
    total = len(configs) * opts.games
    done = 0

    def played(label: str, games: int) -> None:
        nonlocal done
        done += games
        if progress:
            progress(label, done, total)

    trace = None
    if opts.trace is not None:
        def trace(step: int, player: int, text: str, opts=opts) -> None:
            who = {-1: "chance", -2: "", -4: "end"}.get(player, f"seat {player + 1}")  # -2: what a step did
            opts.trace(f"step {step:>4}  {who:<7} {text}")
    jobs = 1 if trace is not None else worker_count(opts.jobs, opts.games, len(configs))
    if jobs > 1 and not workers_can_play(configs):
        jobs = 1
    t0 = time.perf_counter()
    if opts.cluster is not None and trace is None:  # the same chunks, played by the cluster's workers
        results, jobs = opts.cluster.play(configs, opts.games, opts.seed, opts.check_every, played)
    elif opts.adaptive is not None:
        results = adaptive.play_pass(configs, opts.adaptive, opts.seed, opts.check_every, jobs, played, trace)
        sim["adaptive"] = adaptive.summary(opts.adaptive, results, [c.label for c in configs])
    elif jobs > 1:
        results = play_all(configs, opts.games, opts.seed, opts.check_every, jobs, played)
    else:
        results = play_here(configs, opts.games, opts.seed, opts.check_every, played, trace)
    for c, res in zip(configs, results):
        setup, n, kind = c.gamedef.setup, c.gamedef.num_players, c.kind
        fig = res.figures()
        sim["configs"].append(fig)
        sim["ok"] = sim["ok"] and res.ok
        for f in fig["failures"]:
            sim["failures"].append({"setup": setup, "players": n, "agents": kind, **f,
                                    "replay": replay_command(opts, f["seed"], setup, n, kind)})
        if fig["nonterminating"]["count"]:
            for seed in fig["nonterminating"]["seeds"][:5]:
                sim["failures"].append({
                    "setup": setup, "players": n, "agents": kind, "seed": seed, "step": None,
                    "turn": None, "nonterminating": True,
                    "counts_as_failure": fig["nonterminating"]["counts_as_failure"],
                    "message": f"no end within {c.gamedef.max_game_length()} steps",
                    "replay": replay_command(opts, seed, setup, n, kind)})
    elapsed = time.perf_counter() - t0
    _judge_chance(configs, results, opts, sim)
    sim["seat_balance"] = mark_seat_balance(sim["configs"])
    cards = card_balance(sim["configs"])
    if cards is not None:
        sim["cards"] = cards
    games = sum(c["games"] for c in sim["configs"])
    sim["games"] = games
    sim["elapsed_s"] = round(elapsed, 3)
    sim["games_per_s"] = round(games / elapsed, 1) if elapsed > 0 else None
    sim["seeds"] = [opts.seed, opts.seed + max(r.games for r in results) - 1]
    sim["full_check_every_steps"] = opts.check_every
    sim["jobs"] = jobs


def _set_apart(sim: dict[str, Any], configs: int, duels: list[tuple[int, Config]]) -> None:
    """The strength games (played after the ``configs`` configurations): out of the table of
    configurations and its seat balance, into their own lines (``sim["strength"]``)."""
    if not duels:
        return
    figures = sim["configs"][configs:]
    del sim["configs"][configs:]
    sim["seat_balance"] = mark_seat_balance(sim["configs"])
    sim["strength"] = strength.strength([(c.gamedef.setup, c.gamedef.num_players, k, fig)
                                         for (k, c), fig in zip(duels, figures)])


def _judge_chance(configs: list[Config], results: list, opts: ValidateOptions, sim: dict[str, Any]) -> None:
    """Chance, tested (see :mod:`.chance`): the draws of each configuration's games per node
    kind; a kind whose draws do not follow what the engine declared fails the pass, with the
    command that plays those games again."""
    tallies = [(c.label, res.chance) for c, res in zip(configs, results) if res.chance]
    if not tallies:
        return
    verdict = sim["chance"] = chance.judge(tallies)
    for test in verdict["failed"]:
        c, res = next((c, r) for c, r in zip(configs, results) if c.label == test["config"])
        sim["ok"] = False
        setup, n = c.gamedef.setup, c.gamedef.num_players
        sim["failures"].append({"setup": setup, "players": n, "agents": c.kind, "seed": opts.seed, "step": None,
                                "turn": None, "chance": test["kind"],
                                "message": chance.failure_message(test, verdict["false_alarm"]),
                                "replay": pass_command(opts, setup, n, c.kind, res.games)})


def pass_command(opts: ValidateOptions, setup: str, players: int, kind: str, games: int) -> str:
    """The command that plays one configuration's games of this pass again (a chance test
    judges them together; an adaptive pass's are the first ``games`` seeds)."""
    parts = [f"cardgen validate {opts.game_arg} --seed {opts.seed} --games {games} --players {players}"
             f" --setup {setup} --agents {kind}"]
    if opts.check_every != DEFAULT_CHECK_EVERY:
        parts.append(f"--check-every {opts.check_every}")
    return " ".join(parts)
