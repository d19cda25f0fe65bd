"""Pacman's adapter of the search (:class:`PacmanSearch`: the game's functions read straight from
the state) agrees with the game's protocol methods node for node, and the cheap move orderings
keep the values. Both run the one fast loop, :meth:`Search.node_value` (a spy proves it ran).

A subclass of :class:`PacmanGame` is searched by :class:`Search` through the game's protocol
methods (the adapter would bypass them), which gives the reference for every configuration.
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
from pacman.agents.search import textbook
from pacman.agents.search.algorithms import algorithm_config
from pacman.agents.search.core import SearchConfig, run_search, search_type_for
from pacman.agents.search.node_search import Search
from pacman.agents.search.steps import StepRecorder
from pacman.agents.search_agents import IterativeDeepeningAgent
from pacman.errors import ConfigurationError
from pacman.engine.game import random_play
from pacman.engine.layout import load_layout
from pacman.engine.state import GameState
from search_support import FastPathSpy


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
    "expectimax table": dict(name="expectimax", depth=2, table=True),
}


def search_with(game, state, options, trace=True):
    """Search with ``options``; ``trace``: every state generated and every leaf valued, in
    order (leaves then go through the loop's traced valuer), ``"generated"``: the generated
    states only (the loop values leaves inline)."""
    options = dict(options)
    name = options.pop("name")
    if options.pop("table", False):
        options["table"] = TranspositionTable()
    if trace == "generated":
        return run_search(game, state, algorithm_config(name, **options), traces=([], None))
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
        with FastPathSpy() as adapted:
            a = search_with(fast, state, CONFIGS[config], "generated")
        with FastPathSpy() as protocol:
            b = search_with(generic, state, CONFIGS[config], "generated")
        assert adapted.calls == protocol.calls > 0
        assert (a.value, a.action, a.root_values, a.principal_variation) == \
               (b.value, b.action, b.root_values, b.principal_variation)
        assert a.stats.generated == b.stats.generated
        assert counts(a) == counts(b)
        assert a.stats.cache_hits == b.stats.cache_hits
        assert a.stats.transposition_hits == b.stats.transposition_hits


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
       focus=st.sampled_from([0, 6]), evaluation=st.sampled_from(["better", "strong"]))
def test_the_deepening_configuration_reads_pacman_alike_through_the_adapter_and_the_protocol(
        seed, layout, focus, evaluation):
    """The deepening agent's configuration (a table, the previous iteration's best moves first,
    cached leaves) searched through Pacman's adapter and through the game's protocol methods:
    both run the fast loop as often, and values, moves, every count and the table agree."""
    games = (PacmanGame(EVALUATIONS[evaluation], focus=focus),
             GenericPacmanGame(EVALUATIONS[evaluation], focus=focus))
    for state in turns(layout, seed, 2):
        tables = TranspositionTable(), TranspositionTable()
        with FastPathSpy() as adapted:
            fast = deepening_answer(games[0], state, 4, tables[0])
        with FastPathSpy() as protocol:
            generic = deepening_answer(games[1], state, 4, tables[1])
        assert adapted.calls == protocol.calls > 0
        assert fast == generic
        assert tables[0].entries == tables[1].entries
        assert tables[0].best_moves == tables[1].best_moves
        assert tables[0].evaluations == tables[1].evaluations


def test_the_deepening_agent_searches_with_the_fast_loop():
    """The fast loop is what the deepening agent's searches run, and its answer is the
    textbook's: the root value of its deepest iteration is the minimax value at that depth."""
    agent = IterativeDeepeningAgent(time_budget=10.0, max_depth=3, order="none",
                                    evaluation=EVALUATIONS["better"])
    state = turns("smallClassic", 1, 1)[0]
    with FastPathSpy() as spy:
        action = agent.get_action(state)
    result = agent.last
    assert result is not None and spy.calls > 0
    assert result.stats.depth_reached == 3
    reference = textbook.minimax(PacmanGame(EVALUATIONS["better"]), state, 3)
    assert result.value == reference.value
    assert action in state.legal_actions(0)


def loop_answers(game, config):
    """The answers and the table of ``config`` on three positions, and how many nodes the fast
    loop searched."""
    options = dict(CONFIGS[config])
    name = options.pop("name")
    found, table = [], TranspositionTable()
    with FastPathSpy() as spy:
        for state in turns("smallClassic", 7, 3):
            if options.get("table"):
                options["table"] = table = TranspositionTable()
            generated: list = []
            result = run_search(game, state, algorithm_config(name, **options), traces=(generated, None))
            found.append((result.value, result.action, result.root_values,
                          result.principal_variation, generated, counts(result),
                          result.stats.cache_hits, result.stats.transposition_hits))
    return found, (table.entries, table.best_moves, table.evaluations), spy.calls


@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_every_configuration_searches_alike_through_the_adapter_and_the_protocol(config):
    """Each configuration runs the fast loop, through Pacman's adapter exactly as through the
    game's protocol methods: the values, the states generated in order, every count and the
    table. The spy proves the loop ran, as often in both."""
    ghosts = "uniform" if "expectimax" in config else "adversarial"
    adapted, adapted_table, adapted_calls = loop_answers(PacmanGame(EVALUATIONS["better"], ghosts), config)
    protocol, protocol_table, protocol_calls = loop_answers(
        GenericPacmanGame(EVALUATIONS["better"], ghosts), config)
    assert adapted_calls == protocol_calls > 0
    assert adapted == protocol
    assert adapted_table == protocol_table


def watched_steps(game, state, depth):
    """The watcher's record of a depth-``depth`` alpha-beta search of ``state`` with a table
    that a shallower search filled, best moves first (the deepening agent's search)."""
    table = TranspositionTable()
    run_search(game, state, SearchConfig(depth=depth - 1, prune=True, table=table, hash_moves=True))
    recorder = StepRecorder()
    result = run_search(game, state, SearchConfig(depth=depth, prune=True, table=table,
                                                  hash_moves=True, watcher=recorder))
    return result, recorder


@pytest.mark.parametrize("seed", [3, 8])
def test_a_watcher_is_told_every_step_of_a_search_with_a_table(seed):
    """A watched search with a table and best moves first reports every step, through the
    adapter as through the game's protocol methods."""
    state = turns("smallClassic", seed, 5)[-1]
    fast, fast_steps = watched_steps(PacmanGame(better), state, 3)
    generic, generic_steps = watched_steps(GenericPacmanGame(better), state, 3)
    assert fast_steps.steps == generic_steps.steps
    assert fast_steps.nodes == generic_steps.nodes
    kinds = [step["type"] for step in fast_steps.steps]
    assert kinds.count("leaf") == fast.stats.leaf_evaluations + fast.stats.cache_hits
    assert fast.stats.leaf_evaluations == generic.stats.leaf_evaluations
    assert kinds.count("visit") == kinds.count("done") > 1


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
