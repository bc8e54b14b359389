"""Shared fixtures: scenario folders, editable copies of games, the CLI runner, and the
kits built once a session for the modules that read them.

Scenario folders live in ``tests/data/<scenario>/``: each is a tiny game with one
deliberate mistake (or, for ``mini_game``, none). Tests that need a variation edit a
copy under ``tmp_path`` so the checked-in folders never change.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from click.testing import CliRunner, Result

from cardgen.base.errors import display_path
from cardgen.base.paths import shipped_games_dir

if TYPE_CHECKING:
    from kitchecks import BuiltKit

DATA = Path(__file__).resolve().parent / "data"


def game_label(folder: Path, *parts: str) -> str:
    """How cardgen shows a path of a game folder in its messages."""
    return display_path(folder.joinpath(*parts) if parts else folder / "game.yaml")


def edit_file(path: Path, old: str, new: str, count: int = 1) -> None:
    """Replace ``old`` by ``new`` in a file, failing loudly when ``old`` is absent
    (an edit that silently does nothing would make a test pass for the wrong reason)."""
    text = path.read_text(encoding="utf-8")
    found = text.count(old)
    assert found >= count, f"{old!r} occurs {found} time(s) in {path}, expected at least {count}"
    path.write_text(text.replace(old, new), encoding="utf-8")


@pytest.fixture
def scenario() -> Callable[[str], Path]:
    """The path of a checked-in scenario folder (read-only use)."""

    def get(name: str) -> Path:
        path = DATA / name
        assert (path / "game.yaml").is_file(), f"no scenario {name}"
        return path

    return get


@pytest.fixture
def game_copy(tmp_path: Path) -> Callable[[str], Path]:
    """An editable copy of a scenario folder under tmp_path."""

    def copy(name: str, dest_name: str | None = None) -> Path:
        dst = tmp_path / (dest_name or name)
        shutil.copytree(DATA / name, dst)
        return dst

    return copy


@pytest.fixture
def hapy_copy(tmp_path: Path) -> Path:
    return copy_shipped("hapy", tmp_path)


@pytest.fixture
def egypt_copy(tmp_path: Path) -> Path:
    return copy_shipped("egypt", tmp_path)


@pytest.fixture
def farao_copy(tmp_path: Path) -> Path:
    return copy_shipped("farao", tmp_path)


@pytest.fixture
def horus_copy(tmp_path: Path) -> Path:
    return copy_shipped("horus", tmp_path)


@pytest.fixture
def market_copy(tmp_path: Path) -> Path:
    """An editable copy of the docs' spreadsheet example (docs/examples/spreadsheet)."""
    folder = tmp_path / "market"
    shutil.copytree(Path(__file__).resolve().parents[1] / "docs" / "examples" / "spreadsheet", folder)
    return folder


def load_errors(folder: Path) -> list[str]:
    """The lines of the error that loading ``folder`` must raise."""
    from cardgen.base.errors import CardgenError
    from cardgen.load.game import load_game

    with pytest.raises(CardgenError) as exc:
        load_game(folder)
    return exc.value.lines()


def copy_shipped(game_id: str, parent: Path) -> Path:
    """An editable copy of a shipped game folder under ``parent/games/`` (same id, so it
    still uses the shipped templates)."""
    dst = parent / "games" / game_id
    shutil.copytree(shipped_games_dir() / game_id, dst)
    return dst


def static_of(folder: Path):
    """The deck check of a game folder against its registered rules."""
    from cardgen.load.game import load_game
    from cardgen.rules import rules_for
    from cardgen.validation.static import check_static

    game = load_game(folder)
    return check_static(game, rules_for(game.id).static_spec(game, game.data_marks), game.data_marks)


def problems_of(folder: Path) -> list[str]:
    """Every problem the deck check finds, as the report prints it."""
    return [str(p) for p in static_of(folder).problems]


@pytest.fixture(scope="session")
def cli() -> Callable[..., Result]:
    """Run ``cardgen ARGS…`` in-process; stdout and stderr are kept apart."""
    from cardgen.cli import main

    runner = CliRunner()

    def run(*args: object) -> Result:
        return runner.invoke(main, [str(a) for a in args], catch_exceptions=True)

    return run


def assert_user_error(result: Result) -> list[str]:
    """Exit status 1, only ``error: …`` lines about the problem on stderr, no traceback.

    Returns the error lines without their ``error: `` prefix."""
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == 1, (result.exit_code, result.output)
    errors = [line for line in result.stderr.splitlines() if line.startswith("error: ")]
    assert errors, f"no 'error:' line on stderr:\n{result.stderr}"
    assert "error:" not in result.stdout, "errors belong on stderr"
    return [line[len("error: "):] for line in errors]


@pytest.fixture(scope="session")
def shared_kit(tmp_path_factory) -> Callable[..., BuiltKit]:
    """``shared_kit(GAME, *OPTIONS)``: ``cardgen build GAME OPTIONS`` (in this process
    unless OPTIONS set ``--jobs``) run once a session, for every module that reads that
    kit; a kit takes seconds to build. Read it, never change it: a test that changes a
    kit works on a copy. Built away from saved settings (the user's file, the current
    folder's), which would change what it builds."""
    from kitchecks import build

    built: dict[tuple, BuiltKit] = {}

    def get(game: str, *options: str) -> BuiltKit:
        key = (game, options)
        if key not in built:
            with pytest.MonkeyPatch.context() as mp:
                home = tmp_path_factory.mktemp("kit-settings")
                mp.setenv("CARDGEN_CONFIG", str(home / "no-user-config"))
                mp.chdir(home)
                built[key] = build(tmp_path_factory.mktemp(f"kit-{Path(game).name}"), game, *options)
        return built[key]

    return get


