"""The listings of ``play`` (``--list-layouts``, ``--list-agents``) and how every listing of
the program prints an item: a name, then its text wrapped under itself, within
:data:`LISTING_WIDTH` columns."""

from __future__ import annotations

import re
import textwrap

from pacman.engine.layout import layout_catalog, load_layout

#: Every line of a listing within this many columns.
LISTING_WIDTH = 80
#: A reStructuredText role (``:meth:`~a.b.c```, with or without its backquotes).
_ROLE = re.compile(r":(?:meth|func|class|mod|attr|data|obj|exc):`?~?([\w.]+)`?")


def plain_text(text: str) -> str:
    """``text`` with reStructuredText roles turned into plain names (``:meth:`~a.B.run```
    becomes ``run()``, ``:class:`a.B``` becomes ``B``) and double backquotes removed."""
    def name(match: re.Match[str]) -> str:
        last = match.group(1).rsplit(".", 1)[-1]
        return last + "()" if match.group(0)[1:5] in ("meth", "func") else last

    return _ROLE.sub(name, text).replace("``", "")


def print_item(name: str, text: str, name_width: int, indent: int = 2,
               width: int = LISTING_WIDTH) -> None:
    """One item of a listing: ``name`` padded to ``name_width``, then ``text`` (made plain)
    wrapped under itself within ``width`` columns."""
    lead = f"{' ' * indent}{name:{name_width}} "
    print(textwrap.fill(plain_text(text), width, initial_indent=lead,
                        subsequent_indent=" " * len(lead), break_on_hyphens=False))


def list_layouts() -> int:
    """Every shipped maze with its size, ghosts and purpose, and where it comes from when it
    is not this project's own (the ``source`` of ``layouts/catalog.toml``)."""
    sources = _layout_sources()
    for name, purpose in layout_catalog().items():
        layout = load_layout(name)
        ghosts = f"{layout.num_ghosts} ghost{'' if layout.num_ghosts == 1 else 's'}"
        size = f"{layout.width}x{layout.height}"
        text = f"{size:5} {ghosts:8} {purpose}"
        print_item(name, text + (f" [from {sources[name]}]" if name in sources else ""), 17,
                   indent=0)
    return 0


def _layout_sources() -> dict[str, str]:
    """``name -> source`` of the shipped mazes taken from elsewhere."""
    import tomllib
    from pathlib import Path

    from pacman import layouts

    catalog = Path(layouts.__file__).with_name("catalog.toml")
    try:
        data = tomllib.loads(catalog.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        return {}
    return {name: str(entry["source"]) for name, entry in data.items()
            if isinstance(entry, dict) and entry.get("source")}


def list_agents(width: int = LISTING_WIDTH) -> int:
    """Every agent with one sentence and its options, then the evaluation functions; lines
    wrap at ``width`` columns under their text."""
    from pacman.agents.catalog import CLASSIC_NAMES, GHOST_AGENTS, PACMAN_AGENTS, summary
    from pacman.agents.evaluation import EVALUATIONS
    from pacman.lineup.options import describe_options

    def item(name: str, text: str) -> None:
        print_item(name, text, 14, width=width)

    for role, title, registry in (("pacman", "Pacman agents (--pacman, -p)", PACMAN_AGENTS),
                                  ("ghost", "Ghost agents (--ghosts, -g)", GHOST_AGENTS)):
        print(title)
        classic = {short: long for long, short in CLASSIC_NAMES[role].items()}
        for name, factory in registry.items():
            text = summary(factory)
            if name in classic:
                text += f" Classic name: {classic[name]}."
            options = describe_options(factory)
            item(name, text + (f" Options: {options}." if options else ""))
    print("Evaluation functions (evaluation=NAME)")
    for name, evaluation in EVALUATIONS.items():
        item(name, summary(evaluation.function))
    item("linear[:W]", "A weighted sum of features, w . phi(s): W is name=weight,... or a JSON "
         "file (the features are in agents/linear.py).")
    print("Any agent or evaluation may also be given as module:attr or path/file.py:Name.")
    return 0
