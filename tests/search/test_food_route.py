"""Routes to food under the chase (:mod:`pacman.agents.food_route`): the route search agrees with a
brute-force reference, its move starts such a line, it gives up on its budget and deadline,
and the deepening agent's ``route`` replaces the search's move only when the search, which
searched the route's move first, values it within a margin of its best."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pacman.agents import search_agents
from pacman.agents.chase_survival import CheckBudget, chase_round, outruns
from pacman.agents.evaluation import EVALUATIONS
from pacman.agents.food_route import ROUTE_MARGIN, route_to_food, steer_to_food
from pacman.agents.search.deepening import iterative_deepening
from pacman.agents.search.result import SearchResult, SearchStats
from pacman.agents.search.trees import tree_from_dict
from pacman.agents.search_agents import IterativeDeepeningAgent
from pacman.errors import ConfigurationError
from pacman.engine.layout import load_layout
from pacman.engine.layout import parse_layout
from pacman.engine.rules import legal_actions, successor
from pacman.engine.state import LOSS, WIN, GameState

# The dot in the west dead end is nearer, but the ghost below follows Pacman in and catches him
# there; the dot on the east loop is farther, and there the ghost never catches him.
DEAD_END_OR_LOOP = GameState.initial(parse_layout("""\
%%%%%%%%%%%%%%%
%   .   P     %
%%%%%%%% %%%% %
%%%%%%%%G%%%%.%
%%%%%%%%      %
%%%%%%%%%%%%%%%"""))


def reference_route(state: GameState, rounds: int, after: int) -> bool:
    """Every Pacman line tried, nothing remembered: whether some line eats a dot (or wins)
    within ``rounds`` rounds of chasing ghosts and then outruns them for ``after`` rounds."""
    if rounds == 0:
        return False
    for action in legal_actions(state, 0):
        child = chase_round(successor(state, action))
        if child[8] == WIN:
            return True
        if child[8] == LOSS:
            continue
        if child[4] != state[4]:
            if outruns(child, after, budget=10**6):
                return True
        elif reference_route(child, rounds - 1, after):
            return True
    return False


def sparse_food_near_ghosts(layout_name: str, seed: int) -> GameState:
    """Pacman to move on a random cell, each ghost 2 to 5 steps from him heading a random way,
    and three dots on random cells up to 6 steps from him: positions where a dot may or may not
    be safe to fetch."""
    rng = random.Random(seed)
    start = GameState.initial(load_layout(layout_name))
    layout = start[0]
    pacman = rng.choice(layout.open_cells)
    row = layout.distance_rows[pacman]
    near = [c for c in layout.open_cells if 2 <= row[c] <= 5]
    within = [c for c in layout.open_cells if 1 <= row[c] <= 6]
    ghosts = len(start[1]) - 1
    directions = ("Stop",) + tuple(rng.choice(["North", "South", "East", "West", "Stop"])
                                   for _ in range(ghosts))
    positions = (pacman, *(rng.choice(near) for _ in range(ghosts)))
    food = sum(1 << c for c in rng.sample(within, 3))
    return GameState((layout, positions, directions, (0,) * ghosts, food, 0, 0, 0, None))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(layout_name=st.sampled_from(["smallClassic", "mediumClassic", "originalClassic"]),
       seed=st.integers(0, 10_000), rounds=st.integers(1, 5), after=st.integers(0, 4))
def test_the_route_search_agrees_with_the_brute_force_reference(layout_name: str, seed: int,
                                                                rounds: int,
                                                                after: int) -> None:
    state = sparse_food_near_ghosts(layout_name, seed)
    move = route_to_food(state, rounds, after, budget=10**6)
    assert (move is not None) == reference_route(state, rounds, after)
    if move is not None:  # the move starts such a line
        child = chase_round(successor(state, move))
        assert child[8] == WIN or (child[4] != state[4] and outruns(child, after, 10**6)) \
            or reference_route(child, rounds - 1, after)


def test_the_reference_positions_have_routes_as_often_as_not() -> None:
    # The property above is only worth its examples if both answers are common among them.
    found = [route_to_food(sparse_food_near_ghosts("originalClassic", seed), 4, 4) is not None
             for seed in range(60)]
    assert 10 <= found.count(False) <= 50


def follow_routes(state: GameState, rounds: int, after: int) -> GameState:
    """Play the route's move against chasing ghosts, round after round, until a dot is eaten
    (or the game ends): the state then."""
    food = state[4]
    while state[8] is None and state[4] == food:
        move = route_to_food(state, rounds, after, budget=10**6)
        assert move is not None
        state = chase_round(successor(state, move))
        rounds -= 1
    return state


def test_the_route_takes_the_loop_to_the_far_dot_not_the_dead_end() -> None:
    layout = DEAD_END_OR_LOOP[0]
    west, east = (layout.cell((4, 4)), layout.cell((13, 2)))
    assert DEAD_END_OR_LOOP[4] == 1 << west | 1 << east
    fetched = follow_routes(DEAD_END_OR_LOOP, rounds=30, after=20)
    assert fetched[8] is None and fetched[4] == 1 << west
    # the west dot is the nearer one: taken when nothing is required after eating it
    assert route_to_food(DEAD_END_OR_LOOP, rounds=30, after=0) == "West"
    fetched = follow_routes(DEAD_END_OR_LOOP, rounds=30, after=0)
    assert fetched[4] == 1 << east


def test_no_route_when_the_only_dot_in_reach_is_in_the_dead_end() -> None:
    # the east dot is 7 rounds away: out of reach of a 6-round route
    assert route_to_food(DEAD_END_OR_LOOP, rounds=6, after=20) is None
    assert route_to_food(DEAD_END_OR_LOOP, rounds=6, after=0) == "West"
    assert route_to_food(DEAD_END_OR_LOOP, rounds=8, after=20) is not None


def test_the_route_search_gives_up_on_its_nodes_and_its_deadline() -> None:
    assert route_to_food(DEAD_END_OR_LOOP, 30, 20, budget=1) is None
    ticks = iter(range(1000))
    late = CheckBudget(10**6, clock=lambda: next(ticks), deadline=3)
    assert route_to_food(DEAD_END_OR_LOOP, 30, 20, budget=late) is None
    assert route_to_food(DEAD_END_OR_LOOP, 30, 20, budget=10**6) is not None


def searched(action: str, values: dict[str, float]) -> SearchResult:
    stats = SearchStats(0, 0, 0, 0, 0, 0, 0, 0, 1, 0.0)
    return SearchResult(action=action, value=values[action], root_values=values,
                        principal_variation=(action,), stats=stats)


def test_steering_replaces_the_move_only_within_the_margin_of_the_best_value() -> None:
    score = DEAD_END_OR_LOOP[6]
    route = route_to_food(DEAD_END_OR_LOOP)
    assert route is not None and route != "West"
    near = searched("West", {"West": score + 5.0, route: score + 5.0 - ROUTE_MARGIN})
    assert steer_to_food(near, route).action == route
    assert steer_to_food(near, route).principal_variation == (route,)
    assert steer_to_food(near, None) is near
    below = searched("West", {"West": score + 5.0, route: score + 4.0 - ROUTE_MARGIN})
    assert steer_to_food(below, route) is below
    assert steer_to_food(below, route, margin=ROUTE_MARGIN + 1).action == route
    unsearched = searched("West", {"West": score + 5.0})
    assert steer_to_food(unsearched, route) is unsearched
    already = searched(route, {route: score + 5.0, "West": score})
    assert steer_to_food(already, route) is already


def test_a_move_searched_first_at_the_root_gets_its_exact_value() -> None:
    # alpha-beta refutes b after its first leaf: 1 is below a's 5, so b's value is the bound 1
    # (the static values at depth 1 keep a first for the reorderings)
    game = tree_from_dict({"id": "R", "kind": "max", "children": [
        {"id": "a", "kind": "min", "value": 9, "children": [{"id": "a1", "value": 5},
                                                {"id": "a2", "value": 6}]},
        {"id": "b", "kind": "min", "value": 0, "children": [{"id": "b1", "value": 1},
                                                {"id": "b2", "value": 0}]}]})
    plain = iterative_deepening(game, game.root, max_depth=2)
    assert plain.action == "a" and plain.root_values == {"a": 5, "b": 1}
    for reorder in ("none", "root", "all"):
        first = iterative_deepening(game, game.root, max_depth=2, reorder=reorder,
                                    first="b")
        assert first.action == "a" and first.root_values == {"b": 0, "a": 5}
    unknown = iterative_deepening(game, game.root, max_depth=2, first="c")
    assert unknown.root_values == plain.root_values


def test_the_agent_searches_the_route_move_first(monkeypatch: pytest.MonkeyPatch) -> None:
    firsts: list[object] = []

    def deepening(*args: object, **kwargs: object) -> SearchResult:
        firsts.append(kwargs["first"])
        return iterative_deepening(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(search_agents, "iterative_deepening", deepening)
    monkeypatch.setattr(search_agents, "route_to_food", lambda *args: "East")
    agent = IterativeDeepeningAgent(0, random.Random(0), time_budget=0.01, max_depth=2,
                                    evaluation=EVALUATIONS["strong"], route=30)
    agent.get_action(DEAD_END_OR_LOOP)
    assert firsts == ["East"]


def test_the_agent_seeks_the_route_first_within_its_share_and_steers_last(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[object, ...]] = []

    def route(state: GameState, rounds: int, after: int, budget: CheckBudget) -> str:
        calls.append(("route", rounds, after, budget.deadline - budget.clock()))
        return "East"

    def steer(result: SearchResult, move: str | None, margin: float) -> SearchResult:
        calls.append(("steer", move))
        return dataclasses.replace(result, action="East")

    monkeypatch.setattr(search_agents, "route_to_food", route)
    monkeypatch.setattr(search_agents, "steer_to_food", steer)
    agent = IterativeDeepeningAgent(0, random.Random(0), time_budget=0.01, max_depth=2,
                                    evaluation=EVALUATIONS["strong"], outrun=12, route=30)
    assert agent.get_action(DEAD_END_OR_LOOP) == "East"
    assert [call[:3] for call in calls] == [("route", 30, 12), ("steer", "East")]
    assert 0 < calls[0][3] <= search_agents.ROUTE_SHARE * 0.01
    calls.clear()
    plain = IterativeDeepeningAgent(0, random.Random(0), time_budget=0.01, max_depth=2)
    plain.get_action(DEAD_END_OR_LOOP)
    assert calls == []  # route=0 (the default) neither seeks nor steers


@pytest.mark.parametrize("value", [-1, -30])
def test_a_negative_route_is_refused(value: int) -> None:
    with pytest.raises(ConfigurationError, match="route must be 0"):
        IterativeDeepeningAgent(route=value)


def test_a_negative_route_margin_is_refused() -> None:
    with pytest.raises(ConfigurationError, match="route_margin must be at least 0"):
        IterativeDeepeningAgent(route=30, route_margin=-1.0)
