"""Verdicts mean what they say at any size: fewer distinct pairs than the sign test needs decide
nothing (ties included), a deterministic cell shows its one game with no interval, and a
rehearsal (``experiment coordination --games 2``) states no firm verdict."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pacman import experiments
from pacman.experiments import Settings, write_report
from pacman.experiments.claims import Claim
from pacman.experiments.games import SIGN_TEST_PAIRS, paired
from pacman.experiments.power import HOLDS, NOT_BORNE_OUT, NOT_LECTURE_SIZE, SMALLER, UNDECIDED

FIRM = (HOLDS, SMALLER, NOT_BORNE_OUT, NOT_LECTURE_SIZE)


def test_every_pair_tying_on_two_seeds_is_undecided_not_refuted():
    ties = paired("captures", [0.0, 0.0], [0.0, 0.0], (-1.0, 1.0))
    decision = ties.decision(0.1)
    assert decision.kind == UNDECIDED and not decision.decided
    assert decision.needed == SIGN_TEST_PAIRS
    assert "decides nothing below 6 distinct pairs" in ties.text()


def test_an_undecided_claim_says_why_in_words_that_fit_it():
    """Ties on two seeds have no interval (a point), so the report says there are too few
    results, not that an interval is too wide; a wide interval says it is too wide."""
    ties = paired("captures", [0.0, 0.0], [0.0, 0.0], (-1.0, 1.0))
    line = Claim("ties", False, ties.text(), decision=ties.decision(0.1), games=2).line()
    assert "Too few distinct results to decide: more games, not a verdict." in line
    assert "too wide" not in line
    spread = paired("captures", [1.0, 0.0], [0.0, 0.0], (-1.0, 1.0))
    line = Claim("spread", False, spread.text(), decision=spread.decision(0.1), games=2).line()
    assert "The interval is too wide to decide" in line


def test_the_needed_seeds_count_distinct_pairs():
    # 4 seeds, 2 distinct pairs: about 12 seeds give 6 distinct pairs
    repeated = paired("score", [1.0] * 4, [1.0] * 4, (-9.0, 9.0), distinct_pairs=2)
    assert repeated.decision(1.0).needed == 12


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(-3, 3), st.integers(-3, 3)), min_size=2,
                max_size=SIGN_TEST_PAIRS - 1),
       st.floats(0.0, 2.0), st.floats(0.1, 3.0))
def test_fewer_distinct_pairs_than_the_rule_needs_give_no_firm_verdict(pairs, threshold, more):
    a, b = [float(x) for x, _ in pairs], [float(y) for _, y in pairs]
    test = paired("score", a, b, (-6.0, 6.0))
    decision = test.decision(threshold + more, threshold)
    assert decision.kind == UNDECIDED, (pairs, decision)
    assert decision.needed and decision.needed > len(pairs)
    assert not test.above_zero and not test.below_zero  # the claims' holds agree


def test_enough_distinct_pairs_still_decide_both_ways():
    up = paired("score", [9.0] * SIGN_TEST_PAIRS, [1.0] * SIGN_TEST_PAIRS, (-99.0, 99.0))
    assert up.decision(5.0).kind == HOLDS
    ties = paired("score", [3.0] * 8, [3.0] * 8, (-99.0, 99.0))
    assert ties.decision(1.0).kind == NOT_BORNE_OUT
    spread = paired("score", [5, 7, 6, 8, 9, 7], [1, 2, 1, 3, 2, 2], (-100, 100))
    assert spread.decision(3.0).kind in (HOLDS, SMALLER)


@pytest.fixture(scope="module")
def rehearsal(tmp_path_factory) -> tuple[experiments.Report, Path]:
    """``experiment coordination --games 2`` on its first maze and start radius."""
    out = tmp_path_factory.mktemp("coordination")
    run = Settings(games=2, seed=0, out=out, workers=2)
    report = experiments.get("coordination").run(run, mazes=(("coordination", 0),))
    write_report(report, run)
    return report, out


def test_a_rehearsal_states_no_firm_verdict(rehearsal):
    report, out = rehearsal
    assert report.claims
    firm = [(c.verdict, c.text) for c in report.claims if c.kind in FIRM]
    assert not firm
    verdicts = [line for line in (out / "report.md").read_text().splitlines()
                if line.startswith("- **")]
    assert verdicts and not any("not borne out" in line or "**holds" in line
                                for line in verdicts)
    assert all(c.verdict.startswith("undecided at 2 games (needs about ") for c in report.claims)


def test_a_deterministic_cell_shows_one_game_and_no_interval(tmp_path):
    run = Settings(games=3, seed=0, out=tmp_path, workers=2)
    report = experiments.get("thrashing").run(run, mazes=())
    write_report(report, run)
    rows = [[cell.strip() for cell in line.strip("|").split("|")]
            for line in (tmp_path / "report.md").read_text().splitlines()
            if "(deterministic)" in line]
    rows = [cells for cells in rows if len(cells) == 10]  # the outcome table's
    assert rows, "the thrashing demo's cells are deterministic"
    for cells in rows:
        row = " | ".join(cells)
        assert "one game" in cells[4] and "[" not in cells[4], row  # win rate
        assert "one game" in cells[5] and "[" not in cells[5], row  # mean score
