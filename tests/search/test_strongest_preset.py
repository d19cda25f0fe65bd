"""``strongest`` is the deepening agent with the README's strongest setting, option for option."""

from __future__ import annotations

import random

from pacman.layout import load_layout
from pacman.lineup import lineup
from pacman.options import parse_assignments

#: the setting as the README and docs/strongest-pacman.md state it
SETTING = "time_budget=0.04 order=none evaluation=strong resist=true focus=horizon outrun=20 route=30"
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


def test_every_option_of_the_preset_can_still_be_changed():
    assert built("strongest", {"time_budget": "0.2", "route": "0"}).time_budget == 0.2
    assert built("strongest", {"route": "0"}).route == 0
