"""The one :class:`Registry` type and the catalogs built on it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pacman.errors import ConfigurationError
from pacman.registry import Registry, suggest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def lazy_module(tmp_path, monkeypatch):
    """A module ``lazy_target_mod`` on the path that counts how often it is imported."""
    (tmp_path / "lazy_target_mod.py").write_text(
        "import builtins\n"
        "builtins.lazy_target_imports = getattr(builtins, 'lazy_target_imports', 0) + 1\n"
        "class Thing:\n    pass\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "lazy_target_mod", raising=False)
    import builtins

    monkeypatch.setattr(builtins, "lazy_target_imports", 0, raising=False)
    yield "lazy_target_mod"
    sys.modules.pop("lazy_target_mod", None)


def imports() -> int:
    import builtins

    return builtins.lazy_target_imports  # type: ignore[attr-defined]


def test_a_lazy_entry_is_imported_on_first_use_only(lazy_module):
    registry: Registry[type] = Registry("thing")
    registry.register("thing", f"{lazy_module}:Thing", help="a thing")
    assert "thing" in registry and registry.names() == ["thing"] and len(registry) == 1
    assert registry.help("thing") == "a thing" and not registry.is_loaded("thing")
    assert lazy_module not in sys.modules and imports() == 0  # listing imports nothing
    first = registry["thing"]
    assert first.__name__ == "Thing" and imports() == 1 and registry.is_loaded("thing")
    assert registry["thing"] is first and imports() == 1  # imported once


def test_a_module_reference_names_the_module(lazy_module):
    registry: Registry[object] = Registry("module", {"m": lazy_module})
    assert registry["m"] is sys.modules[lazy_module]


def test_an_object_entry_is_returned_as_given():
    thing = object()
    registry: Registry[object] = Registry("thing", {"it": thing})
    assert registry["it"] is thing and registry.is_loaded("it")
    assert registry.items() == [("it", thing)] and registry.values() == [thing]


def test_an_unknown_name_is_one_line_with_the_closest_names():
    registry: Registry[int] = Registry("ghost agent", {"directional": 1, "random": 2})
    with pytest.raises(ConfigurationError) as caught:
        registry["directionl"]
    assert str(caught.value) == "unknown ghost agent 'directionl'; did you mean directional?"
    with pytest.raises(ConfigurationError, match="; known: directional, random; see --list$"):
        raise registry.unknown("zzz", "; see --list")
    assert registry.get("zzz") is None and registry.get("random") == 2
    assert not registry.is_loaded("zzz")


def test_registering_a_name_twice_is_refused():
    registry: Registry[int] = Registry("thing", {"one": 1})
    with pytest.raises(ValueError, match="'one' is already registered"):
        registry.register("one", 2)
    assert registry["one"] == 1
    with pytest.raises(ValueError):
        Registry("thing", {" padded": 1})


names = st.text(alphabet="abcdefghij_", min_size=1, max_size=8)


@given(st.lists(names, min_size=1, max_size=6, unique=True), names)
def test_lookups_return_the_registered_object_or_name_only_registered_names(known, asked):
    registry: Registry[str] = Registry("thing")
    for name in known:
        registry.register(name, object())  # type: ignore[arg-type]
    if asked in known:
        registry[asked]  # found, no error
        return
    with pytest.raises(ConfigurationError) as caught:
        registry[asked]
    message = str(caught.value)
    assert message.startswith(f"unknown thing {asked!r}") and "\n" not in message
    hint = message[len(f"unknown thing {asked!r}"):]
    assert hint == suggest(asked, known)
    offered = hint.removeprefix("; did you mean ").removesuffix("?").replace(" or ", ", ")
    offered = offered.removeprefix("; known: ")
    assert set(offered.split(", ")) <= set(known)


def test_every_catalog_entry_loads():
    from pacman.agents.catalog import GHOST_AGENTS, PACMAN_AGENTS
    from pacman.agents.evaluation import EVALUATIONS
    from pacman.cli import COMMANDS
    from pacman.display import DISPLAYS
    from pacman.experiments import EXPERIMENTS

    for registry in (PACMAN_AGENTS, GHOST_AGENTS, EVALUATIONS, COMMANDS, EXPERIMENTS):
        assert all(value is not None for value in registry.values()), registry
    assert DISPLAYS["text"].__name__ == "TextDisplay" and DISPLAYS["none"]().request is None


def test_the_catalogs_import_no_agent_until_one_is_named():
    code = ("import sys, pacman.agents.catalog as c\n"
            "names = c.PACMAN_AGENTS.names() + c.GHOST_AGENTS.names()\n"
            "before = sorted(m for m in ('pacman.agents.search_agents', 'pacman.agents.smart_ghosts', "
            "'pacman.agents.ghosts', 'pacman.agents.basic') if m in sys.modules)\n"
            "c.GHOST_AGENTS['directional']\n"
            "print(len(names), before, 'pacman.agents.ghosts' in sys.modules, "
            "'pacman.agents.search_agents' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout.split()
    from pacman.agents.catalog import GHOST_AGENTS, PACMAN_AGENTS

    # every name listed (however many the catalogs hold), none of their modules imported
    assert out == [str(len(PACMAN_AGENTS) + len(GHOST_AGENTS)), "[]", "True", "False"]
