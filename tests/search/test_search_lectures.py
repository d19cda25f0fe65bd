"""The lecture examples give the numbers stated in the seeds."""

from __future__ import annotations

import random
from functools import cache

import pytest

from pacman.agents.search import (
    ChanceNodeError,
    MonteCarloEvaluator,
    alphabeta,
    expectimax,
    expectiminimax,
    minimax,
)
from pacman.agents.search.lecture_games import BinsGame, HalvingGame, builtin_tree


def ids(states):
    return [s.id for s in states]


# --- the Games I notes: the three-bin game --------------------------------------------------------


@pytest.mark.parametrize("source", ["game", "tree"])
def test_bins_minimax_picks_b_with_value_1(source):
    game, root = (BinsGame(), BinsGame.start) if source == "game" else _tree("bins")
    result = minimax(game, root)
    assert result.action == "B"
    assert result.value == 1
    # min(A) = -50, min(B) = 1, min(C) = -5
    assert result.root_values == {"A": -50, "B": 1, "C": -5}


@pytest.mark.parametrize("source", ["game", "tree"])
def test_bins_expectimax_picks_c_with_value_5(source):
    game, root = (BinsGame(), BinsGame.start) if source == "game" else _tree("bins")
    result = expectimax(game, root)
    assert result.action == "C"
    assert result.value == 5
    # means: A (-50+50)/2 = 0, B (1+3)/2 = 2, C (-5+15)/2 = 5
    assert result.root_values == {"A": 0, "B": 2, "C": 5}


def test_bins_random_opponent_as_chance_nodes_matches_expectimax():
    game = BinsGame(opponent="random")
    result = expectiminimax(game, game.start)
    assert (result.action, result.value) == ("C", 5)


def test_bins_four_game_values_of_seed_000():
    # V(agent=expectimax policy C, min) = -5 <= V(max, min) = 1
    # <= V(max policy B, uniform opp) = 2 <= V(expectimax C, uniform opp) = 5
    game = BinsGame()
    mm = minimax(game, game.start)
    ex = expectimax(game, game.start)
    values = [mm.root_values[ex.action], mm.value, ex.root_values[mm.action], ex.value]
    assert values == [-5, 1, 2, 5]
    assert values == sorted(values)


@pytest.mark.parametrize("source", ["game", "tree"])
def test_bins_coin_variant_expectiminimax(source):
    # After your pick a fair coin: tails keeps the bin, heads moves one bin left (A wraps to C);
    # then the opponent takes the minimum of the landed bin.
    #   pick A: 1/2 * min(A) + 1/2 * min(C) = 1/2 * -50 + 1/2 * -5 = -27.5
    #   pick B: 1/2 * min(B) + 1/2 * min(A) = 1/2 * 1   + 1/2 * -50 = -24.5
    #   pick C: 1/2 * min(C) + 1/2 * min(B) = 1/2 * -5  + 1/2 * 1   = -2
    # so the minimax-optimal pick moves from the middle bin to the rightmost, value -2.
    game, root = (BinsGame(coin=True), BinsGame.start) if source == "game" else _tree("bins_coin")
    result = expectiminimax(game, root)
    assert result.action == "C"
    assert result.value == -2
    assert result.root_values == {"A": -27.5, "B": -24.5, "C": -2}


def test_bins_coin_variant_expectimax():
    #   A: 1/2 * mean(A) + 1/2 * mean(C) = 1/2 * 0 + 1/2 * 5 = 2.5
    #   B: 1/2 * mean(B) + 1/2 * mean(A) = 1/2 * 2 + 1/2 * 0 = 1
    #   C: 1/2 * mean(C) + 1/2 * mean(B) = 1/2 * 5 + 1/2 * 2 = 3.5
    game = BinsGame(coin=True)
    result = expectimax(game, game.start)
    assert result.root_values == {"A": 2.5, "B": 1, "C": 3.5}
    assert (result.action, result.value) == ("C", 3.5)


def test_minimax_rejects_chance_nodes():
    game = BinsGame(coin=True)
    with pytest.raises(ChanceNodeError):
        minimax(game, game.start)
    with pytest.raises(ChanceNodeError):
        alphabeta(game, game.start)


def test_monte_carlo_evaluation_of_bins_under_uniform_policies():
    # Both players uniform: the game value is the mean of all six numbers, 14/6 = 2.33
    # (the Games I notes: "the correct value is 1, but our approximation gives 2.3").
    game = BinsGame()
    evaluate = MonteCarloEvaluator(game, playouts=20000, rng=random.Random(7))
    estimate = evaluate(game.start)
    # standard deviation of one playout is about 30, so of the mean about 0.21
    assert abs(estimate - 14 / 6) < 1.0
    again = MonteCarloEvaluator(game, playouts=20000, rng=random.Random(7))(game.start)
    assert again == estimate
    assert evaluate.counts.terminal_utilities == 20000


