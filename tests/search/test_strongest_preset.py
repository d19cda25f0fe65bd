"""``strongest`` is the deepening agent with the strongest setting as docs/strongest-pacman.md states
it, option for option."""

from __future__ import annotations

import random
import re
from pathlib import Path

from pacman.engine.layout import load_layout
from pacman.lineup.build import lineup
from pacman.lineup.options import parse_assignments

DOCS = Path(__file__).resolve().parents[2] / "docs"
#: the setting as docs/strongest-pacman.md states it (at the top of the page), read from the page
SETTING = re.findall(r"^`deepening ([^`]+)`$", (DOCS / "strongest-pacman.md").read_text("utf-8"), re.M)[0]
COMPARED = ("time_budget", "max_depth", "order", "table", "reorder", "clock", "resist", "focus",
            "outrun", "route", "route_margin")


def built(name, options=None):
    layout = load_layout("smallClassic")
    return lineup(layout, name, "directional", pacman_options=options)[0].build(0, random.Random(0))


def test_the_preset_is_the_documented_setting():
    preset = built("strongest")
    by_hand = built("deepening", parse_assignments(SETTING.split(), "-a"))
    assert {k: getattr(preset, k) for k in COMPARED} == {k: getattr(by_hand, k) for k in COMPARED}
    assert preset.evaluation.name == by_hand.evaluation.name == "strong"
    assert preset.game.focus == "horizon"


def test_every_page_states_the_same_setting():
    stated = {setting for page in DOCS.glob("*.md")
              for setting in re.findall(r"`deepening (time_budget=[^`]+)`", page.read_text("utf-8"))
              if "evaluation=strong" in setting}
    assert stated == {SETTING}
    assert SETTING.split() == ["time_budget=0.04", "order=none", "evaluation=strong", "resist=true",
                               "focus=horizon", "outrun=20", "route=30"]


def test_every_option_of_the_preset_can_still_be_changed():
    assert built("strongest", {"time_budget": "0.2", "route": "0"}).time_budget == 0.2
    assert built("strongest", {"route": "0"}).route == 0