# Modules that read one shared kit, by kit: under xdist they run on one worker, so the
# kit is built once (a module missing here costs one more build, nothing else).
SHARED_KIT_MODULES = {
    "test_farao_kit.py": "farao kit", "test_farao_look.py": "farao kit",
    "test_pdf_output.py": "hapy kit", "test_hapy_sheets_look.py": "hapy kit",
    "test_validate.py": "hapy en-a4 kit", "test_export.py": "hapy en-a4 kit",
    "test_pdfx.py": "hapy en-a4 kit", "test_preflight.py": "hapy en-a4 kit",
    "test_edge_clearance.py": "four kits", "test_printshop_files.py": "four kits",
}


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """``--dist loadfile`` (the ini's): whole modules to a worker, so each module's
    fixtures are set up once, with the modules of SHARED_KIT_MODULES kept together.
    Any other ``--dist`` is xdist's own."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class SharedKitScheduling(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            module = nodeid.split("::", 1)[0]
            return SHARED_KIT_MODULES.get(module.rsplit("/", 1)[-1], module)

    return SharedKitScheduling(config, log)


def pytest_addoption(parser, pluginmanager):
    """Without xdist (``-p no:xdist``, or not installed) the ini's ``--numprocesses`` and
    ``--dist`` are still understood, and the tests run in this process. (Not under
    xdist's own names: other plugins read those to tell whether xdist runs.)"""
    if not pluginmanager.has_plugin("xdist"):
        group = parser.getgroup("xdist")
        ignored = "does nothing: pytest-xdist is not loaded"
        group.addoption("--numprocesses", dest="numprocesses_without_xdist", metavar="N", help=ignored)
        group.addoption("--dist", dest="dist_without_xdist", metavar="MODE", help=ignored)


@pytest.fixture(scope="module")
def isolated_settings(tmp_path_factory):
    """For modules whose module-scoped builds run before the per-test guard below: keep
    those builds away from the user's and the current folder's saved settings (a saved
    duplex or back offset would change what they build). Use it with
    ``pytestmark = pytest.mark.usefixtures("isolated_settings")``: fixtures named there
    are set up before the module's other module-scoped fixtures."""
    with pytest.MonkeyPatch.context() as mp:
        home = tmp_path_factory.mktemp("settings")
        mp.setenv("CARDGEN_CONFIG", str(home / "no-user-config"))
        mp.chdir(home)
        yield


@pytest.fixture(autouse=True)
def _no_user_settings(tmp_path_factory, monkeypatch):
    """Builds in tests never pick up the developer's own saved printer settings."""
    monkeypatch.setenv("CARDGEN_CONFIG", str(tmp_path_factory.getbasetemp() / "no-user-config"))


@pytest.fixture(scope="session", autouse=True)
def _face_cache_in_tmp(tmp_path_factory):
    """Builds in tests keep their face cache (render/facestore.py) in this session's
    temporary folder, never in the user's cache folder."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("CARDGEN_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "face-cache"))
        yield


# -- the quick subset ---------------------------------------------------------------------------

# Folders and modules whose tests are slow as a rule: they build whole kits (every language and
# paper), play thousands of games, or run a process per case. `pytest -m "not slow"` leaves them
# out; the README's command runs everything.
SLOW_FOLDERS = frozenset({"kits"})
SLOW_MODULES = frozenset({
    "test_mutations.py", "test_validate.py", "test_validate_balance.py", "test_validate_parallel.py",
    "test_validate_hostile_data.py", "test_honest_players.py", "test_full_check_sampling.py", "test_replay.py",
    "test_legal_at.py", "test_egypt_tables.py", "test_rules_kit.py", "test_rules_plugins.py",
    "test_hostile_templates.py", "test_bad_input_fuzzed.py", "test_fuzz_inputs.py", "test_jsonshape.py",
    "test_edge_clearance.py", "test_label_clearance.py", "test_printshop_files.py", "test_pdf_output.py",
    "test_atomic_kit.py", "test_pdfx.py", "test_pdfx1a.py", "test_preflight.py", "test_export.py", "test_export_service.py",
    "test_face_cache.py", "test_unchanged_rebuild.py", "test_render_costs.py", "test_serve.py",
    "test_serve_browser.py", "test_watch.py", "test_i18n_kit.py", "test_i18n_tools.py", "test_i18n_fit.py",
    "test_last_lines.py", "test_impose_kit.py", "test_shared_sheets.py", "test_greyscale.py", "test_prepress.py",
    "test_variants_boards.py", "test_locale_keys_used.py", "test_docs.py", "test_cli.py", "test_packaging.py",
    "test_lazy_imports.py", "test_gutterfold.py", "test_back_offset.py", "test_expect.py", "test_gameschema.py",
    "test_html_report.py", "test_html_report_browser.py",
})


def pytest_collection_modifyitems(config, items):
    """Mark the slow tests (see SLOW_FOLDERS and SLOW_MODULES)."""
    for item in items:
        path = Path(str(item.fspath))
        if path.parent.name in SLOW_FOLDERS or path.name in SLOW_MODULES:
            item.add_marker(pytest.mark.slow)
