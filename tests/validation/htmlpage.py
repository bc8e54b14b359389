"""A small tree of an HTML page (the standard library's parser), for the report's tests to
read what it shows: elements by class or attribute, and their text."""

from __future__ import annotations

import re
from html.parser import HTMLParser

VOID = {"meta", "br", "link", "img", "input", "hr", "col", "area", "base", "source", "wbr"}


class Node:
    def __init__(self, tag: str, attrs: dict[str, str | None], parent: Node | None):
        self.tag, self.attrs, self.parent = tag, attrs, parent
        self.children: list[Node | str] = []

    def text(self) -> str:
        """The element's text, its descendants' included (titles too)."""
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def iter(self):
        yield self
        for c in self.children:
            if isinstance(c, Node):
                yield from c.iter()

    def find_all(self, tag: str | None = None, cls: str | None = None, **attrs: str) -> list[Node]:
        return [n for n in self.iter() if (tag is None or n.tag == tag)
                and (cls is None or cls in (n.attrs.get("class") or "").split())
                and all(n.attrs.get(k.replace("_", "-")) == v for k, v in attrs.items())]

    def own_text(self, tag: str) -> str:
        """The text of this element's first ``tag`` child (e.g. an SVG mark's title)."""
        for c in self.children:
            if isinstance(c, Node) and c.tag == tag:
                return c.text()
        return ""


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = self.at = Node("#document", {}, None)

    def handle_starttag(self, tag, attrs):
        node = Node(tag, dict(attrs), self.at)
        self.at.children.append(node)
        if tag not in VOID:
            self.at = node

    def handle_startendtag(self, tag, attrs):
        self.at.children.append(Node(tag, dict(attrs), self.at))

    def handle_endtag(self, tag):
        node = self.at
        while node is not None and node.tag != tag:
            node = node.parent
        assert node is not None and node.parent is not None, f"</{tag}> closes nothing"
        self.at = node.parent

    def handle_data(self, data):
        self.at.children.append(data)


def parse(page: str) -> Node:
    builder = _Builder()
    builder.feed(page)
    builder.close()
    assert builder.at is builder.root, f"<{builder.at.tag}> left open"
    return builder.root


def percentages(text: str) -> list[int]:
    """The whole numbers of a text such as "seat 1: 42 % [29–56]", in order."""
    return [int(x) for x in re.findall(r"\d+", text.replace(",", ""))]