# --- the recitation: the tree A..R -------------------------------------------------------


def test_recitation_minimax_value_6_via_a_c_h():
    game, root = _tree("recitation")
    result = minimax(game, root, trace=True)
    assert result.value == 6
    assert result.action == "C"
    assert result.principal_variation == ("C", "H")
    # minimax statically evaluates every leaf in depth-first order
    assert ids(result.stats.evaluated) == list("EKLQRNHIOP")


def test_recitation_alphabeta_evaluates_e_k_q_n_h_i():
    game, root = _tree("recitation")
    result = alphabeta(game, root, trace=True)
    assert result.value == 6
    assert result.action == "C"
    assert ids(result.stats.evaluated) == list("EKQNHI")
    assert ids(result.stats.generated) == list("ABEFKCGMQNHDI")
    assert result.stats.nodes_generated == 13
    # L (B prunes below F), R (G's alpha 2 beats M's beta 1) and J with O, P (A prunes D) are
    # never generated.
    assert not {"L", "R", "J", "O", "P"} & set(ids(result.stats.generated))
    assert result.stats.cutoffs == 3


def test_recitation_depth_two_uses_the_static_values_of_f_g_j():
    game, root = _tree("recitation")
    result = minimax(game, root, depth=2, trace=True)
    # F, G, J are cut at ply 2 and valued 3, 7, 20 by the static evaluator
    assert ids(result.stats.evaluated) == list("EFGHIJ")
    assert result.stats.static_evaluations == 3
    assert result.stats.terminal_utilities == 3
    assert result.value == 6
    assert result.root_values == {"B": 2, "C": 6, "D": 1}


def test_recitation_reordered_by_depth_two_values_saves_k():
    # Recitation: order by the depth-2 values, max nodes best first (C, B, D), min nodes lowest
    # first (H before G, E before F, I before J).  K is saved.  The transcript then counts
    # "E, Q, N, H, I", but with C searched first G's alpha is -inf, so R is not pruned either.
    game, root = _tree("recitation")
    depth2 = {"B": 2, "C": 6, "D": 1, "E": 2, "F": 3, "G": 7, "H": 6, "I": 1, "J": 20}

    def order(state, kind, actions):
        if state.id in ("A", "B", "C", "D"):
            return sorted(actions, key=depth2.__getitem__, reverse=state.id == "A")
        return actions

    result = alphabeta(game, root, order=order, trace=True)
    assert result.value == 6 and result.action == "C"
    assert ids(result.stats.evaluated) == list("HQRNEI")
    assert "K" not in ids(result.stats.generated)


# --- the Pacman slides: slide trees ---------------------------------------------------------------


def test_slides_minimax_tree_value_3():
    game, root = _tree("slides_minimax")
    assert minimax(game, root).value == 3
    assert minimax(game, root).action == "B"


def test_slides_alphabeta_prunes_4_and_6():
    game, root = _tree("slides_minimax")
    result = alphabeta(game, root, trace=True)
    assert result.value == 3
    values = [s.value for s in result.stats.evaluated]
    assert values == [3, 12, 8, 2, 14, 5, 2]
    assert "C2" not in ids(result.stats.generated) and "C3" not in ids(result.stats.generated)


def test_slides_expectimax_value_10():
    # 1/2 * 8 + 1/3 * 24 + 1/6 * (-12) = 4 + 8 - 2 = 10
    game, root = _tree("slides_expectimax")
    for search in (expectimax, expectiminimax):
        result = search(game, root)
        assert result.value == pytest.approx(10)
        assert result.action is None


# --- the Games I notes: the halving game ----------------------------------------------------------


@cache
def mover_wins(n: int) -> bool:
    """Independent solver: does the player to move at n win with best play?"""
    if n == 0:
        return True  # "the player that is left with 0 wins"
    return any(not mover_wins(m) for m in (n - 1, n // 2))


def test_halving_game_minimax_policy_is_correct_up_to_50():
    game = HalvingGame()
    for n in range(0, 51):
        for player in (0, 1):
            state = (n, player)
            result = minimax(game, state)
            mover_value = 1 if mover_wins(n) else -1
            assert result.value == (mover_value if player == 0 else -mover_value), state
            if n == 0:
                assert result.action is None
                continue
            nxt = game.successor(state, result.action)[0]
            if mover_wins(n):
                assert not mover_wins(nxt), f"N={n}: {result.action!r} is not a winning move"


def test_halving_game_alphabeta_with_table_agrees():
    from pacman.agents.search import TranspositionTable

    game = HalvingGame()
    for n in (17, 31, 50):
        plain = minimax(game, (n, 0))
        table = TranspositionTable()
        fast = alphabeta(game, (n, 0), table=table)
        assert (fast.value, fast.action) == (plain.value, plain.action)
        assert fast.stats.nodes_generated < plain.stats.nodes_generated


def _tree(name):
    game = builtin_tree(name)
    return game, game.root
