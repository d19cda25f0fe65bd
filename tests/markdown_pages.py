"""The headings and links of the project's Markdown pages, read as GitHub renders them.

A heading's anchor is GitHub's: the heading's text as shown (a link keeps its text, a code span
its content), lower-cased, every character that is not a letter, a digit, ``_``, ``-`` or a
space dropped, spaces made ``-``; the second heading with the same anchor gets ``-1``, the third
``-2``. Text inside fenced code blocks and code spans is neither a heading nor a link.

A relative link resolves when its file or folder exists inside the repository and, when it
names an ``#anchor`` of a Markdown page (or of its own page), that page has the heading.
Absolute URLs (``https:``, ``mailto:``) are not followed.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote

ROOT = Path(__file__).resolve().parents[1]

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")
_CODE_SPAN = re.compile(r"(`+)(.+?)\1")
_LINK = re.compile(r"!?\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\(\s*<?([^()\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


@dataclass(frozen=True)
class Link:
    """A link of a page: the page, its line (from 1) and the target as written."""

    page: Path
    line: int
    target: str


def prose_lines(text: str) -> list[tuple[int, str]]:
    """The lines outside fenced code blocks, with their numbers (from 1)."""
    lines, fence = [], ""
    for number, line in enumerate(text.splitlines(), start=1):
        opening = _FENCE.match(line)
        if fence:
            if opening and opening.group(1)[0] == fence[0] and len(opening.group(1)) >= len(fence) \
                    and not line.strip().lstrip(fence[0]):
                fence = ""
        elif opening:
            fence = opening.group(1)
        else:
            lines.append((number, line))
    return lines


def _without_code_spans(line: str) -> str:
    return _CODE_SPAN.sub(lambda span: "x" * len(span.group(2)), line)


def github_anchor(heading: str) -> str:
    """The anchor GitHub gives a heading of this text (before numbering duplicates)."""
    text = _LINK.sub(lambda link: link.group(1), heading)
    text = _CODE_SPAN.sub(lambda span: span.group(2), text).lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Every anchor of a page's headings, duplicates numbered as GitHub numbers them."""
    seen: Counter[str] = Counter()
    found = set()
    for _, line in prose_lines(text):
        heading = _HEADING.match(line)
        if heading:
            anchor = github_anchor(heading.group(2))
            found.add(anchor if not seen[anchor] else f"{anchor}-{seen[anchor]}")
            seen[anchor] += 1
    return found


def links(page: Path) -> list[Link]:
    """Every link and image of a page outside code, in order."""
    return [Link(page, number, match.group(2))
            for number, line in prose_lines(page.read_text(encoding="utf-8"))
            for match in _LINK.finditer(_without_code_spans(line))]


def broken(link: Link, root: Path = ROOT) -> str | None:
    """Why a relative link does not resolve, or None when it does (or is absolute)."""
    if _SCHEME.match(link.target):
        return None
    path_part, _, anchor = link.target.partition("#")
    target = (link.page.parent / unquote(path_part)).resolve() if path_part else link.page
    where = f"{link.page.relative_to(root)}:{link.line}: {link.target}"
    if not target.is_relative_to(root.resolve()):
        return f"{where}: outside the repository"
    if not target.exists():
        return f"{where}: no such file"
    if anchor and target.suffix == ".md" and target.is_file() \
            and unquote(anchor) not in anchors(target.read_text(encoding="utf-8")):
        return f"{where}: no heading with this anchor"
    return None
