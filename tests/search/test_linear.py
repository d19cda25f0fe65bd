"""The linear evaluation: each feature on hand-made mazes, the dot product, weight parsing."""

from __future__ import annotations

import pickle
import random
from itertools import islice

import pytest

from pacman.agents.evaluation import Evaluation
from pacman.agents.linear import (
    DEFAULT_WEIGHTS,
    FEATURES,
    GHOST_DISTANCE_CAP,
    LinearEvaluation,
    features,
    load_weights,
    make_linear_evaluation,
    parse_weights,
    weights_from_text,
)
from pacman.agents.ghosts import DirectionalGhost
from pacman.agents.search_agents import AlphaBetaAgent
from pacman.errors import ConfigurationError
from pacman.engine.game import random_play
from pacman.engine.game_loop import run_game
from pacman.engine.layout import load_layout, parse_layout
from pacman.engine.state import GameState


def state_of(text: str, *, scared: tuple[int, ...] | None = None, score: int = 0,
             outcome: str | None = None) -> GameState:
    """The initial state of the maze ``text``, with optional scared timers, score and outcome."""
    state = GameState.initial(parse_layout(text))
    fields = list(state)
    if scared is not None:
        assert len(scared) == state.num_ghosts
        fields[3] = scared
    fields[6] = score
    fields[8] = outcome
    return GameState(fields)


# Pacman at the west end of a corridor; dots at distances 2 and 5, ghost at distance 8.
CORRIDOR = """\
%%%%%%%%%%%
%P .  .  G%
%%%%%%%%%%%
"""

# Ghost 1 two moves away, ghost 2 three moves away (around a corner), one dot, one capsule.
TWO_GHOSTS = """\
%%%%%%%
%P 1 o%
%.%%%%%
% 2   %
%%%%%%%
"""

# Food only in a walled-off pocket: it exists but is unreachable.
WALLED_FOOD = """\
%%%%%%%
%P  %.%
%%%%%%%
"""

NO_FOOD_NO_GHOST = """\
%%%%%
%P  %
%%%%%
"""


# --- single features -----------------------------------------------------------------------------

def test_score_food_and_capsule_counts():
    state = state_of(TWO_GHOSTS, score=37)
    phi = features(state)
    assert phi["score"] == 37
    assert phi["food_left"] == 1
    assert phi["capsules_left"] == 1
    assert features(state_of(CORRIDOR))["capsules_left"] == 0
    assert features(state_of(CORRIDOR))["food_left"] == 2


def test_food_distances_follow_the_maze():
    phi = features(state_of(CORRIDOR))
    assert phi["nearest_food"] == 2
    assert phi["inverse_nearest_food"] == pytest.approx(1 / 3)
    assert phi["nearest_food_fraction"] == pytest.approx(2 / 8)  # the corridor is 8 moves long
    # One step east: the first dot is now one move away.
    after = state_of(CORRIDOR).successor("East")
    assert features(after)["nearest_food"] == 1
    assert features(after)["inverse_nearest_food"] == pytest.approx(1 / 2)


def test_food_distance_is_maze_distance_not_straight_line():
    # The dot below Pacman is one row down but behind a wall: 5 moves round the loop.
    text = """\
%%%%%
%P  %
%%% %
%.  %
%%%%%
"""
    phi = features(state_of(text))
    assert phi["nearest_food"] == 6
    assert phi["inverse_nearest_food"] == pytest.approx(1 / 7)
    assert phi["nearest_food_fraction"] == 1  # the maze is one path: P and '.' are its ends


def test_no_food_or_unreachable_food_gives_zero():
    for text in (NO_FOOD_NO_GHOST, WALLED_FOOD):
        layout = parse_layout(text)
        state = GameState.initial(layout)
        # A maze without food is an immediate win; the food features still read 0.
        phi = features(state)
        assert phi["nearest_food"] == 0
        assert phi["inverse_nearest_food"] == 0
        assert phi["nearest_food_fraction"] == 0
    assert features(GameState.initial(parse_layout(WALLED_FOOD)))["food_left"] == 1


