"""Every string of every shipped game's locale files is printed somewhere: found by
rendering every face of the source language on both papers, every variant in, and
listening to the keys each face reads (cardgen/i18n/usage.py, as `cardgen i18n
status` does). A string a house rule picks is only read under that choice, so the
strings of the choices a game does not make are left out."""

from __future__ import annotations

import pytest

from cardgen.i18n.catalog import load_for_translators
from cardgen.i18n.status import language_status
from cardgen.rules.egypt.spec import EgyptOptions
from cardgen.rules.farao.spec import FaraoOptions
from cardgen.rules.hapy.spec import HapyOptions

OPTIONS = {"hapy": HapyOptions, "egypt": EgyptOptions, "farao": FaraoOptions, "horus": None}


def choice_words(options) -> set[str]:
    """The words a house rule may hold: each choice, and true/false."""
    if options is None:
        return set()
    words = {str(w).lower() for values in getattr(options, "CHOICES", {}).values() for w in values}
    return words | ({"true", "false"} if getattr(options, "BOOLS", ()) else set())


@pytest.mark.parametrize("game_id", sorted(OPTIONS))
def test_every_locale_string_is_used(game_id):
    game = load_for_translators(game_id)
    words = choice_words(OPTIONS[game_id])
    unused = [k for k in language_status(game, game.languages[0]).unused
              if not any(k.endswith(("." + w, "_" + w)) for w in words)]
    assert not unused, f"{game_id}: strings no face reads: {unused}"
