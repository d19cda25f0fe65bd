"""The search specialised for Pacman agrees with the generic core node for node, and the cheap
move orderings keep the values.

A subclass of :class:`PacmanGame` is searched by the generic :class:`Search` (the specialisation
would bypass its methods), which gives the reference for every configuration.
"""

from __future__ import annotations

import random
from itertools import islice

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pacman.agents.evaluation import EVALUATIONS, better
from pacman.agents.pacman_game import PacmanGame
from pacman.agents.pacman_search import PacmanSearch
from pacman.agents.search import ChanceNodeError, TranspositionTable, alphabeta, iterative_deepening, minimax
from pacman.agents.search.algorithms import algorithm_config
from pacman.agents.search.core import run_search, search_type_for
from pacman.agents.search.node_search import Search
from pacman.agents.search_agents import IterativeDeepeningAgent
from pacman.errors import ConfigurationError
from pacman.game import random_play
from pacman.layout import load_layout
from pacman.state import GameState


class GenericPacmanGame(PacmanGame):
    """The same game, searched by the generic core."""


def turns(layout_name: str, seed: int, count: int) -> list[GameState]:
    play = random_play(GameState.initial(load_layout(layout_name)), random.Random(seed))
    return [s for s in islice(play, count * 3) if s.turn == 0 and s.outcome is None][:count]


CONFIGS = {
    "minimax": dict(name="minimax", depth=2),
    "alphabeta": dict(name="alphabeta", depth=2),
    "alphabeta strict": dict(name="alphabeta", depth=2, strict=True),
    "alphabeta evaluation order": dict(name="alphabeta", depth=2, order="evaluation"),
    "alphabeta history order": dict(name="alphabeta", depth=2, order="history"),
    "alphabeta table": dict(name="alphabeta", depth=2, table=True),
    "expectimax": dict(name="expectimax", depth=1),
}


def search_with(game, state, options, trace=True):
    options = dict(options)
    name = options.pop("name")
    if options.pop("table", False):
        options["table"] = TranspositionTable()
    return run_search(game, state, algorithm_config(name, trace=trace, **options))


def test_pacman_game_selects_the_specialised_search_and_a_subclass_the_generic_one():
    assert search_type_for(PacmanGame(better)) is PacmanSearch
    assert search_type_for(GenericPacmanGame(better)) is Search


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), layout=st.sampled_from(["small_classic", "smallClassic",
                                                             "trickyClassic"]),
       config=st.sampled_from(sorted(CONFIGS)),
       ghosts=st.sampled_from(["adversarial", "uniform"]))
def test_specialised_search_visits_and_values_exactly_as_the_generic_core(seed, layout, config,
                                                                          ghosts):
    evaluation = EVALUATIONS["better"]
    fast = PacmanGame(evaluation, ghosts)
    generic = GenericPacmanGame(evaluation, ghosts)
    options = CONFIGS[config]
    for state in turns(layout, seed, 2):
        if ghosts == "uniform" and options["name"] != "expectimax":
            for game in (fast, generic):  # chance nodes are refused by both
                with pytest.raises(ChanceNodeError):
                    search_with(game, state, options)
            continue
        a = search_with(fast, state, CONFIGS[config])
        b = search_with(generic, state, CONFIGS[config])
        assert (a.value, a.action, a.root_values, a.principal_variation) == \
               (b.value, b.action, b.root_values, b.principal_variation)
        assert a.stats.generated == b.stats.generated
        assert a.stats.evaluated == b.stats.evaluated
        assert a.stats.cutoffs == b.stats.cutoffs


@pytest.mark.parametrize("config", ["minimax", "alphabeta", "alphabeta strict"])
@pytest.mark.parametrize("layout", ["small_classic", "trickyClassic"])
def test_untraced_leaves_are_valued_and_counted_as_traced_ones(config, layout):
    """Without a trace or cache the loops value leaves inline; the answer and every count are
    those of the traced search (which values leaves through ``leaf``), in both searches."""
    evaluation = EVALUATIONS["better"]
    for state in turns(layout, 11, 3):
        answers = [search_with(game, state, CONFIGS[config], trace)
                   for game in (PacmanGame(evaluation), GenericPacmanGame(evaluation))
                   for trace in (True, False)]
        first = answers[0]
        for other in answers[1:]:
            assert (other.value, other.action, other.root_values) == \
                   (first.value, first.action, first.root_values)
            assert counts(other) == counts(first)
        assert first.stats.nodes_generated > len(first.root_values)


def counts(result) -> tuple:
    stats = result.stats
    return (stats.nodes_generated, stats.static_evaluations, stats.terminal_utilities,
            stats.depth_cuts, stats.cutoffs)