def test_nearest_ghost_is_the_closest_dangerous_ghost_capped():
    assert features(state_of(CORRIDOR))["nearest_ghost"] == 8
    assert features(state_of(TWO_GHOSTS))["nearest_ghost"] == 2
    # Scared ghosts do not count; with every ghost scared the cap is reported.
    assert features(state_of(TWO_GHOSTS, scared=(5, 0)))["nearest_ghost"] == 3
    assert features(state_of(TWO_GHOSTS, scared=(5, 5)))["nearest_ghost"] == GHOST_DISTANCE_CAP
    assert features(state_of(NO_FOOD_NO_GHOST))["nearest_ghost"] == GHOST_DISTANCE_CAP
    far = "%" * 15 + "\n%P" + " " * 11 + "G%\n" + "%" * 15 + "\n"
    assert features(state_of(far))["nearest_ghost"] == GHOST_DISTANCE_CAP  # 12 moves away


def test_ghost_danger_counts_dangerous_ghosts_within_two_moves():
    assert features(state_of(TWO_GHOSTS))["ghost_danger"] == 1  # distances 2 and 3
    assert features(state_of(CORRIDOR))["ghost_danger"] == 0
    both_near = """\
%%%%%%
%G PG%
%%%%%%
"""
    phi = features(state_of(both_near))
    assert phi["ghost_danger"] == 2  # distances 2 and 1
    assert phi["ghost_threat"] == pytest.approx(1 / 3 + 1 / 2)
    assert features(state_of(both_near, scared=(3, 0)))["ghost_danger"] == 1
    assert features(state_of(TWO_GHOSTS))["ghost_threat"] == pytest.approx(1 / 3)


def test_scared_ghost_counts_only_when_reachable_before_it_recovers():
    # Ghost 1 is 2 moves away, ghost 2 is 3 moves away.
    assert features(state_of(TWO_GHOSTS))["nearest_scared_ghost_inverse"] == 0
    assert features(state_of(TWO_GHOSTS, scared=(3, 0)))["nearest_scared_ghost_inverse"] == \
        pytest.approx(1 / 3)
    # A timer equal to the distance runs out on arrival.
    assert features(state_of(TWO_GHOSTS, scared=(2, 0)))["nearest_scared_ghost_inverse"] == 0
    # The nearest one that can still be caught counts.
    assert features(state_of(TWO_GHOSTS, scared=(1, 9)))["nearest_scared_ghost_inverse"] == \
        pytest.approx(1 / 4)


def test_eating_a_capsule_scares_ghosts_as_the_features_see_it():
    text = """\
%%%%%%%%
%Po   G%
%%%%%%%%
"""
    after = state_of(text).successor("East")  # Pacman eats the capsule, ghost is 4 moves away
    phi = features(after)
    assert phi["capsules_left"] == 0
    assert phi["nearest_ghost"] == GHOST_DISTANCE_CAP
    assert phi["ghost_danger"] == 0
    assert phi["nearest_scared_ghost_inverse"] == pytest.approx(1 / 5)


def test_win_and_lose_indicators():
    assert features(state_of(CORRIDOR))["win"] == 0
    assert features(state_of(CORRIDOR))["lose"] == 0
    text = """\
%%%%%
%P.G%
%%%%%
"""
    won = state_of(text).successor("East")
    assert won.is_win
    assert (features(won)["win"], features(won)["lose"]) == (1, 0)
    # The ghost walks west onto Pacman, who stands still.
    lost = state_of(text).successor("Stop").successor("West").successor("Stop").successor("West")
    assert lost.is_lose
    assert (features(lost)["win"], features(lost)["lose"]) == (0, 1)


def test_features_lists_every_feature_in_order():
    assert list(features(state_of(CORRIDOR))) == list(FEATURES)


# --- the dot product ---------------------------------------------------------------------------

def sample_states(count: int, seed: int, text: str = TWO_GHOSTS) -> list[GameState]:
    """Non-terminal states of seeded random play on the maze ``text`` (restarting after an end)."""
    start = GameState.initial(parse_layout(text))
    return list(islice(random_play(start, random.Random(seed)), count))


def test_evaluation_is_the_dot_product_of_weights_and_features():
    rng = random.Random(3)
    for state in sample_states(40, seed=1) + sample_states(80, seed=4, text=ONE_GHOST_LOOP):
        weights = {name: rng.uniform(-50, 50) for name in FEATURES if rng.random() < 0.7}
        phi = features(state)
        expected = sum(w * phi[name] for name, w in weights.items())
        assert LinearEvaluation(weights)(state) == pytest.approx(expected)


