"""Generic game-tree search: minimax, alpha-beta, expectimax, expectiminimax,
iterative deepening, Monte Carlo evaluation, max^n and MCTS.

Games implement :class:`~pacman.agents.search.game.Game`; every search returns a
:class:`~pacman.agents.search.result.SearchResult`.  Nothing here depends on the
Pacman engine.

Read ``textbook`` first: minimax, alpha-beta and expectimax as the lecture writes them, one
short recursive function each; the searches below give the same values, visit order and
counts (``tests/search/test_textbook.py``), only faster.

Modules: ``game`` (protocol), ``textbook`` (the reference), ``core`` (the one recursive search: its
configuration and entry points), ``node_search`` (the search object: root,
MAX/MIN, chance), ``nodes`` (leaves, tables, ordering and counting per node),
``algorithms`` (named configurations), ``ordering`` (move ordering),
``table`` (transposition table), ``deepening`` (iterative deepening),
``playouts`` (policies and Monte Carlo evaluation), ``maxn`` (utility
tuples), ``mcts`` (UCT), ``trees`` (JSON trees), ``lecture_games`` (the
lecture examples), ``synthetic`` (implicit random trees), ``result``
(result records).
"""

from .algorithms import ALGORITHMS, alphabeta, algorithm_config, expectimax, expectiminimax, minimax
from .core import ChanceNodeError, SearchConfig, SearchTimeout, run_search
from .deepening import iterative_deepening
from .game import Game, MultiPlayerGame, NodeKind
from .maxn import maxn
from .mcts import mcts
from .playouts import MonteCarloEvaluator, playout, uniform_policy
from .result import SearchResult, SearchStats
from .table import TranspositionTable
from .trees import TreeFormatError, TreeGame, TreeNode, load_tree, parse_tree_text, tree_from_dict

__all__ = [
    "ALGORITHMS",
    "ChanceNodeError",
    "Game",
    "MonteCarloEvaluator",
    "MultiPlayerGame",
    "NodeKind",
    "SearchConfig",
    "SearchResult",
    "SearchStats",
    "SearchTimeout",
    "TranspositionTable",
    "TreeFormatError",
    "TreeGame",
    "TreeNode",
    "algorithm_config",
    "alphabeta",
    "expectimax",
    "expectiminimax",
    "iterative_deepening",
    "load_tree",
    "maxn",
    "mcts",
    "minimax",
    "parse_tree_text",
    "playout",
    "run_search",
    "tree_from_dict",
    "uniform_policy",
]
