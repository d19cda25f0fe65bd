"""The batch matrix: agent entries, sweeps, shared options, labels, seeds and job order."""

from __future__ import annotations

import pytest

from pacman.batch.plan import (AgentEntry, BatchPlan, expand_sweeps, parse_sweep,
                               with_shared_options)
from pacman.errors import ConfigurationError


def test_entries_parse_agent_then_options():
    entry = AgentEntry.parse("linear.py:Agent depth=3 evaluation=linear:score=1,food=-2",
                             "--pacman")
    assert entry.agent == "linear.py:Agent"
    assert entry.options == {"depth": "3", "evaluation": "linear:score=1,food=-2"}
    assert entry.label == "linear.py:Agent depth=3 evaluation=linear:score=1,food=-2"
    for bad in ("", "depth=3", "random depth"):
        with pytest.raises(ConfigurationError):
            AgentEntry.parse(bad, "--pacman")


def test_sweeps_multiply_and_shared_options_yield_to_an_entrys_own():
    entries = with_shared_options([AgentEntry("alphabeta", {"depth": "4"}),
                                   AgentEntry("expectimax")], {"depth": "2", "order": "x"})
    assert [e.options for e in entries] == [{"depth": "4", "order": "x"},
                                            {"depth": "2", "order": "x"}]
    swept = expand_sweeps([AgentEntry("alphabeta")],
                          parse_sweep(["depth=1,2,3", "evaluation=score,better"]))
    assert len(swept) == 6
    assert swept[0].label == "alphabeta depth=1 evaluation=score"
    assert swept[-1].label == "alphabeta depth=3 evaluation=better"


def test_jobs_pair_seeds_across_conditions_seed_first():
    plan = BatchPlan(pacman=[AgentEntry("random"), AgentEntry("greedy")],
                     ghosts=[AgentEntry("random"), AgentEntry("directional,random")],
                     layouts=["small_classic", "mazes/my maze.lay"], games=3, seed=10)
    jobs = plan.jobs()
    assert len(jobs) == 2 * 2 * 2 * 3
    conditions = {job.condition for job in jobs}
    assert len(conditions) == 8
    assert "greedy vs directional,random @ my maze" in conditions
    for condition in conditions:
        assert [j.seed for j in jobs if j.condition == condition] == [10, 11, 12]
    assert [j.seed for j in jobs[:8]] == [10] * 8  # every condition of seed 10 first
    assert {j.ghosts for j in jobs} == {("random",), ("directional", "random")}


def test_plan_rejects_empty_or_duplicate_conditions():
    with pytest.raises(ConfigurationError, match="at least one"):
        BatchPlan(pacman=[], ghosts=[AgentEntry("random")], layouts=["tiny"])
    with pytest.raises(ConfigurationError, match="twice"):
        BatchPlan(pacman=[AgentEntry("random")] * 2, ghosts=[AgentEntry("random")],
                  layouts=["tiny"]).jobs()
