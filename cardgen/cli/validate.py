"""``cardgen validate``: prove a game's kit complete and its rules sound."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import click

from .. import ValidateOptions
from .. import validate as run_validation
from ..base.errors import CardgenError, Where
from ..validation.adaptive import DEFAULT_WITHIN, Plan
from ..validation.ismcts import DEFAULT_ITERATIONS, KIND
from ..validation.runner import DEFAULT_GAMES, DEFAULT_SEED
from ..validation.simulate import DEFAULT_CHECK_EVERY
from ..validation.sweep import run_sweep
from .exits import fail
from .option_values import check_langs, load_with_variants
from .progress_bar import bar_line
from .validate_sweep import cluster_session, sweep_axes

MAX_GAMES = 1_000_000  # per setup × player count × kind: hours of play already; a typo of 10⁹ is refused
# The balance pass: games per configuration for a 95 % interval of ±2 percentage points on
# every seat's win rate, whatever it is (the widest, at 50 %: 1.96² × 0.5 × 0.5 / 0.02²).
BALANCE_GAMES = 2_401
ISMCTS_GAMES = 10  # the quick pass's games per configuration when the player that plans plays


def _int_list(ctx, param, value: str | None) -> tuple[int, ...]:
    if value is None:
        return ()
    out = []
    for part in value.split(","):
        part = part.strip()
        if not part.isdigit() or int(part) < 1:
            raise click.BadParameter(f"{value!r} is not a list of player counts such as 2,3,4")
        out.append(int(part))
    return tuple(dict.fromkeys(out))


def _names(value: str | None) -> tuple[str, ...]:
    return tuple(dict.fromkeys(p.strip() for p in value.split(",") if p.strip())) if value else ()


@click.command("validate")
@click.argument("game")
@click.option("--games", type=click.IntRange(min=1, max=MAX_GAMES), default=None,
              help=f"Exactly N games per setup × player count × player kind, at most {MAX_GAMES:,}. Default: the"
                   " adaptive quick pass (see --within).")
@click.option("--within", type=click.FloatRange(min=0.5, max=50), default=None, metavar="POINTS",
              help="The adaptive pass (the default when --games and --balance are not given) plays each setup ×"
                   " player count × player kind until every seat's win rate is known within ±POINTS percentage"
                   " points (95 % interval), or its --budget is spent."
                   f" Default: {100 * DEFAULT_WITHIN:g}.")
@click.option("--budget", type=click.IntRange(min=1, max=MAX_GAMES), default=None, metavar="N",
              help="The adaptive pass's games per setup × player count × player kind at most. Default: the"
                   f" game's quick pass ({DEFAULT_GAMES}, fewer for games whose simulation is slow, e.g. Horus).")
@click.option("--balance", is_flag=True,
              help=f"The balance pass: {BALANCE_GAMES:,} games per setup × player count × player kind, enough for"
                   " every seat's win rate within ±2 percentage points (95 % interval); shows a progress bar"
                   " and the time left on a terminal. Not with --games.")
@click.option("--players", callback=_int_list, metavar="N[,N…]",
              help="Player counts to play, e.g. 2,3,4. Default: all the rules allow.")
@click.option("--seed", type=click.IntRange(min=0), default=DEFAULT_SEED, show_default=True,
              help="Seed of the first game; game i uses seed+i. With --games 1, replays one game.")
@click.option("--setup", "setups", metavar="NAME[,NAME…]", help="Setup layouts to play. Default: all.")
@click.option("--agents", metavar="KIND[,KIND…]",
              help="Player kinds to play (random, greedy, and ismcts: the player that plans, for games whose"
                   " states can re-deal what a seat cannot see). Default: all but ismcts. With ismcts, its"
                   f" strength against greedy is measured too, and the quick pass plays {ISMCTS_GAMES} games"
                   " per configuration.")
@click.option("--ismcts-iterations", type=click.IntRange(1, 100_000), default=DEFAULT_ITERATIONS,
              show_default=True, metavar="N",
              help="Re-deals the ismcts player searches per decision: more plays stronger and slower.")
@click.option("--check-every", type=click.IntRange(min=1), default=DEFAULT_CHECK_EVERY, show_default=True,
              help="Run the full invariant checks every K steps (the cheap ones run every step).")
@click.option("--kit", type=click.Path(path_type=Path, file_okay=False), metavar="DIR",
              help="Also check a built kit folder (e.g. output/hapy) against the deck.")
@click.option("--lang", "langs", multiple=True, metavar="LANG",
              help="Languages the kit must contain (repeatable). Default: all of the game's.")
@click.option("--json", "json_path", type=click.Path(path_type=Path, dir_okay=False), metavar="FILE",
              help="Write the full report as JSON to FILE ('-' for standard output).")
@click.option("--report", "report_path", type=click.Path(path_type=Path, dir_okay=False), metavar="FILE.html",
              help="Also write the report as one self-contained HTML page of charts (win rate per seat,"
                   " first-player advantage, game length, per-card statistics) to FILE.html.")
@click.option("--variant", "variants", multiple=True, metavar="NAME",
              help="Check (and play) the deck with this optional variant's cards (repeatable), as built with"
                   " 'cardgen build GAME --variant NAME'.")
@click.option("--jobs", type=click.IntRange(0, 64), default=0, show_default=True,
              help="Worker processes for the games (0 = one per core, 1 = none). The report is the same"
                   " whatever the number; --trace plays in one process.")
@click.option("--trace", is_flag=True, help="Print every step of every game to standard error (use with --games 1).")
@click.option("--rules", "rules_path", type=click.Path(path_type=Path, dir_okay=False), metavar="FILE.py",
              help="Play with the rules module in FILE.py (it must register rules for GAME's id). Without it,"
                   " the rules are cardgen's own or an installed package's 'cardgen.rules' entry point; Python"
                   " in a game folder is never run otherwise.")
@click.option("--draw", "draw_path", type=click.Path(path_type=Path, dir_okay=False), metavar="FILE.png",
              help="Play the one game of --seed (first player count and kind unless --players/--agents say)"
                   " and draw its final table into FILE.png, for games whose rules can draw.")
@click.option("--sweep", "sweeps", multiple=True, metavar="NAME=A,B,…",
              help="Play every combination of these values and compare the runs (repeatable): a house rule of the"
                   " game's data (e.g. request_ban=previous_player,last_other_request), players=2,3,4,"
                   " agents=random,greedy or setup=….")
@click.option("--cluster", metavar="ADDRESS",
              help="Play the games on the Dask cluster whose scheduler is at ADDRESS (e.g. tcp://10.0.0.5:8786)"
                   " instead of worker processes here; the report is the same. A fixed number of games per"
                   " configuration (--games, --balance, else the quick pass's budget): the adaptive pass plays"
                   " here. Needs pip install 'cardgen[cluster]'.")
@click.pass_context
def validate(ctx: click.Context, game: str, games: int, within: float | None, budget: int | None, balance: bool, players: tuple[int, ...], seed: int, setups: str | None,
             agents: str | None, check_every: int, kit: Path | None, langs: tuple[str, ...], json_path: Path | None,
             report_path: Path | None, variants: tuple[str, ...], jobs: int, trace: bool, rules_path: Path | None,
             draw_path: Path | None, sweeps: tuple[str, ...], cluster: str | None,
             ismcts_iterations: int = DEFAULT_ITERATIONS) -> None:
    """Check GAME: its deck against its rules, thousands of seeded plays, and a built kit.

    \b
    1. Deck and setups: every card the rules need, once each; every group
       of cards complete (a Hâpy family: colour, symbol, names in every
       language); every setup layout uses each card exactly once.
    2. Play: seeded games with random and greedy players, checking the rules
       and the card count at every step and the winner at the end.
    3. Kit (with --kit): every card printed as often as the deck says, each
       front with its back at the mirrored place, every language present.

    Exit status: 0 when everything holds, 1 when anything fails.

    \b
    Examples:
      cardgen validate hapy
      cardgen validate hapy --games 2000 --players 3 --json report.json
      cardgen validate egypt --games 500 --report egypt.html
      cardgen validate egypt --balance
      cardgen validate hapy --players 3 --setup pyramid --agents ismcts
      cardgen validate hapy --kit output/hapy --lang en
      cardgen validate hapy --seed 1042 --games 1 --players 3 --setup giza --agents greedy --trace
      cardgen validate horus --seed 7 --players 3 --agents greedy --draw table.png
      cardgen validate my-game --rules my_rules.py
      cardgen validate hapy --sweep request_ban=previous_player,last_other_request --sweep players=2,3,4
      cardgen validate egypt --balance --cluster tcp://10.0.0.5:8786
    """
    _check_pass_options(balance, games, within, budget, cluster)
    model, rules = _load(game, variants, rules_path)
    setup_names = _names(setups)
    agent_names = _names(agents)
    if rules is not None:
        _check_rule_options(model, rules, players, setup_names, agent_names)
    axes = sweep_axes(model, rules, sweeps, {"--players": bool(players), "--agents": bool(agent_names),
                                             "--setup": bool(setup_names)})
    if draw_path is not None:
        if axes:
            raise click.UsageError("--draw draws one game: not with --sweep")
        if ctx.get_parameter_source("seed") is not click.core.ParameterSource.COMMANDLINE:
            raise click.UsageError("--draw draws one game: say which with --seed S")
        _draw_one(model, rules, seed, players, setup_names, agent_names, check_every, draw_path)
        return
    check_langs(model, langs)
    err = sys.stderr  # looked up at call time, so CliRunner captures it
    tty = err.isatty()
    progress = _progress(err, tty)
    if rules is not None and KIND in agent_names and games is None and not balance:
        games = ISMCTS_GAMES  # the player that plans is slow: its quick pass plays this many games, no more
    count, plan = _pass_size(rules, games, balance, within, budget, cluster)
    opts = ValidateOptions(games=count, adaptive=plan, seed=seed, players=players, setups=setup_names,
                           agents=agent_names, check_every=check_every, kit=kit, langs=tuple(langs), game_arg=game,
                           jobs=jobs, trace=(lambda line: click.echo(line, err=True)) if trace else None,
                           ismcts_iterations=ismcts_iterations)
    try:
        with cluster_session(cluster) as opts.cluster:
            report = run_sweep(model, opts, axes, progress) if axes else run_validation(model, opts, progress)
    except CardgenError as exc:
        if tty:
            err.write("\n")
        fail(exc)
        return
    if tty:
        err.write("\r" + " " * 110 + "\r")
        err.flush()
    if report_path is not None:
        _write_page(report, report_path)
    _say(report, json_path)
    sys.exit(0 if report["ok"] else 1)


def _check_pass_options(balance: bool, games: int | None, within: float | None, budget: int | None,
                        cluster: str | None) -> None:
    """The options that say how many games to play, together (usage errors otherwise)."""
    if balance and games is not None:
        raise click.UsageError("--balance plays its own number of games: give --games or --balance, not both")
    if (within is not None or budget is not None) and (balance or games is not None or cluster):
        raise click.UsageError("--within and --budget shape the adaptive pass: not with --games, --balance or"
                               " --cluster, which play a fixed number of games")


def _load(game: str, variants: tuple[str, ...], rules_path: Path | None):
    """The game and its rules (a --rules file registered first); a mistake stops the command."""
    from ..rules import rules_for

    try:
        model = load_with_variants(game, variants)
        if rules_path is not None:
            from ..rules.plugins import load_rules_file  # only then: it reads the installed packages' metadata

            load_rules_file(rules_path, model.id)
        return model, rules_for(model.id)
    except CardgenError as exc:
        fail(exc)


def _progress(err, tty: bool):
    """What the command shows while games are played: a bar on a terminal, else one line
    per setup (worker processes finish chunks out of order: each setup is named once)."""
    said: set[str] = set()
    started = time.monotonic()

    def progress(label: str, done: int, total: int) -> None:
        if tty:
            line = bar_line(label, done, total, time.monotonic() - started)
            err.write(f"\r  {line}" + " " * 8)
            err.flush()
        elif label.split(",")[0] not in said:
            said.add(label.split(",")[0])
            err.write(f"  playing {label.split(',')[0]}…\n")
            err.flush()

    return progress


def _pass_size(rules, games: int | None, balance: bool, within: float | None, budget: int | None,
               cluster: str | None) -> tuple[int, Plan | None]:
    """Games per configuration, and the adaptive plan of the quick pass (None: exactly that
    many): adaptive when neither --games nor --balance is given, its budget the rules' quick
    pass; on a cluster the budget is played whole."""
    count = _games_to_play(rules, games, balance)
    if games is not None or balance or cluster:
        return count, None
    count = budget or count
    return count, Plan(within=(within if within is not None else 100 * DEFAULT_WITHIN) / 100, budget=count)


def _games_to_play(rules, games: int | None, balance: bool) -> int:
    """--games, else the balance pass's number, else the rules' quick pass (a few
    seconds, however slow the game's simulation), which must be a sensible number."""
    from ..rules.guard import rules_file

    quick = getattr(rules, "quick_games", DEFAULT_GAMES) if rules is not None else DEFAULT_GAMES
    if type(quick) is not int or not 1 <= quick <= MAX_GAMES:
        fail(CardgenError(f"the rules' quick_games is {quick!r}, not a number of games from 1 to {MAX_GAMES:,}",
                          Where(rules_file(rules))))
    if balance:
        return BALANCE_GAMES
    return games if games is not None else quick


def _say(report: dict, json_path: Path | None) -> None:
    """The report as JSON (to a file, or alone on stdout for ``-``) and, unless stdout
    holds the JSON, as text. The JSON is made only when asked for (a quick pass's report
    is large, and its indented dump takes a good part of the pass's start)."""
    from ..base.errors import display_path
    from ..validation.report import render

    if json_path is not None:
        text = json.dumps(report, ensure_ascii=False, indent=1) + "\n"
        if str(json_path) == "-":
            click.echo(text, nl=False)
            return
        try:
            json_path.write_text(text, encoding="utf-8")
        except OSError as exc:
            fail(CardgenError(f"cannot write the JSON report: {exc.strerror or exc}", Where(display_path(json_path))))
            return
    click.echo(render(report))


def _write_page(report: dict, path: Path) -> None:
    """The report as an HTML page (whole or not at all)."""
    from ..base.errors import display_path
    from ..base.files import write_atomic
    from ..validation.htmlreport import render_html

    try:
        write_atomic(path, render_html(report).encode("utf-8"))
    except OSError as exc:
        fail(CardgenError(f"cannot write the HTML report: {exc.strerror or exc}", Where(display_path(path))))


def _check_rule_options(model, rules, players: tuple[int, ...], setup_names: tuple[str, ...],
                        agent_names: tuple[str, ...]) -> None:
    """--players, --setup and --agents against what the game's rules offer: a usage
    error naming the option otherwise (the rules' own calls guarded, one line if they raise)."""
    from ..rules.guard import call_rules

    try:
        allowed = call_rules("player_counts()", lambda: tuple(rules.player_counts(model)),
                             owner=rules.player_counts)
        known = call_rules("setups()", lambda: tuple(rules.setups(model)), owner=rules.setups)
    except CardgenError as exc:
        fail(exc)
        return
    bad = [n for n in players if n not in allowed]
    if bad:
        raise click.BadParameter(f"{model.id} is played by {', '.join(map(str, allowed))} players, not"
                                 f" {', '.join(map(str, bad))}", param_hint="'--players'")
    bad_setups = [s for s in setup_names if s not in known]
    if bad_setups:
        raise click.BadParameter(f"unknown setup {', '.join(bad_setups)} (known: {', '.join(known)})",
                                 param_hint="'--setup'")
    known_agents = [*rules.agents, *([] if KIND in rules.agents else [KIND])]
    bad_agents = [a for a in agent_names if a not in known_agents]
    if bad_agents:
        raise click.BadParameter(f"unknown player kind {', '.join(bad_agents)} (known: {', '.join(known_agents)})",
                                 param_hint="'--agents'")
    if KIND in agent_names and KIND not in rules.agents:
        _check_ismcts(model, rules, players or allowed, setup_names or known)


def _check_ismcts(model, rules, players: tuple[int, ...], setups: tuple[str, ...]) -> None:
    """--agents ismcts for a game whose states cannot re-deal what a seat cannot see: a usage error."""
    from ..validation.strength import redeal_problem

    try:
        problem = redeal_problem(rules, model, setups[0], players[0]) if setups and players else None
    except CardgenError as exc:
        fail(exc)
        return
    if problem:
        raise click.BadParameter(problem, param_hint="'--agents'")

def _draw_one(model, rules, seed: int, players: tuple[int, ...], setups: tuple[str, ...], agents: tuple[str, ...],
              check_every: int, path: Path) -> None:
    """Play one seeded game and draw its final state with the state's ``draw(path)``."""
    from ..base.errors import display_path
    from ..rules.guard import call_rules, crash
    from ..validation.simulate import play_game

    if rules is None:
        fail(CardgenError(f"game '{model.id}' has no rules module: there is no game to draw"))
        return
    try:
        setup = (setups or call_rules("setups()", lambda: tuple(rules.setups(model)), owner=rules.setups))[0]
        n = (players or call_rules("player_counts()", lambda: tuple(rules.player_counts(model)),
                                   owner=rules.player_counts))[0]
        kind = (agents or tuple(rules.agents))[0]
        config = f"setup '{setup}', {n} players"
        gamedef = call_rules("load()", rules.load, model, n, setup, config=config)
        first = call_rules("new_initial_state()", gamedef.new_initial_state, config=config)
        if not callable(getattr(first, "draw", None)):  # say so before playing
            raise CardgenError(f"the rules of '{model.id}' cannot draw a game (their state has no draw method)")
        final: list = []
        from ..validation.strength import ismcts_factory

        players_of = ismcts_factory(rules) if kind == KIND and KIND not in rules.agents else rules.agents[kind]
        out = play_game(gamedef, players_of, seed, check_every, final=final)
        try:
            final[0].draw(path)
        except OSError as exc:
            raise CardgenError(f"cannot write the picture: {exc.strerror or exc}", Where(display_path(path))) from None
        except (CardgenError, KeyboardInterrupt):
            raise
        except BaseException as exc:  # the rules' drawing code: its bug, in one line
            raise crash(exc, "draw()", final[0].draw, config) from None
    except CardgenError as exc:
        fail(exc)
        return
    how = "ended" if out.status == "ok" else f"stopped: {out.message}"
    click.echo(f"drew seed {seed} ({n} players, {kind}, setup {setup}; {out.length} turns, {how})"
               f" to {display_path(path)}")
    sys.exit(0 if out.status == "ok" else 1)