def test_one_hot_weights_read_out_single_features():
    state = state_of(TWO_GHOSTS, scared=(0, 9), score=12)
    phi = features(state)
    for name in FEATURES:
        assert LinearEvaluation({name: 1})(state) == phi[name]
        assert LinearEvaluation({name: -2.5})(state) == -2.5 * phi[name]


def test_missing_weights_count_as_zero():
    assert LinearEvaluation({})(state_of(TWO_GHOSTS, score=50)) == 0
    assert LinearEvaluation({"score": 1, "food_left": 0})(state_of(TWO_GHOSTS, score=50)) == 50


ONE_GHOST_LOOP = """\
%%%%%%%
%P...o%
%.%%%.%
%o..G.%
%%%%%%%
"""


def test_default_weights_are_the_documented_ones():
    assert LinearEvaluation().weights == DEFAULT_WEIGHTS
    assert LinearEvaluation(None) == LinearEvaluation(dict(DEFAULT_WEIGHTS))
    assert set(DEFAULT_WEIGHTS) <= set(FEATURES)


def test_default_weights_always_prefer_eating_and_approaching_food():
    # Without ghosts: a move that eats a dot beats every move that does not, and among the
    # others a step towards the nearest dot beats a step away (no hovering, no thrashing).
    ev = LinearEvaluation()
    layout = load_layout("no_ghosts")
    rng = random.Random(5)
    state = GameState.initial(layout)
    checked_eat = checked_approach = 0
    for _ in range(300):
        if state.is_terminal:
            state = GameState.initial(layout)
        children = {a: state.successor(a) for a in state.legal_actions()}
        eats = {a for a, c in children.items() if c.food_count < state.food_count}
        if eats:
            checked_eat += 1
            assert max(children, key=lambda a: ev(children[a])) in eats
        else:
            near = features(state)["nearest_food"]
            closer = [a for a, c in children.items() if features(c)["nearest_food"] < near]
            farther = [a for a, c in children.items() if features(c)["nearest_food"] > near]
            if closer and farther:
                checked_approach += 1
                assert min(ev(children[a]) for a in closer) > max(ev(children[a]) for a in farther)
        state = state.successor(rng.choice(state.legal_actions()))
    assert checked_eat > 10 and checked_approach > 10


def test_default_weights_flee_a_nearby_ghost():
    ev = LinearEvaluation()
    text = """\
%%%%%%%%
%  P G %
%%%%%%%%
"""
    state = state_of(text)
    assert ev(state.successor("West")) > ev(state.successor("Stop")) > ev(state.successor("East"))


@pytest.mark.parametrize("maze", ["thrashing", "no_ghosts", "tiny"])
def test_default_weights_clear_small_mazes(maze):
    agent = AlphaBetaAgent(depth=2, evaluation=make_linear_evaluation("default"))
    layout = load_layout(maze)
    ghosts = [DirectionalGhost(i, random.Random(i)) for i in range(1, layout.num_ghosts + 1)]
    result = run_game(layout, [agent, *ghosts], seed=0, max_moves=300)
    assert result.outcome == "win", result.outcome


def test_linear_evaluation_pickles_and_compares():
    ev = LinearEvaluation({"score": 1, "ghost_danger": -200})
    again = pickle.loads(pickle.dumps(ev))
    assert again == ev and hash(again) == hash(ev)
    state = state_of(TWO_GHOSTS)
    assert again(state) == ev(state) == -200
    assert LinearEvaluation(parse_weights(ev.to_text())) == ev


# --- weights: errors and parsing ----------------------------------------------------------------

def test_unknown_feature_names_are_rejected_with_suggestions():
    with pytest.raises(ConfigurationError, match=r"unknown feature 'ghost_dangr'.*ghost_danger"):
        LinearEvaluation({"ghost_dangr": -1})
    with pytest.raises(ConfigurationError, match=r"unknown feature 'scor'.*did you mean score"):
        parse_weights("scor=1")


