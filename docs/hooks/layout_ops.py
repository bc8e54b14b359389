"""MkDocs hook: the layout page's op reference, generated from cardgen's op table.

The page holds a marker; this hook replaces it with the tables that
``cardgen.layout.reference`` renders from the ops and keys the layout checker accepts, so the
reference cannot drift from the code.
"""

from __future__ import annotations

from cardgen.layout.reference import reference_markdown  # the one line that names cardgen's modules

MARKER = "<!-- layout-op-reference -->"


def on_page_markdown(markdown: str, page, config, files) -> str:
    """Replace the marker (if the page has one) with the generated op reference."""
    if MARKER not in markdown:
        return markdown
    return markdown.replace(MARKER, reference_markdown())
