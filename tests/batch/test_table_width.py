"""The terminal table fits 100 columns however long the condition labels; the full labels
stay in the legend below it and in the Markdown table."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from pacman.batch.tables import (ConditionSummary, Comparison, render_text, to_markdown)
from pacman.batch.stats import paired_difference


def summary(label: str, wins: int, score: float, nodes: float | None) -> ConditionSummary:
    causes = {"caught": 100 - wins, "move_limit": 0, "crash": 3, "illegal": 2, "timeout": 1}
    return ConditionSummary(
        condition=label, pacman="alphabeta", pacman_options={"depth": "3"}, ghosts=["team"],
        ghost_options={}, layout="large_classic", games=100, wins=wins, win_rate=wins / 100,
        win_low=max(0.0, wins / 100 - 0.1), win_high=min(1.0, wins / 100 + 0.1),
        mean_score=score, score_low=score - 1234.5, score_high=score + 1234.5,
        mean_moves=812.4, causes=causes, think_ms_per_move=12345.678, nodes_per_move=nodes)


LONG = ("deepening time_budget=0.5 max_depth=30 evaluation=better order=evaluation table=True "
        "vs team,team,team,team depth=3 @ large_classic")


def comparison(a: str, b: str) -> Comparison:
    wins_a, wins_b = [1, 0, 1, 1], [0, 0, 1, 0]
    return Comparison(a=a, b=b, seeds=4, win_rate=paired_difference(wins_a, wins_b),
                      score=paired_difference([1500, -400, 1300, 1200], [-300, -350, 1250, -20]),
                      only_a_won=2, only_b_won=0)


def test_long_labels_fit_and_appear_once_each_in_the_legend():
    labels = [LONG + f" #{i}" for i in range(3)]
    summaries = [summary(label, 97, -1234.5, 1234567.8) for label in labels]
    text = render_text(summaries, [comparison(labels[1], labels[0]),
                                   comparison(labels[2], labels[0])])
    assert max(len(line) for line in text.splitlines()) <= 100
    joined = " ".join(text.split())
    for number, label in enumerate(labels, start=1):
        assert joined.count(label) == 1 and f"C{number}" in text
    assert "C2 - C1" in text and "C3 - C1" in text


def test_the_markdown_table_keeps_the_full_labels_on_every_row():
    labels = [LONG + " #1", LONG + " #2"]
    markdown = to_markdown([summary(label, 50, 10.0, None) for label in labels],
                           [comparison(labels[1], labels[0])])
    assert markdown.count(labels[0]) == 2 and markdown.count(labels[1]) == 2
    assert max(len(line) for line in markdown.splitlines()) > 100


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.text(st.characters(min_codepoint=33, max_codepoint=126),
                                  min_size=1, max_size=150),
                          st.integers(0, 100), st.floats(-99999, 99999),
                          st.none() | st.floats(0, 9_999_999)),
                min_size=1, max_size=12, unique_by=lambda t: t[0]))
def test_any_batch_fits_100_columns(rows):
    summaries = [summary(*row) for row in rows]
    pairs = [comparison(s.condition, summaries[0].condition) for s in summaries[1:]]
    text = render_text(summaries, pairs)
    assert max(len(line) for line in text.splitlines()) <= 100
