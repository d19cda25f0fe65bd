"""The classic autograder's own games (``random = "shared"``): the random ghost draws exactly as
the classic ``util.sample`` does from one stream seeded like ``random.seed(seed)``, the
submission's global ``random`` shares that stream (and cannot set it), and one Pacman object
plays all of a test's games."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pacman.compat.random_state import (MAX_WORDS_PER_CALL, LentRandom, decode_state,
                                        encode_state, words_between)
from pacman.errors import ConfigurationError
from pacman.engine.game_loop import run_game
from pacman.grading.assignment import load_assignment, parse_assignment
from pacman.grading.classic_stream import RESEEDED, ClassicRandomGhost, SharedStream
from pacman.grading.grader import grade
from pacman.engine.layout import load_layout

from .conftest import ZOO

ACTIONS = ("North", "South", "East", "West", "Stop")


class _Legal:
    """A state that only answers ``legal_actions``."""

    def __init__(self, actions: tuple[str, ...]) -> None:
        self.actions = actions

    def legal_actions(self, agent: int) -> tuple[str, ...]:
        return self.actions


def _classic_sample(actions: tuple[str, ...], generator: random.Random) -> str:
    """What the classic random ghost returns: its Counter of 1.0 per legal action, normalised,
    sampled by ``util.sample`` (items sorted, one ``random()``, a running total)."""
    values = sorted(actions)
    weights = [1.0 / len(values)] * len(values)
    choice = generator.random()
    i, total = 0, weights[0]
    while choice > total:
        i += 1
        total += weights[i]
    return values[i]


# --- the ghost's draws ---------------------------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), legal=st.lists(st.sampled_from(ACTIONS[:4]), min_size=1,
                                                   max_size=4, unique=True), moves=st.integers(1, 40))
def test_the_ghost_draws_as_the_classic_sample_from_its_stream(seed, legal, moves):
    stream, reference = SharedStream(seed), random.Random(seed)
    ghost = ClassicRandomGhost(1, stream)
    state = _Legal(tuple(legal))
    assert [ghost.get_action(state) for _ in range(moves)] == \
        [_classic_sample(tuple(legal), reference) for _ in range(moves)]
    assert stream.generator.getstate() == reference.getstate()  # one random() a move, no more


def test_the_ghost_draws_random_seed_0_as_the_classic_global_random():
    random.seed(0)  # what the classic autograder does before its games
    first = random.random()
    ghost = ClassicRandomGhost(1, SharedStream(0))
    # 0.844... is past 3/4: the last of the four actions sorted by name
    assert first > 0.75 and ghost.get_action(_Legal(("North", "South", "East", "West"))) == "West"


def test_a_ghost_with_one_move_still_draws_a_number():
    stream, reference = SharedStream(5), random.Random(5)
    ghost = ClassicRandomGhost(1, stream)
    assert ghost.get_action(_Legal(("East",))) == "East"
    reference.random()
    assert stream.generator.getstate() == reference.getstate()


# --- the state's round trip and reachability -----------------------------------------------------

_DRAWS = {
    "random": lambda r: r.random(),
    "choice": lambda r: r.choice(range(7)),
    "randint": lambda r: r.randint(1, 10**12),
    "shuffle": lambda r: r.shuffle(list(range(9))),
    "uniform": lambda r: r.uniform(-3, 3),
    "getrandbits": lambda r: r.getrandbits(70),
    "sample": lambda r: r.sample(range(100), 5),
}


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), calls=st.lists(st.sampled_from(sorted(_DRAWS)), max_size=30),
       skip=st.integers(0, 1500))
def test_every_kind_of_draw_consumes_whole_words(seed, calls, skip):
    generator = random.Random(seed)
    generator.getrandbits(32 * skip) if skip else None  # start anywhere in a block of 624
    start = generator.getstate()
    for name in calls:
        _DRAWS[name](generator)
    k = words_between(start, generator.getstate(), 10**5)
    assert k is not None
    stepped = random.Random()
    stepped.setstate(start)
    for _ in range(k):
        stepped.getrandbits(32)
    assert stepped.getstate()[1] == generator.getstate()[1]


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), other=st.integers(0, 2**32), k=st.integers(1, 3000))
def test_a_state_not_drawn_to_is_not_reachable(seed, other, k):
    start = random.Random(seed).getstate()
    ahead = random.Random(seed)
    ahead.getrandbits(32 * k)
    assert words_between(start, ahead.getstate(), 4000) == k
    assert words_between(start, ahead.getstate(), k - 1) is None  # past the bound
    assert words_between(ahead.getstate(), start, 4000) is None     # no going back
    if other != seed:
        assert words_between(start, random.Random(other).getstate(), 4000) is None


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**64), gauss=st.booleans())
def test_the_state_survives_its_encoding(seed, gauss):
    generator = random.Random(seed)
    if gauss:
        generator.gauss(0, 1)  # leaves a cached Gaussian in the state
    state = generator.getstate()
    data = encode_state(state)
    assert len(data["words"]) < 3400 and decode_state(data) == state


@pytest.mark.parametrize("data", [None, {}, {"words": "not base64!"}, {"words": "AAAA"},
                                  {"words": encode_state(random.Random(1).getstate())["words"],
                                   "gauss": "1.0"}])
def test_what_is_not_a_random_state_is_refused(data):
    with pytest.raises(ValueError):
        decode_state(data)


def test_the_lent_random_counts_the_words_drawn_and_refuses_a_reseeded_generator():
    stream, reference = SharedStream(0), random.Random(0)
    with LentRandom(stream.lend()) as lent:  # the whole state, at a game's start
        random.choice("abc")
        random.random()
    reference.choice("abc")
    reference.random()
    stream.take_back(lent.reply()["random"])
    assert stream.generator.getstate() == reference.getstate() and not stream.refused
    stream.random()  # the ghost's draw: the submission's process is told to advance by it
    reference.random()
    sent = stream.lend()
    assert sent == {"advance": 2}
    with LentRandom(sent) as lent:
        assert random.getstate() == reference.getstate()
        random.shuffle(list(range(10)))
    reference.shuffle(list(range(10)))
    stream.take_back(lent.reply()["random"])
    assert stream.generator.getstate() == reference.getstate()
    before = stream.generator.getstate()
    with LentRandom(stream.lend()) as lent:
        random.seed(1)
    assert lent.reply() == {"random": {"words": None}}
    stream.take_back(lent.reply()["random"])
    assert stream.refused and not stream.shared and stream.lend() is None
    assert stream.generator.getstate() == before  # the grader's own state goes on


@pytest.mark.parametrize("answer", [None, {}, {"words": -1}, {"words": True}, {"words": "3"},
                                    {"words": MAX_WORDS_PER_CALL + 1}])
def test_an_answer_that_is_not_a_count_of_words_is_refused(answer):
    stream = SharedStream(0)
    stream.lend()
    stream.take_back(answer)
    assert stream.refused and stream.lend() is None


def test_a_lent_random_without_a_stream_leaves_the_generator_alone():
    random.seed(3)
    state = random.getstate()
    with LentRandom(None) as lent:
        pass
    assert lent.reply() == {} and random.getstate() == state


# --- graded games ----------------------------------------------------------------------------------

def _shared_assignment(**test) -> object:
    base = {"type": "game", "agent": "reflex", "layout": "testClassic", "ghosts": "random",
            "ghost_count": 1, "games": 3, "seed": 0, "max_moves": 25, "rules": "classic",
            "random": "shared", "credit": [{"metric": "failures", "at_most": 0, "points": 1}]}
    base.update(test)
    return parse_assignment({"roles": {"reflex": ["ReflexAgent"]},
                             "questions": [{"id": "q", "tests": [base]}]}, "a.toml")


class _ReferencePacman:
    """The zoo's ``classic_random_drawer`` in the engine's API, drawing from ``generator``
    (reseeded with ``reseed`` before each move when given)."""

    def __init__(self, generator: random.Random, reseed: int | None = None) -> None:
        self.generator, self.reseed, self.started = generator, reseed, 0

    def start_game(self, state) -> None:
        self.started += 1
        self.generator.random()

    def get_action(self, state) -> str:
        if self.reseed is not None:
            self.generator = random.Random(self.reseed)
        for _ in range(self.started):
            self.generator.random()
        return self.generator.choice(sorted(state.legal_actions()))


def _reference_games(pacman_stream: random.Random | None, reseed: int | None = None,
                     games: int = 3) -> list[tuple[float, int]]:
    """Score and moves of each game with one Pacman and one classic ghost, drawing from one
    stream seeded with 0 (Pacman from ``pacman_stream`` instead, when given)."""
    stream = SharedStream(0)
    pacman = _ReferencePacman(pacman_stream or stream.generator, reseed)
    ghost = ClassicRandomGhost(1, stream)
    layout = load_layout("testClassic")
    results = []
    for _ in range(games):
        game = run_game(layout, [pacman, ghost], 0, max_moves=25, rules="classic")
        results.append((game.score, game.moves))
    return results


def _graded_games(output: list[str]) -> list[tuple[float, int]]:
    found = [re.match(r"game \d+: \w[\w ]*, score (-?[\d.]+), (\d+) moves", line) for line in output]
    return [(float(m[1]), int(m[2])) for m in found if m]


@pytest.fixture(scope="module")
def drawer_report():
    return grade(ZOO / "classic_random_drawer.py", _shared_assignment())


def test_the_submissions_draws_and_the_ghosts_come_from_one_stream(drawer_report):
    result = drawer_report.questions[0].tests[0]
    graded = _graded_games(result.output)
    assert len(graded) == 3 and result.score == 1, result.output
    assert graded == _reference_games(None)
    assert graded != _reference_games(random.Random(0))  # two streams: other games
    assert RESEEDED not in result.output


def test_one_pacman_object_plays_all_of_the_tests_games(drawer_report):
    # The reference keeps one Pacman whose draws grow with the games it has started; with a
    # fresh object for each game, every game would start as the first one did.
    graded = _graded_games(drawer_report.questions[0].tests[0].output)
    stream = SharedStream(0)
    fresh = []
    for _ in range(3):
        game = run_game(load_layout("testClassic"),
                        [_ReferencePacman(stream.generator), ClassicRandomGhost(1, stream)], 0,
                        max_moves=25, rules="classic")
        fresh.append((game.score, game.moves))
    assert graded[0] == fresh[0] and graded != fresh


def test_the_grade_is_the_same_every_time(drawer_report):
    again = grade(ZOO / "classic_random_drawer.py", _shared_assignment())
    assert again.questions[0].tests[0].output == drawer_report.questions[0].tests[0].output


@pytest.mark.parametrize("change", ["RESEED = 7", "FORGE = True"])
def test_a_submission_that_sets_the_generator_is_refused_and_told_so(tmp_path, change):
    source = (ZOO / "classic_random_drawer.py").read_text()
    path = tmp_path / "multiAgents.py"
    path.write_text(source.replace("RESEED = None" if "RESEED" in change else "FORGE = False", change))
    result = grade(path, _shared_assignment()).questions[0].tests[0]
    assert result.output.count(RESEEDED) == 1, result.output
    graded = _graded_games(result.output)
    assert len(graded) == 3
    if change == "RESEED = 7":  # the ghost goes on from the grader's stream alone
        assert graded == _reference_games(None, reseed=7)  # shared until its first move


def test_shared_random_plays_the_random_ghost_only_and_is_a_known_mode():
    assert _shared_assignment().questions[0].tests[0].random == "shared"
    with pytest.raises(ConfigurationError, match="'ghosts' must be \"random\""):
        _shared_assignment(ghosts="directional")
    with pytest.raises(ConfigurationError, match="needs the submission's own agent"):
        parse_assignment({"roles": {"e": ["better"]}, "questions": [{"id": "q", "tests": [
            {"type": "game", "search": "expectimax", "evaluation": "e", "random": "shared",
             "credit": [{"metric": "wins", "at_least": 0}]}]}]}, "a.toml")
    with pytest.raises(ConfigurationError, match="'random' must be one of per-game, shared"):
        _shared_assignment(random="global")
    assert parse_assignment({"roles": {"reflex": ["ReflexAgent"]}, "questions": [{"id": "q", "tests": [
        {"type": "game", "agent": "reflex", "credit": [{"metric": "wins", "at_least": 0}]}]}]},
        "a.toml").questions[0].tests[0].random == "per-game"


def test_the_classic_assignment_plays_the_classic_autograders_games():
    classic = load_assignment("classic")
    modes = {q.id: {t.random for t in q.tests if t.kind == "game"} for q in classic.questions}
    assert modes["q1"] == {"shared"} and modes["q5"] == {"shared"}
    assert load_assignment().questions  # the default assignment keeps its per-game seeds
    assert all(t.random == "per-game" for q in load_assignment().questions for t in q.tests)
