"""The listings of ``play``: ``--list-layouts`` and ``--list-agents``."""

from __future__ import annotations

from pacman.layout import layout_catalog, load_layout


def list_layouts() -> int:
    """Every shipped maze with its size, ghosts and purpose, and where it comes from when it
    is not this project's own (the ``source`` of ``layouts/catalog.toml``)."""
    sources = _layout_sources()
    for name, purpose in layout_catalog().items():
        layout = load_layout(name)
        line = (f"{name:16} {layout.width:>2}x{layout.height:<2} {layout.num_ghosts} ghost"
                f"{' ' if layout.num_ghosts == 1 else 's'}  {purpose}")
        print(line + (f" [from {sources[name]}]" if name in sources else ""))
    return 0


def _layout_sources() -> dict[str, str]:
    """``name -> source`` of the shipped mazes taken from elsewhere."""
    import tomllib
    from pathlib import Path

    import layouts

    catalog = Path(layouts.__file__).with_name("catalog.toml")
    try:
        data = tomllib.loads(catalog.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        return {}
    return {name: str(entry["source"]) for name, entry in data.items()
            if isinstance(entry, dict) and entry.get("source")}


def list_agents(width: int = 100) -> int:
    """Every agent with one sentence and its options, then the evaluation functions; lines
    wrap at ``width`` columns under their text."""
    import textwrap

    from agents.catalog import CLASSIC_NAMES, GHOST_AGENTS, PACMAN_AGENTS, summary
    from agents.evaluation import EVALUATIONS
    from pacman.options import describe_options

    def item(name: str, text: str) -> None:
        print(textwrap.fill(text, width, initial_indent=f"  {name:14} ",
                            subsequent_indent=" " * 17, break_on_hyphens=False))

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
