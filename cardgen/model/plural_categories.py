"""The names of CLDR's plural categories, which a locale string's plural forms use as
keys (``cards: {one: "{n} card", other: "{n} cards"}``)."""

from __future__ import annotations

CATEGORIES = ("zero", "one", "two", "few", "many", "other")
