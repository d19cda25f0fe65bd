"""The lecture examples as games and as named built-in trees.

Games (the Games I notes):

* :class:`BinsGame`: you pick one of three bins A = (-50, 50), B = (1, 3),
  C = (-5, 15), then the opponent picks a number from it.  With ``coin=True``
  a fair coin is flipped after your pick; heads moves one bin to the left
  (A wraps round to C).
* :class:`HalvingGame`: start with N; players alternately replace N by N-1
  or floor(N/2); the player to move when N is 0 wins.

Built-in trees, loadable by name with :func:`builtin_tree`:

* ``recitation``: the recitation's tree A..R (minimax 6 via A-C-H);
* ``slides_minimax``: the Pacman slides' MAX root over MIN nodes (3,12,8), (2,4,6),
  (14,5,2) (value 3);
* ``slides_expectimax``: the Pacman slides' chance node 1/2 * 8 + 1/3 * 24 +
  1/6 * (-12) = 10;
* ``bins`` and ``bins_coin``: the three-bin game and its coin variant.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .game import Game, NodeKind
from .trees import TreeGame, tree_from_dict

BINS: dict[str, tuple[int, ...]] = {"A": (-50, 50), "B": (1, 3), "C": (-5, 15)}
_BIN_NAMES = tuple(BINS)


class BinsGame(Game[tuple, Any]):
    """The Games I notes' three-bin game.  States: ``("start",)``, ``("coin", bin)``,
    ``("pick", bin)`` and ``("end", number)``.

    ``opponent="min"`` makes the number-picking state a MIN node;
    ``opponent="random"`` makes it a uniform CHANCE node.  Depth counts plies.
    """

    start: tuple = ("start",)

    def __init__(self, coin: bool = False, opponent: str = "min") -> None:
        if opponent not in ("min", "random"):
            raise ValueError(f"opponent must be 'min' or 'random', got {opponent!r}")
        self.coin = coin
        self.opponent = opponent

    def kind(self, state: tuple) -> NodeKind:
        stage = state[0]
        if stage == "start":
            return NodeKind.MAX
        if stage == "coin":
            return NodeKind.CHANCE
        return NodeKind.MIN if self.opponent == "min" else NodeKind.CHANCE

    def is_end(self, state: tuple) -> bool:
        return state[0] == "end"

    def utility(self, state: tuple) -> float:
        return state[1]

    def actions(self, state: tuple) -> Sequence[Any]:
        stage = state[0]
        if stage == "start":
            return _BIN_NAMES
        if stage == "coin":
            return ("tails", "heads")
        return BINS[state[1]]

    def successor(self, state: tuple, action: Any) -> tuple:
        stage = state[0]
        if stage == "start":
            return ("coin", action) if self.coin else ("pick", action)
        if stage == "coin":
            i = _BIN_NAMES.index(state[1])
            return ("pick", state[1] if action == "tails" else _BIN_NAMES[(i - 1) % 3])
        return ("end", action)

    def evaluate(self, state: tuple) -> float:
        # Mean of the numbers still reachable: a simple heuristic for depth cuts.
        if state[0] == "pick":
            nums = BINS[state[1]]
        elif state[0] == "coin":
            i = _BIN_NAMES.index(state[1])
            nums = BINS[state[1]] + BINS[_BIN_NAMES[(i - 1) % 3]]
        else:
            nums = tuple(x for b in BINS.values() for x in b)
        return sum(nums) / len(nums)


class HalvingGame(Game[tuple, str]):
    """The Games I notes' halving game.  A state is ``(n, player)`` with player 0 (the
    first player, MAX) or 1 (MIN).  Actions: ``"-"`` (n-1) and ``"/"``
    (floor(n/2)).  When n is 0 the player to move has won: the utility is
    ``+win`` if that is player 0, ``-win`` otherwise (default ±1, from the
    first player's view; ±1 rather than ±inf keeps expectations finite).
    """

    def __init__(self, win: float = 1.0) -> None:
        self.win = win

    @staticmethod
    def start(n: int) -> tuple:
        if n < 0:
            raise ValueError("n must be >= 0")
        return (n, 0)

    def kind(self, state: tuple) -> NodeKind:
        return NodeKind.MAX if state[1] == 0 else NodeKind.MIN

    def is_end(self, state: tuple) -> bool:
        return state[0] == 0

    def utility(self, state: tuple) -> float:
        return self.win if state[1] == 0 else -self.win

    def actions(self, state: tuple) -> Sequence[str]:
        return ("-", "/")

    def successor(self, state: tuple, action: str) -> tuple:
        n, player = state
        return (n - 1 if action == "-" else n // 2, 1 - player)

    def evaluate(self, state: tuple) -> float:
        return 0.0


def _leaf(node_id: str, value: float, action: str | None = None) -> dict[str, Any]:
    d: dict[str, Any] = {"id": node_id, "value": value}
    if action is not None:
        d["action"] = action
    return d


def _node(node_id: str, kind: str, children: list[dict], value: float | None = None, **extra: Any) -> dict[str, Any]:
    d: dict[str, Any] = {"id": node_id, "kind": kind, "children": children}
    if value is not None:
        d["value"] = value
    d.update(extra)
    return d


def recitation_tree() -> dict[str, Any]:
    """The recitation's tree A..R.

    From the transcript: E=2, K=3, L=0, Q=1, N=7, H=6, I=1; J is the max of
    20 and 2, and "everything except for P" is below 10, so O=2, P=20; R is
    never given (min(Q, R) = 1, so R >= 1): we use 5, which changes nothing.
    The static values used when depth runs out at ply 2 are stated: F=3, G=7,
    J=20 (the "genius friend" gives the exact values).  In the same spirit B,
    C, D, M and the root A carry their exact values 2, 6, 1, 1 and 6.
    """
    return _node(
        "A",
        "max",
        [
            _node("B", "min", [_leaf("E", 2), _node("F", "max", [_leaf("K", 3), _leaf("L", 0)], 3)], 2),
            _node(
                "C",
                "min",
                [
                    _node("G", "max", [_node("M", "min", [_leaf("Q", 1), _leaf("R", 5)], 1), _leaf("N", 7)], 7),
                    _leaf("H", 6),
                ],
                6,
            ),
            _node("D", "min", [_leaf("I", 1), _node("J", "max", [_leaf("O", 2), _leaf("P", 20)], 20)], 1),
        ],
        6,
    )


def slides_minimax_tree() -> dict[str, Any]:
    """The Pacman slides' MAX root over MIN nodes with leaves (3,12,8), (2,4,6), (14,5,2)."""
    groups = {"B": (3, 12, 8), "C": (2, 4, 6), "D": (14, 5, 2)}
    return _node(
        "A",
        "max",
        [_node(name, "min", [_leaf(f"{name}{i + 1}", v) for i, v in enumerate(vals)]) for name, vals in groups.items()],
    )


def slides_expectimax_tree() -> dict[str, Any]:
    """The Pacman slides' chance node: 1/2 * 8 + 1/3 * 24 + 1/6 * (-12) = 10."""
    return _node(
        "X",
        "chance",
        [
            {"id": "X1", "value": 8, "p": "1/2"},
            {"id": "X2", "value": 24, "p": "1/3"},
            {"id": "X3", "value": -12, "p": "1/6"},
        ],
    )


def _bin_node(node_id: str, name: str, opponent: str) -> dict[str, Any]:
    leaves = [_leaf(f"{node_id}:{v}", v, action=str(v)) for v in BINS[name]]
    return _node(node_id, opponent, leaves, action=name)


def bins_tree(coin: bool = False) -> dict[str, Any]:
    """The three-bin game as a tree (root ``S``; MIN nodes ``A``, ``B``, ``C``;
    leaves ``A:-50`` ...).  With ``coin``, ``A`` etc. are chance nodes whose
    ``tails`` / ``heads`` children are MIN nodes over the landed bin."""
    children = []
    for i, name in enumerate(_BIN_NAMES):
        if not coin:
            children.append(_bin_node(name, name, "min"))
            continue
        left = _BIN_NAMES[(i - 1) % 3]
        outcomes = [_bin_node(f"{name}.tails", name, "min"), _bin_node(f"{name}.heads", left, "min")]
        outcomes[0]["action"], outcomes[1]["action"] = "tails", "heads"
        children.append(_node(name, "chance", outcomes))
    return _node("S", "max", children)


BUILTIN_TREES = {
    "recitation": recitation_tree,
    "slides_minimax": slides_minimax_tree,
    "slides_expectimax": slides_expectimax_tree,
    "bins": lambda: bins_tree(coin=False),
    "bins_coin": lambda: bins_tree(coin=True),
}


def builtin_tree(name: str) -> TreeGame:
    """The built-in tree called ``name`` (see :data:`BUILTIN_TREES`)."""
    try:
        factory = BUILTIN_TREES[name]
    except KeyError:
        raise KeyError(f"no built-in tree {name!r}; built-ins: {', '.join(BUILTIN_TREES)}") from None
    return tree_from_dict(factory(), source=f"builtin:{name}")