def test_the_specialised_search_honours_an_evaluate_override():
    state = turns("small_classic", 3, 1)[0]
    calls = []

    def counting(s):
        calls.append(s)
        return 0.0

    result = minimax(PacmanGame(better), state, depth=1, evaluate=counting)
    assert calls and result.value == 0.0


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_history_ordering_keeps_the_value_and_prunes(depth):
    game = PacmanGame(better)
    for state in turns("smallClassic", 11, 4):
        plain = alphabeta(game, state, depth=depth)
        learned = alphabeta(game, state, depth=depth, order="history")
        assert learned.value == plain.value == minimax(game, state, depth=depth).value
        assert learned.stats.ordering_evaluations == 0  # ordered without generating children


def test_history_ordering_learns_across_deepening_iterations():
    game = PacmanGame(better)
    state = turns("smallClassic", 5, 1)[0]
    result = iterative_deepening(game, state, max_depth=3, order="history", table=False,
                                 reorder="root")
    assert result.value == alphabeta(game, state, depth=3).value


def test_deepening_agent_clock_option():
    assert IterativeDeepeningAgent(clock="wall").clock == "wall"
    with pytest.raises(ConfigurationError):
        IterativeDeepeningAgent(clock="sundial")  # type: ignore[arg-type]


def test_cpu_clock_budget_stops_the_search():
    """A CPU-time budget ends the search: a tiny budget reaches a shallow depth only."""
    import time

    game = PacmanGame(better)
    state = turns("mediumClassic", 2, 1)[0]
    result = iterative_deepening(game, state, time_budget=0.005, clock=time.thread_time)
    assert result.action in state.legal_actions(0)
    assert result.stats.depth_reached < 30


def deepening_answer(game, state, depth, table):
    result = iterative_deepening(game, state, max_depth=depth, reorder="all", table=table)
    stats = result.stats
    return (result.value, result.action, result.root_values, result.principal_variation,
            stats.nodes_generated, stats.static_evaluations, stats.terminal_utilities,
            stats.depth_cuts, stats.cutoffs, stats.cache_hits, stats.transposition_hits)


@settings(max_examples=16, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), layout=st.sampled_from(["smallClassic", "originalClassic"]),
       focus=st.sampled_from([0, 6, "horizon"]), evaluation=st.sampled_from(["better", "strong"]))
def test_the_deepening_configuration_is_searched_by_one_loop_exactly_as_by_the_generic_one(
        seed, layout, focus, evaluation):
    """The deepening agent's configuration (a table, the previous iteration's best moves first,
    cached leaves) has its own loop (``tabled_value``); with it switched off the same search runs
    through the generic node functions. Values, moves, every count and the table agree."""
    game = PacmanGame(EVALUATIONS[evaluation], focus=focus)
    original_init = PacmanSearch.__init__

    def untabled(self, *args):
        original_init(self, *args)
        self.tabled = False

    for state in turns(layout, seed, 2):
        tables = TranspositionTable(), TranspositionTable()
        fast = deepening_answer(game, state, 4, tables[0])
        PacmanSearch.__init__ = untabled  # type: ignore[method-assign]
        try:
            generic = deepening_answer(game, state, 4, tables[1])
        finally:
            PacmanSearch.__init__ = original_init  # type: ignore[method-assign]
        assert fast == generic
        assert tables[0].entries == tables[1].entries
        assert tables[0].best_moves == tables[1].best_moves
        assert tables[0].evaluations == tables[1].evaluations


def test_the_deepening_agent_searches_with_its_own_loop():
    """The loop above is what the deepening agent's searches run (its tests would otherwise
    pass without it ever running)."""
    calls = []
    original = PacmanSearch.tabled_value

    def counting(self, *args):
        calls.append(1)
        return original(self, *args)

    PacmanSearch.tabled_value = counting  # type: ignore[method-assign]
    try:
        agent = IterativeDeepeningAgent(time_budget=10.0, max_depth=3, order="none",
                                        evaluation=EVALUATIONS["strong"], focus="horizon")
        agent.get_action(turns("smallClassic", 1, 1)[0])
    finally:
        PacmanSearch.tabled_value = original  # type: ignore[method-assign]
    assert calls


@pytest.mark.parametrize("order", ["none", "evaluation", "history"])
def test_a_finished_search_is_freed_at_once_with_its_table(order):
    """A search holds no reference to itself (no bound method of its own among its tools), so
    it and its table are freed when the search returns, not at some later collection of
    cyclic garbage, whose cost (about 10 ms a move with a table, measured) fell on whatever ran
    then, outside the move's time."""
    import gc

    state = turns("smallClassic", 2, 1)[0]
    collecting = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        iterative_deepening(PacmanGame(better), state, max_depth=3, order=order, reorder="all")
        left = [o for o in gc.get_objects() if isinstance(o, (Search, TranspositionTable))]
    finally:
        if collecting:
            gc.enable()
    assert left == []
