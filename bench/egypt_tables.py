"""Write Egypt's shipped tables (``cardgen/rules/egypt/tables.bin``) for the code as it is.

    python bench/egypt_tables.py

Run it after a change to a module of ``cardgen.rules.egypt.tables.SOURCES`` (the engine's
move lists, searches or greedy player): until then the file is not read, and
``tests/rules/test_egypt_tables.py`` says so. It builds every table from scratch (some seconds),
writes the file, and reads it back, timing the read.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cardgen.load.game import load_game  # noqa: E402
from cardgen.rules import rules_for  # noqa: E402
from cardgen.rules.egypt import tablemaker, tables  # noqa: E402
from cardgen.rules.egypt.game import table_key  # noqa: E402
from cardgen.rules.egypt.spec import EgyptOptions  # noqa: E402


def main() -> None:
    game = load_game("egypt")
    rules = rules_for("egypt")
    options = rules.options(game)
    assert options == EgyptOptions(), "the shipped game's house rules are not the defaults the engine reads"
    start = time.process_time()
    size = tablemaker.write(options=options, players=rules.player_counts(game))
    built = time.process_time() - start
    start = time.process_time()
    got = tables.shipped_tables(table_key(EgyptOptions()))
    read = time.process_time() - start
    assert got is not None, "the file just written is not read back"
    print(f"wrote {tables.DATA.name}: {size:,} bytes, fingerprint {tables.fingerprint()};"
          f" built in {built:.1f} s, read in {1000 * read:.0f} ms (CPU)")


if __name__ == "__main__":
    main()
