"""The ranking rule on made-up games: the leader, ties by the paired interval, failures
counted against the failing side, and a table that does not depend on the order games come in."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from pacman.engine.outcome import Outcome
from pacman.tournament.ranking import FAILURE_PENALTY, Game, paired, rank
from pacman.tournament.results import to_csv


def games_of(who: str, scores: list[int], outcome: Outcome = Outcome.WIN) -> list[Game]:
    return [Game(who, None, "m", seed, outcome, score, 10) for seed, score in enumerate(scores)]


def test_an_entrant_as_good_as_the_leader_is_tied_and_a_worse_one_is_not():
    leader = games_of("lea", [500, 520, 480, 510, 530, 490])
    twin = games_of("twin", [505, 515, 470, 520, 525, 495])   # within noise of the leader
    behind = games_of("low", [300, 330, 270, 310, 320, 280])  # 200 lower on every seed
    table = {s.id: s for s in rank(leader + twin + behind)}
    assert table["lea"].rank == 1 and not table["lea"].tied
    assert table["twin"].rank == 1 and table["twin"].tied
    assert table["low"].rank == 3 and not table["low"].tied
    low, high = table["low"].versus_leader["interval"]
    assert high < 0 and abs(table["low"].versus_leader["difference"] + 200) < 10


def test_pairing_separates_what_independent_intervals_cannot():
    # Seeds vary a lot and both entrants alike; one is always 20 points better.
    base = [100, 900, 300, 700, 500, 200, 800]
    table = {s.id: s for s in rank(games_of("a", [b + 20 for b in base]) + games_of("b", base))}
    a_low, a_high = table["a"].score_interval
    b_low, b_high = table["b"].score_interval
    assert a_low < b_high  # the plain intervals overlap ...
    assert not table["b"].tied and table["b"].rank == 2  # ... the paired one does not


def test_a_failed_game_counts_against_the_failing_side():
    from pacman.batch.jobs import GameJob
    from pacman.engine.game import Failure, GameResult
    from pacman.tournament.ranking import cup_games

    job = GameJob(condition="cup: x @ m", layout="testClassic", pacman="random")
    result = GameResult(seed=0, layout="m", layout_text="", num_ghosts=1, agents=[],
                        outcome=Outcome.CRASH, score=40, moves=3, actions=[], think_time=[],
                        max_move_time=[], decisions=[],
                        failure=Failure(0, Outcome.CRASH, "ValueError: no"))
    (game,) = cup_games([(job, result)])
    assert game.score == 40 - FAILURE_PENALTY and game.failed_side == "pacman"


def test_an_id_holding_vs_is_one_entrant_in_a_one_sided_cup():
    from pacman.batch.jobs import GameJob
    from pacman.engine.game import GameResult
    from pacman.tournament.ranking import cup_games

    job = GameJob(condition="cup: ann vs bob.py @ m", layout="testClassic", pacman="random")
    result = GameResult(seed=0, layout="m", layout_text="", num_ghosts=1, agents=[],
                        outcome=Outcome.WIN, score=40, moves=3, actions=[], think_time=[],
                        max_move_time=[], decisions=[])
    (one,) = cup_games([(job, result)], two_sided=False)
    (two,) = cup_games([(job, result)], two_sided=True)
    assert (one.pacman, one.ghosts) == ("ann vs bob.py", None)
    assert (two.pacman, two.ghosts) == ("ann", "bob.py")


def test_paired_handles_equal_differences():
    assert paired([1, 2, 3], [1, 2, 3])["interval"] == [0.0, 0.0]
    assert paired([5], [3])["interval"] is None


entrant_scores = st.dictionaries(st.sampled_from(["a", "b", "c", "d", "e"]),
                                 st.lists(st.integers(-600, 1500), min_size=4, max_size=4),
                                 min_size=1)


@settings(max_examples=60, deadline=None)
@given(entrant_scores, st.randoms(use_true_random=False))
def test_the_table_does_not_depend_on_the_order_of_the_games(scores, shuffler):
    games = [g for who, values in scores.items() for g in games_of(who, values)]
    table = to_csv({"pacman": rank(games)})
    mixed = list(games)
    shuffler.shuffle(mixed)
    assert to_csv({"pacman": rank(mixed)}) == table


@settings(max_examples=60, deadline=None)
@given(entrant_scores)
def test_the_leader_has_the_best_mean_and_ties_hold_zero(scores):
    games = [g for who, values in scores.items() for g in games_of(who, values)]
    rows = rank(games)
    assert rows[0].mean_score == max(r.mean_score for r in rows)
    seen_untied = False
    for row in rows[1:]:
        interval = row.versus_leader["interval"]
        assert row.tied == (interval[0] <= 0 <= interval[1])
        seen_untied |= not row.tied
        assert not (row.tied and seen_untied), "a tied entrant listed after an untied one"
    ranks = [r.rank for r in rows]
    assert all(r == 1 for r, row in zip(ranks, rows) if row.tied or row is rows[0])
    for place, row in enumerate(rows, start=1):
        if place > 1 and not row.tied:
            assert row.rank == place
