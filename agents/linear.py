"""Linear evaluation functions: ``Eval(s; w) = w · φ(s)`` over named Pacman features.

The Games I notes' linear evaluation: a feature vector ``φ(s)`` of numbers computed from the state and a
weight vector ``w``; the evaluation is their dot product. Features here carry no sign of their
own: each is a plain measurement (a count, a distance, an indicator), and the weight says
whether Pacman wants more or less of it (a negative weight on ``ghost_danger`` makes nearby
ghosts bad).

Features (``d`` is a maze distance from Pacman's cell; cells no path reaches are ignored; every
feature is defined on end states too):

==================================  ==========================================================
``score``                           the game score
``food_left``                       number of food dots left
``nearest_food``                    ``d`` to the nearest reachable dot; 0 if there is none
``inverse_nearest_food``            ``1 / (d + 1)`` for that dot; 0 if there is none
``nearest_food_fraction``           ``d / D`` for that dot, ``D`` the maze's diameter (its
                                    longest maze distance); 0 if there is none
``nearest_ghost``                   ``d`` to the nearest reachable ghost that is not scared,
                                    capped at :data:`GHOST_DISTANCE_CAP`; the cap if none
``ghost_danger``                    number of ghosts that are not scared with
                                    ``d <= DANGER_RADIUS`` (2)
``ghost_threat``                    sum of ``1 / (d + 1)`` over those same ghosts
``nearest_scared_ghost_inverse``    ``1 / (d + 1)`` for the nearest scared ghost whose scared
                                    timer exceeds ``d`` (Pacman reaches it before it
                                    recovers); 0 if there is none
``capsules_left``                   number of capsules left
``win``                             1 if the game is won, else 0
``lose``                            1 if the game is lost, else 0
==================================  ==========================================================

Weights are given as a mapping, as text (``"score=1,inverse_nearest_food=10"``) or as a JSON
file holding one object (``{"score": 1, ...}``); unknown feature names and malformed values
raise :class:`~pacman.errors.ConfigurationError` with a message naming the culprit. Features
without a weight count as weight 0.

Agents receive evaluations wrapped in :class:`pacman.agents.evaluation.Evaluation`;
:func:`make_linear_evaluation` builds that wrapper from the text after ``linear:`` in an
``evaluation=linear:...`` option.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from pathlib import Path

from pacman.agents.evaluation import Evaluation, nearest_food_distance
from pacman.errors import ConfigurationError
from pacman.registry import suggest
from pacman.engine.state import CAPSULES, FOOD, LAYOUT, LOSS, OUTCOME, POSITIONS, SCARED_TIMERS, SCORE, WIN, GameState

#: ``nearest_ghost`` never reports more than this many moves (nor when no ghost is dangerous).
GHOST_DISTANCE_CAP = 10
#: Maze distance within which a ghost that is not scared counts for ``ghost_danger`` and
#: ``ghost_threat``.
DANGER_RADIUS = 2


def _ghost_distances(state: GameState, scared: bool) -> list[tuple[int, int]]:
    """``(distance, scared timer)`` of every reachable ghost that is (not) scared."""
    positions = state[POSITIONS]
    timers = state[SCARED_TIMERS]
    row = state[LAYOUT].distance_rows[positions[0]]
    found = []
    for ghost in range(1, len(positions)):
        timer = timers[ghost - 1]
        if (timer > 0) != scared:
            continue
        d = row[positions[ghost]]
        if d >= 0:
            found.append((d, timer))
    return found


def feature_score(state: GameState) -> float:
    """The game score."""
    return float(state[SCORE])


def feature_food_left(state: GameState) -> float:
    """Number of food dots left."""
    return float(state[FOOD].bit_count())


def feature_nearest_food(state: GameState) -> float:
    """Maze distance to the nearest reachable dot; 0 when no dot is left or reachable."""
    d = nearest_food_distance(state)
    return 0.0 if d is None else float(d)


def feature_inverse_nearest_food(state: GameState) -> float:
    """``1 / (d + 1)`` for the distance ``d`` to the nearest reachable dot; 0 when none."""
    d = nearest_food_distance(state)
    return 0.0 if d is None else 1.0 / (d + 1)


def feature_nearest_food_fraction(state: GameState) -> float:
    """``d / D``: the distance to the nearest reachable dot over the maze's diameter; 0 when none.

    Lies in ``[0, 1]`` on every maze, so one weight suits mazes of any size.
    """
    d = nearest_food_distance(state)
    return 0.0 if not d else d / state[LAYOUT].diameter


def feature_nearest_ghost(state: GameState) -> float:
    """Maze distance to the nearest reachable ghost that is not scared, at most the cap.

    :data:`GHOST_DISTANCE_CAP` when there is no such ghost.
    """
    distances = [d for d, _ in _ghost_distances(state, scared=False)]
    return float(min([GHOST_DISTANCE_CAP, *distances]))


def feature_ghost_danger(state: GameState) -> float:
    """Number of ghosts that are not scared within :data:`DANGER_RADIUS` moves."""
    return float(sum(1 for d, _ in _ghost_distances(state, scared=False) if d <= DANGER_RADIUS))


def feature_ghost_threat(state: GameState) -> float:
    """Sum of ``1 / (d + 1)`` over ghosts that are not scared within :data:`DANGER_RADIUS`."""
    return sum(1.0 / (d + 1) for d, _ in _ghost_distances(state, scared=False)
               if d <= DANGER_RADIUS)


def feature_nearest_scared_ghost_inverse(state: GameState) -> float:
    """``1 / (d + 1)`` for the nearest scared ghost with scared timer ``> d``; else 0.

    A ghost's timer drops once per move of that ghost, and the ghost moves once for each of
    Pacman's moves, so a timer above ``d`` means the ghost is still scared when Pacman arrives.
    """
    reachable = [d for d, timer in _ghost_distances(state, scared=True) if timer > d]
    return 1.0 / (min(reachable) + 1) if reachable else 0.0


def feature_capsules_left(state: GameState) -> float:
    """Number of capsules left."""
    return float(state[CAPSULES].bit_count())


def feature_win(state: GameState) -> float:
    """1 if the game is won, else 0."""
    return 1.0 if state[OUTCOME] == WIN else 0.0


def feature_lose(state: GameState) -> float:
    """1 if the game is lost, else 0."""
    return 1.0 if state[OUTCOME] == LOSS else 0.0


#: Every feature by name, in the order :func:`features` reports them.
FEATURES: dict[str, Callable[[GameState], float]] = {
    "score": feature_score,
    "food_left": feature_food_left,
    "nearest_food": feature_nearest_food,
    "inverse_nearest_food": feature_inverse_nearest_food,
    "nearest_food_fraction": feature_nearest_food_fraction,
    "nearest_ghost": feature_nearest_ghost,
    "ghost_danger": feature_ghost_danger,
    "ghost_threat": feature_ghost_threat,
    "nearest_scared_ghost_inverse": feature_nearest_scared_ghost_inverse,
    "capsules_left": feature_capsules_left,
    "win": feature_win,
    "lose": feature_lose,
}

#: Weights of a reasonable player, in the spirit of :func:`pacman.agents.evaluation.better`: the score;
#: a pull towards food that gains the same per step however far the food is, and is worth less
#: than one dot (at most 9 against a dot's 10, so eating always pays); a strong push away from
#: ghosts within two moves; a pull towards scared ghosts it can catch; and a cost per capsule
#: left so capsules get eaten on the way.
DEFAULT_WEIGHTS: dict[str, float] = {
    "score": 1.0,
    "nearest_food_fraction": -9.0,
    "ghost_threat": -150.0,
    "nearest_scared_ghost_inverse": 100.0,
    "capsules_left": -20.0,
}


def features(state: GameState) -> dict[str, float]:
    """``φ(state)``: every feature of :data:`FEATURES` by name, in that order."""
    return {name: function(state) for name, function in FEATURES.items()}


def check_weights(weights: Mapping[str, float],
                  where: str = "linear evaluation") -> dict[str, float]:
    """A plain ``name -> float`` copy of ``weights`` after checking names and values.

    Raises :class:`ConfigurationError` for an unknown feature name (suggesting the closest
    names) or a weight that is not a finite number. ``where`` starts every message.
    """
    checked: dict[str, float] = {}
    for name, weight in weights.items():
        if name not in FEATURES:
            raise ConfigurationError(f"{where}: unknown feature {name!r}{suggest(name, FEATURES)}")
        if isinstance(weight, bool) or not isinstance(weight, (int, float)):
            raise ConfigurationError(f"{where}: the weight of {name!r} must be a number, "
                                     f"got {weight!r}")
        if not math.isfinite(weight):
            raise ConfigurationError(f"{where}: the weight of {name!r} must be finite, "
                                     f"got {weight!r}")
        checked[name] = float(weight)
    return checked


class LinearEvaluation:
    """``Eval(s) = Σ weights[f] · φ_f(s)`` over the features named in ``weights``.

    ``weights`` maps feature names of :data:`FEATURES` to numbers; missing features weigh 0.
    Unknown names and non-numeric weights raise :class:`ConfigurationError`. Only features with
    a non-zero weight are computed. Instances are immutable by convention and picklable (so
    agents using them can run in worker processes).
    """

    __slots__ = ("weights", "_terms")

    def __init__(self, weights: Mapping[str, float] | None = None) -> None:
        self.weights: dict[str, float] = check_weights(
            DEFAULT_WEIGHTS if weights is None else weights)
        self._terms = tuple((FEATURES[name], w) for name, w in self.weights.items() if w != 0.0)

    def __call__(self, state: GameState) -> float:
        total = 0.0
        for function, weight in self._terms:
            total += weight * function(state)
        return total

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LinearEvaluation) and self.weights == other.weights

    def __hash__(self) -> int:
        return hash(tuple(sorted(self.weights.items())))

    def __repr__(self) -> str:
        return f"LinearEvaluation({self.weights!r})"

    def __reduce__(self):
        return (LinearEvaluation, (self.weights,))

    def to_text(self) -> str:
        """The weights in the ``name=value,...`` form that :func:`parse_weights` reads."""
        return ",".join(f"{name}={weight:g}" for name, weight in self.weights.items())


def parse_weights(text: str) -> dict[str, float]:
    """Weights from ``"name=number,name=number,..."`` (spaces around items are ignored).

    Raises :class:`ConfigurationError` naming the bad item: one without ``=``, an unknown
    feature (with suggestions), a feature given twice, or a weight that is not a finite number.
    """
    where = "linear evaluation weights"
    if not text.strip():
        raise ConfigurationError(f"{where}: no weights given; expected name=number pairs "
                                 f"separated by commas, e.g. score=1,ghost_danger=-200")
    raw: dict[str, float] = {}
    for position, item in enumerate(text.split(","), start=1):
        name, sep, value = item.partition("=")
        name, value = name.strip(), value.strip()
        if not sep or not name:
            raise ConfigurationError(f"{where}: item {position} ({item.strip()!r}) is not "
                                     "name=number")
        if name not in FEATURES:
            raise ConfigurationError(f"{where}: unknown feature {name!r}{suggest(name, FEATURES)}")
        if name in raw:
            raise ConfigurationError(f"{where}: feature {name!r} is given twice")
        try:
            weight = float(value)
        except ValueError:
            raise ConfigurationError(f"{where}: the weight of {name!r} is not a number: "
                                     f"{value!r}") from None
        raw[name] = weight
    return check_weights(raw, where)


def load_weights(path: str | Path) -> dict[str, float]:
    """Weights from a JSON file holding one object ``{"feature": number, ...}``.

    Raises :class:`ConfigurationError` for a missing or unreadable file, malformed JSON (naming
    the file, line and column), a top level that is not an object, an unknown feature name or a
    weight that is not a number (naming the feature).
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigurationError(f"{path}: no such weights file") from None
    except IsADirectoryError:
        raise ConfigurationError(f"{path}: is a folder, not a weights file") from None
    except UnicodeDecodeError as error:
        raise ConfigurationError(f"{path}: is not a UTF-8 text file (undecodable byte at "
                                 f"offset {error.start})") from None
    except OSError as error:
        raise ConfigurationError(f"{path}: cannot be read ({error.strerror})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ConfigurationError(f"{path}:{error.lineno}:{error.colno}: invalid JSON: "
                                 f"{error.msg}") from None
    if not isinstance(data, dict):
        raise ConfigurationError(f"{path}: expected a JSON object mapping feature names to "
                                 f"weights, got a JSON {type(data).__name__}")
    return check_weights(data, str(path))


