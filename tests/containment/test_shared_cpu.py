"""A game and its contained agents share one CPU while the game lasts (pacman.shared_cpu): the
two processes take turns, and on one CPU no hand-over wakes an idle one."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from pacman import shared_cpu
from pacman.game_loop import run_game
from pacman.layout import load_layout
from pacman.lineup import lineup

AGENTS = Path(__file__).with_name("reuse_agents.py")
several = pytest.mark.skipif(not hasattr(os, "sched_getaffinity") or len(os.sched_getaffinity(0)) < 2,
                             reason="this process may run on one CPU only")


@several
def test_pins_nest_and_the_last_gives_the_cpus_back():
    before = os.sched_getaffinity(0)
    first = shared_cpu.pin_game()
    assert first in before and os.sched_getaffinity(0) == {first}
    assert shared_cpu.pin_game() == first  # a second contained agent of the same game
    shared_cpu.unpin_game()
    assert os.sched_getaffinity(0) == {first}
    shared_cpu.unpin_game()
    assert os.sched_getaffinity(0) == before
    shared_cpu.unpin_game()  # one too many changes nothing
    assert os.sched_getaffinity(0) == before


@several
def test_each_thread_holds_its_own_pin():
    """Games may run in threads: one thread's pin neither pins nor frees another's."""
    before = os.sched_getaffinity(0)
    pinned, seen = threading.Event(), {}

    def game():
        seen["cpu"] = shared_cpu.pin_game()
        seen["inside"] = os.sched_getaffinity(0)
        pinned.set()
        release.wait(10)
        shared_cpu.unpin_game()
        seen["after"] = os.sched_getaffinity(0)

    release = threading.Event()
    thread = threading.Thread(target=game)
    thread.start()
    assert pinned.wait(10)
    assert seen["inside"] == {seen["cpu"]} and os.sched_getaffinity(0) == before
    shared_cpu.unpin_game()  # this thread holds no pin: nothing to give back
    assert os.sched_getaffinity(0) == before
    release.set()
    thread.join(10)
    assert seen["after"] == before


def test_nothing_is_pinned_where_the_process_has_one_cpu():
    if not hasattr(os, "sched_getaffinity"):
        pytest.skip("no CPU affinity on this system")
    before = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(before)})
    try:
        assert shared_cpu.pin_game() is None
        assert os.sched_getaffinity(0) == {min(before)}
        shared_cpu.unpin_game()
        assert os.sched_getaffinity(0) == {min(before)}
    finally:
        os.sched_setaffinity(0, before)


@several
def test_a_contained_agent_runs_on_its_games_cpu_and_the_game_gets_its_cpus_back():
    before = os.sched_getaffinity(0)
    layout = load_layout("small_classic")
    result = run_game(layout, lineup(layout, f"{AGENTS}:ReportsItsCpus", "directional"), seed=3,
                      max_moves=8)
    assert result.failure is None, result.failure
    allowed = result.agent_stats[0]["allowed"]
    assert len(allowed) == result.decisions[0] > 0
    cpus = {cpu for cpus, _ in allowed for cpu in cpus}
    assert len(cpus) == 1 and cpus <= before
    assert {ran_on for _, ran_on in allowed} == cpus
    assert os.sched_getaffinity(0) == before
