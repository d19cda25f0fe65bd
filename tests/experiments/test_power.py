"""Deciding claims with power: the three verdicts, the sizes they ask for, and figures whose
labels do not overlap."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from pacman.experiments import figures
from pacman.experiments.base import Claim
from pacman.experiments.games import paired
from pacman.experiments.power import (Decision, decide_interval, decide_rate, games_for_power,
                                      paired_sd, rate_can_pass)


def test_games_for_power_matches_the_published_paired_t_size():
    # A paired t-test at 5 % two-sided needs 10 pairs for 80 % power at d = 1 (and 34 at 0.5).
    assert games_for_power(1.0, 1.0) == 10
    assert games_for_power(2.0, 1.0) == 34
    assert games_for_power(0.0, 1.0) == 2


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.floats(0.1, 1000.0), st.floats(0.1, 1000.0), st.floats(1.1, 4.0))
def test_a_larger_effect_never_needs_more_games(sd, effect, factor):
    assert games_for_power(sd, effect * factor) <= games_for_power(sd, effect)
    assert games_for_power(sd * factor, effect) >= games_for_power(sd, effect)


def test_the_three_verdicts_of_an_interval():
    held = decide_interval(30.0, 10.0, 50.0, 20, 40.0, effect=25.0)
    assert held.holds and held.decided
    refuted = decide_interval(2.0, -8.0, 12.0, 20, 20.0, effect=25.0)
    assert not refuted.holds and refuted.decided  # excludes the lecture's 25
    open_ = decide_interval(15.0, -5.0, 35.0, 20, 40.0, effect=25.0)
    assert not open_.holds and not open_.decided and open_.needed > 20


def test_a_wide_interval_is_undecided_not_refuted():
    test = paired("score", [300, -200, 500, 0, 100], [0, 0, 0, 0, 0], (-1000, 1000))
    decision = test.decision(100.0)
    assert not decision.holds and not decision.decided
    claim = Claim("c", False, "e", "s", "r", decision, 5)
    assert claim.verdict == f"undecided at 5 games (needs about {decision.needed})"
    assert "Most likely reason" not in claim.line()


def test_paired_sd_inverts_the_interval():
    test = paired("x", [1.0, 4.0, 2.0, 7.0, 3.0], [0.0] * 5, (-100, 100))
    d = test.difference
    sd = math.sqrt(sum((v - d.difference) ** 2 for v in [1, 4, 2, 7, 3]) / 4)
    assert math.isclose(paired_sd(d.low, d.high, d.n), sd, rel_tol=1e-9)


def test_rate_decisions_count_seeds():
    assert decide_rate(60, 60, 0.75, above=True, planning=0.95).holds
    few = decide_rate(6, 6, 0.75, above=True, planning=0.95)
    assert not few.holds and not few.decided and few.needed > 6
    assert decide_rate(0, 60, 0.75, above=True, planning=0.95).decided
    assert rate_can_pass(60, 0.75, above=True) and not rate_can_pass(6, 0.75, above=True)


def _overlaps(boxes) -> bool:
    return any(a.overlaps(b) for i, a in enumerate(boxes) for b in boxes[i + 1:])


def test_figure_labels_never_overlap(tmp_path, monkeypatch):
    checked = []
    real_save = figures.save_figure

    def check(figure, path):
        figure.tight_layout()
        renderer = figure.canvas.get_renderer()
        boxes = [t.get_window_extent(renderer) for axes in figure.axes
                 for t in axes.get_yticklabels() if t.get_text() and t.get_visible()]
        assert boxes and not _overlaps(boxes)
        checked.append(path)
        return real_save(figure, path)

    monkeypatch.setattr(figures, "save_figure", check)
    long = "a condition label long enough to need wrapping onto a second or third line"
    claims = [Claim(f"{long} {n}", n % 2 == 0, "e", "s", "r",
                    Decision(n % 2 == 0, True, n, n - 1, n + 1, None, 0.0, 2.0, "score"), 9)
              for n in range(8)]
    figures.claims_figure(claims, tmp_path / "claims.png", "score")
    figures.rates_figure([f"{long} {n}" for n in range(8)],
                         [("captures", [(n, 10) for n in range(8)]),
                          ("wins", [(10 - n, 10) for n in range(8)])], tmp_path / "rates.png")
    figures.intervals_figure([(f"{long} {n}", n, n - 1, n + 1) for n in range(8)],
                             tmp_path / "intervals.png", "points", [(0.0, "zero")])
    assert len(checked) == 3
    assert all((tmp_path / name).read_bytes()[:4] == b"\x89PNG"
               for name in ("claims.png", "rates.png", "intervals.png"))


def test_the_overlap_check_sees_crowded_labels():
    from pacman.batch.plots import pyplot

    plt = pyplot()
    figure, axes = plt.subplots(figsize=(6, 1.5))
    axes.set_yticks(range(8), [figures.wrap("a long label " * 6)] * 8)
    renderer = figure.canvas.get_renderer()
    assert _overlaps([t.get_window_extent(renderer) for t in axes.get_yticklabels()])
    plt.close(figure)