def weights_from_text(text: str) -> dict[str, float]:
    """Weights from the text of an ``evaluation=linear:TEXT`` option.

    ``TEXT`` is ``name=number,...`` (any ``=`` in it), the path of a JSON weights file, or empty
    or ``default`` for :data:`DEFAULT_WEIGHTS`.
    """
    stripped = text.strip()
    if stripped in ("", "default"):
        return dict(DEFAULT_WEIGHTS)
    if "=" in stripped:
        return parse_weights(stripped)
    path = Path(stripped)
    if not path.exists() and stripped in FEATURES:
        raise ConfigurationError(f"linear evaluation: {stripped!r} has no weight; write "
                                 f"{stripped}=NUMBER, or give a JSON weights file")
    return load_weights(path)


def make_linear_evaluation(text: str) -> Evaluation:
    """The :class:`Evaluation` for the option ``evaluation=linear:TEXT`` (``TEXT`` as in
    :func:`weights_from_text`), named ``linear:TEXT``.

    Raises :class:`ConfigurationError` on bad weights or an unusable weights file.
    """
    return Evaluation(f"linear:{text.strip()}", LinearEvaluation(weights_from_text(text)))


__all__ = ["DANGER_RADIUS", "DEFAULT_WEIGHTS", "FEATURES", "GHOST_DISTANCE_CAP",
           "LinearEvaluation", "check_weights", "features", "load_weights",
           "make_linear_evaluation", "parse_weights", "weights_from_text"]
