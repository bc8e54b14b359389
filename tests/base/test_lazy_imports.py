"""`cardgen build` loads only what building needs: each command's module is imported
when that command runs, so the validator, the rules engines, the preview server and
the calibration sheet stay out of a build's start-up."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = r"""
import sys
from cardgen.cli import main
try:
    main(["build", sys.argv[1], "--paper", "a4", "--out", sys.argv[2]], prog_name="cardgen")
except SystemExit as exc:
    assert exc.code == 0, exc.code
loaded = sorted(m for m in sys.modules if m.startswith(("cardgen.validation", "cardgen.rules.", "cardgen.serve",
                                                         "cardgen.calibrate", "cardgen.cli.validate"))
                # the registry's small API, and the entry-point lookup that asks whether an installed
                # package has rules for the game (whose house rules the build checks)
                and m not in ("cardgen.rules.api", "cardgen.rules.plugins"))
print("LOADED", loaded)
"""


def test_build_does_not_import_the_validator_or_the_server(tmp_path):
    run = subprocess.run([sys.executable, "-c", PROBE, str(ROOT / "tests" / "data" / "mini_game"), str(tmp_path)],
                         capture_output=True, text=True, cwd=tmp_path, timeout=300,
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})
    assert run.returncode == 0, run.stderr[-2000:]
    assert "LOADED []" in run.stdout, run.stdout
    assert (tmp_path / "mini" / "mini-en-a4-cards.pdf").is_file()


def test_every_command_is_listed_and_found():
    from cardgen.cli import COMMANDS, main

    assert set(main.commands) == set(COMMANDS)
    assert all(main.get_command(None, name).name == name for name in COMMANDS)
    assert main.get_command(None, "nope") is None


POOL_PROBE = r"""
import sys
from cardgen.cli import main
try:
    main(["build", sys.argv[1], "--lang", "en", "--paper", "a4", "--out", sys.argv[2]], prog_name="cardgen")
except SystemExit as exc:
    assert exc.code == 0, exc.code
print("LOADED", sorted(m for m in ("multiprocessing", "concurrent.futures") if m in sys.modules))
"""


def test_a_build_of_one_language_starts_no_worker_pool_and_imports_none(tmp_path):
    """One language is built in the command's own process: the pool's modules
    (multiprocessing, concurrent.futures) are not even imported."""
    run = subprocess.run([sys.executable, "-c", POOL_PROBE, str(ROOT / "tests" / "data" / "mini_game"),
                          str(tmp_path)], capture_output=True, text=True, cwd=tmp_path, timeout=300,
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})
    assert run.returncode == 0, run.stderr[-2000:]
    assert "LOADED []" in run.stdout, run.stdout
    assert (tmp_path / "mini" / "mini-en-a4-cards.pdf").is_file()


FLATTENER_PROBE = r"""
import sys
from cardgen.cli import main
try:
    main(["build", sys.argv[1], "--lang", "en", "--paper", "a4", "--no-cache", "--out", sys.argv[2]],
         prog_name="cardgen")
except SystemExit as exc:
    assert exc.code == 0, exc.code
print("LOADED", sorted(m for m in ("shapely", "numpy", "cardgen.output.flatten") if m in sys.modules))
"""


def test_a_pdfx4_build_does_not_import_the_pdfx1a_flattener(tmp_path):
    """The transparency flattener (shapely, numpy) is for PDF/X-1a files only: a build
    of the default PDF/X-4 print-shop files never imports it."""
    run = subprocess.run([sys.executable, "-c", FLATTENER_PROBE, str(ROOT / "tests" / "data" / "mini_game"),
                          str(tmp_path)], capture_output=True, text=True, cwd=tmp_path, timeout=300,
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})
    assert run.returncode == 0, run.stderr[-2000:]
    assert "LOADED []" in run.stdout, run.stdout
    assert (tmp_path / "mini" / "mini-en-printshop-63x88mm.pdf").is_file()
