"""``cardgen i18n status``: how far each language is, and what would stop its build.

Per language: the share of the source's strings translated, the missing ones, the
keys no template or sheet label uses, translations whose placeholders differ from
the source's, translations whose source text has changed since they were imported, and every string too long for its box (by how much, on which paper),
found by rendering the language as a build does. The pseudo-language has no missing
strings; its overflows are the boxes a longer language will break.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from types import MappingProxyType

from ..layout.text import short
from ..load.locales import optional_key
from ..model.game import Game
from ..model.pseudo import PSEUDO
from .catalog import form_groups, kit_strings, read_locale, same_placeholders, source_of, used_by_cardgen
from .exchange import read_sources
from .usage import render_usage


@dataclass
class LangStatus:
    lang: str
    total: int
    translated: int
    missing: list[str] = field(default_factory=list)
    unused: list[str] = field(default_factory=list)
    placeholder_mismatches: list[str] = field(default_factory=list)
    outdated: list[str] = field(default_factory=list)  # translated from a source text that has changed since
    labels_in_source: list[str] = field(default_factory=list)  # sheet words printed in the source language
    overflows: list[dict] = field(default_factory=list)  # key (None: no string), text, where, paper, too_long, box
    problems: list[str] = field(default_factory=list)  # other errors the build would report

    @property
    def share(self) -> float:
        return self.translated / self.total if self.total else 1.0

    @property
    def blocks_build(self) -> bool:
        return bool(self.missing or self.placeholder_mismatches or self.overflows or self.problems)

    def as_json(self) -> dict:
        return {**asdict(self), "share": round(self.share, 4), "blocks_build": self.blocks_build}


def language_status(game: Game, lang: str) -> LangStatus:
    """The status of one language (the game loaded for translators: catalog.py)."""
    source = game.languages[0]
    src = {k: v for k, v in read_locale(game, source).items() if v.strip()}
    own = dict(game.strings[PSEUDO]) if lang == PSEUDO else read_locale(game, lang)
    required = [k for k in src if not optional_key(k, src)]
    translated = [k for k in required if own.get(k, "").strip()]
    st = LangStatus(lang, len(required), len(translated))
    st.missing = [k for k in required if not own.get(k, "").strip()]
    groups = form_groups(src, source)
    made_from = read_sources(game, lang) if lang != PSEUDO else {}
    for key, text in own.items():
        if key in src and text.strip() and not same_placeholders(key, src[key], text):
            st.placeholder_mismatches.append(key)
        if text.strip() and key in made_from and made_from[key] != source_of(src, groups, key):
            st.outdated.append(key)
    if st.placeholder_mismatches:  # rendered with the source's text there, so the rest of each face is checked
        table = {**game.strings[lang], **{k: src[k] for k in st.placeholder_mismatches}}
        game = replace(game, strings=MappingProxyType({**game.strings, lang: MappingProxyType(table)}))
    usage = render_usage(game, lang)
    tool = used_by_cardgen(game)
    st.unused = [k for k, v in own.items() if v.strip() and not usage.used(k) and k not in tool
                 and not k.startswith("sheet.")]
    found_by: list[tuple[str | None, list]] = [*usage.overflows.items(), (None, usage.unclaimed)]
    for string_key, found in found_by:
        seen: dict[tuple, dict] = {}
        for o in found:  # one line per box and paper, however many cards share it
            same = (o.paper, round(o.overflow, 3), o.box) + ((o.text,) if string_key is None else ())
            if same in seen:
                seen[same]["faces"] += 1
                continue
            seen[same] = {"key": string_key, "text": o.text, "where": o.label, "paper": o.paper, "too_long": same[1],
                          "box": o.box, "faces": 1}
            st.overflows.append(seen[same])
    st.problems = usage.problems
    if lang not in (PSEUDO, source):
        st.labels_in_source = [k for k, v in kit_strings(game, lang).items() if k.startswith("sheet.") and not v.strip()]
    return st


def text_report(st: LangStatus) -> list[str]:
    """The status of one language as lines for a terminal."""
    lines = [f"{st.lang}: {st.translated}/{st.total} strings translated ({st.share:.0%})"
             + ("" if st.blocks_build else ", ready to build")]

    def listed(title: str, items: list[str]) -> None:
        if items:
            lines.append(f"  {title} ({len(items)}): {', '.join(items)}")

    listed("missing", st.missing)
    listed("placeholders differ from the source", st.placeholder_mismatches)
    listed("outdated (the source text has changed since the translation)", st.outdated)
    listed("not used by any template", st.unused)
    listed("sheet label words printed in English: cardgen has none in this language (translate them like the "
           "other strings)", st.labels_in_source)
    for o in st.overflows:
        paper = f" on {o['paper']}" if o["paper"] else ""
        more = f" and {o['faces'] - 1} more face(s)" if o["faces"] > 1 else ""
        what = o["key"] or f"{short(o['text'])} (no locale string)"
        lines.append(f"  too long{paper}: {what} is {o['too_long']:.0%} too long for its {o['box']} box "
                     f"({o['where']}{more})")
    for p in st.problems:
        lines.append(f"  error: {p}")
    return lines