def test_non_numeric_weights_are_rejected_naming_the_feature():
    with pytest.raises(ConfigurationError, match=r"weight of 'score' must be a number"):
        LinearEvaluation({"score": "1"})  # type: ignore[dict-item]
    with pytest.raises(ConfigurationError, match=r"weight of 'win' must be a number"):
        LinearEvaluation({"win": True})
    with pytest.raises(ConfigurationError,
                       match=r"weight of 'ghost_danger' is not a number: 'lots'"):
        parse_weights("score=1, ghost_danger=lots")
    with pytest.raises(ConfigurationError, match=r"weight of 'score' must be finite"):
        parse_weights("score=nan")


def test_parse_weights_reads_name_value_pairs():
    assert parse_weights("score=1,inverse_nearest_food=10,ghost_danger=-200") == {
        "score": 1.0, "inverse_nearest_food": 10.0, "ghost_danger": -200.0}
    assert parse_weights(" score = 2.5 , lose=-1e3 ") == {"score": 2.5, "lose": -1000.0}


@pytest.mark.parametrize("text, message", [
    ("", r"no weights given"),
    ("score", r"item 1 \('score'\) is not name=number"),
    ("score=1,,win=2", r"item 2 \(''\) is not name=number"),
    ("=3", r"item 1 \('=3'\) is not name=number"),
    ("score=1,score=2", r"'score' is given twice"),
    ("score=", r"weight of 'score' is not a number: ''"),
])
def test_parse_weights_errors(text, message):
    with pytest.raises(ConfigurationError, match=message):
        parse_weights(text)


def test_load_weights_from_json(tmp_path):
    path = tmp_path / "w.json"
    path.write_text('{"score": 1, "ghost_danger": -200.5}', encoding="utf-8")
    assert load_weights(path) == {"score": 1.0, "ghost_danger": -200.5}


def test_bad_json_names_file_line_and_column(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{\n  "score": 1,\n  "win" 5\n}\n', encoding="utf-8")
    with pytest.raises(ConfigurationError) as info:
        load_weights(path)
    assert str(info.value).startswith(f"{path}:3:9: invalid JSON")


@pytest.mark.parametrize("content, message", [
    ('[1, 2]', r"expected a JSON object.*got a JSON list"),
    ('{"score": "high"}', r"weight of 'score' must be a number, got 'high'"),
    ('{"score": null}', r"weight of 'score' must be a number, got None"),
    ('{"food_lef": 1}', r"unknown feature 'food_lef'.*food_left"),
])
def test_json_content_errors(tmp_path, content, message):
    path = tmp_path / "w.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ConfigurationError, match=message) as info:
        load_weights(path)
    assert str(path) in str(info.value)


def test_missing_weights_file(tmp_path):
    with pytest.raises(ConfigurationError, match=r"no such weights file"):
        load_weights(tmp_path / "absent.json")
    with pytest.raises(ConfigurationError, match=r"is a folder"):
        load_weights(tmp_path)


def test_weights_from_text_chooses_pairs_file_or_default(tmp_path):
    assert weights_from_text("") == DEFAULT_WEIGHTS
    assert weights_from_text("default") == DEFAULT_WEIGHTS
    assert weights_from_text("score=3") == {"score": 3.0}
    path = tmp_path / "w.json"
    path.write_text('{"lose": -9}', encoding="utf-8")
    assert weights_from_text(str(path)) == {"lose": -9.0}
    with pytest.raises(ConfigurationError, match=r"'score' has no weight"):
        weights_from_text("score")
    with pytest.raises(ConfigurationError, match=r"no such weights file"):
        weights_from_text(str(tmp_path / "nope.json"))


def test_make_linear_evaluation_returns_a_named_evaluation(tmp_path):
    ev = make_linear_evaluation("score=1,ghost_danger=-200")
    assert isinstance(ev, Evaluation)
    assert ev.name == "linear:score=1,ghost_danger=-200"
    assert ev(state_of(TWO_GHOSTS, score=7)) == 7 - 200
    path = tmp_path / "w.json"
    path.write_text('{"score": 2}', encoding="utf-8")
    assert make_linear_evaluation(str(path))(state_of(CORRIDOR, score=4)) == 8
    assert pickle.loads(pickle.dumps(ev))(state_of(TWO_GHOSTS)) == -200
