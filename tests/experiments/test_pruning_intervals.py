"""The pruning experiment decides its claims on intervals, not point estimates: every fitted
exponent comes with a bootstrap interval over the trees (or positions), a claim holds only when
the interval lies inside its band, and the figure gives each ordering one colour in both panels
and whole-number depth ticks."""

from __future__ import annotations

import math

import pytest

from pacman.experiments import Settings, get, write_report
from pacman.experiments.power import HOLDS, NOT_BORNE_OUT, UNDECIDED


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    out = tmp_path_factory.mktemp("pruning")
    run = Settings(games=3, seed=0, out=out)
    report = get("pruning").run(run)
    write_report(report, run)
    return report, out


def test_every_exponent_has_an_interval_and_the_claims_are_decided_on_it(small):
    report, out = small
    intervals = report.data["trees"]["intervals"]
    for name, (low, high) in intervals.items():
        estimate = report.data["trees"]["exponents"][name]
        assert low <= estimate <= high, name
    assert intervals["perfect"][0] == intervals["perfect"][1]  # an exact count: no spread
    assert intervals["random"][0] < intervals["random"][1]
    text = (out / "report.md").read_text()
    assert "fitted x [95 % bootstrap]" in text
    for claim in report.claims:
        assert claim.decision is not None, claim.text
        d = claim.decision
        assert d.low <= d.estimate <= d.high, claim.text
        if d.low != d.high:  # 3 trees or positions: too few to decide on a bootstrap
            assert claim.kind == UNDECIDED, claim.text
            assert claim.verdict.startswith(("undecided at 3 trees", "undecided at 3 positions"))
    perfect = report.claims[0]
    assert perfect.kind == HOLDS and "exact" in perfect.evidence


def test_a_band_is_decided_by_the_whole_interval():
    from pacman.experiments.pruning import band_decision

    def kind(low, high, samples=10):
        return band_decision((low + high) / 2, low, high, at_least=0.4, at_most=0.6,
                             samples=samples, unit="x").kind

    assert kind(0.45, 0.55) == HOLDS
    assert kind(0.35, 0.55) == UNDECIDED  # the point estimate 0.45 would have said holds
    assert kind(0.61, 0.7) == NOT_BORNE_OUT
    assert kind(0.45, 0.55, samples=3) == UNDECIDED
    assert kind(0.5, 0.5, samples=2) == HOLDS  # exact


def test_the_bootstrap_interval_is_scipys_and_covers_the_estimate():
    from pacman.experiments.pruning import bootstrap_interval

    values = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]

    def mean(chosen):
        return sum(values[i] for i in chosen) / len(chosen)

    low, high = bootstrap_interval(len(values), mean, seed=1)
    assert low < 4.5 < high and low > 2.0 and high < 7.0
    assert bootstrap_interval(len(values), mean, seed=1) == (low, high)  # seeded
    assert all(math.isnan(x) for x in bootstrap_interval(1, mean, seed=1))


def test_the_figure_gives_each_ordering_one_colour_and_whole_depth_ticks():
    from matplotlib.colors import to_hex

    from pacman.experiments.pruning import (PACMAN_DEPTHS, PACMAN_ORDERS, TREE_ORDERS,
                                            TREE_PLIES, figure_of)

    trees = {name: [10.0 * (k + 1) for k in range(len(TREE_PLIES))] for name in TREE_ORDERS}
    pacman = {name: [5.0 * (k + 1) for k in range(len(PACMAN_DEPTHS))]
              for name in ("minimax", *PACMAN_ORDERS)}
    figure = figure_of(trees, pacman)
    left, right = figure.axes
    colours: dict[str, set[str]] = {}
    for axes in (left, right):
        for line in axes.get_lines():
            name = line.get_label().replace("alpha-beta, ", "")
            if name in trees or name in pacman:
                colours.setdefault(name, set()).add(to_hex(line.get_color()))
    assert all(len(found) == 1 for found in colours.values()), colours
    assert len({next(iter(found)) for found in colours.values()}) == len(colours)
    for axes, depths in ((left, TREE_PLIES), (right, PACMAN_DEPTHS)):
        ticks = list(axes.get_xticks())
        assert ticks == list(depths) and all(float(t).is_integer() for t in ticks)
    import matplotlib.pyplot as plt

    plt.close(figure)
